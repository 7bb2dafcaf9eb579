#include "frontend/cluster_weights.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>

#include "frontend/model_reader.h"
#include "frontend/tflite_internal.h"
#include "ir/dtype.h"
#include "support/diagnostics.h"

namespace microaot {
namespace {

// Lloyd's iterations stop at a fixed point; int8 centroids reach one within a few dozen, this bounds the time.
constexpr int kMaxIterations = 100;

// The index of the centroid nearest v (ties: the lower); centroids ascending.
size_t nearest(const std::vector<int32_t>& centroids, int32_t v) {
  const auto above = std::lower_bound(centroids.begin(), centroids.end(), v);
  if (above == centroids.begin()) return 0;
  if (above == centroids.end()) return centroids.size() - 1;
  const auto below = above - 1;
  return static_cast<size_t>((v - *below <= *above - v ? below : above) - centroids.begin());
}

// One Lloyd step over the histogram of the 256 int8 values: each centroid the rounded mean of its values (an
// empty one stays); duplicates merged. True when a centroid moved.
bool lloyd_step(const std::vector<int64_t>& histogram, std::vector<int32_t>& centroids) {
  std::vector<int64_t> sum(centroids.size(), 0), count(centroids.size(), 0);
  for (int32_t v = -128; v < 128; ++v) {
    const int64_t n = histogram[static_cast<size_t>(v + 128)];
    if (n == 0) continue;
    const size_t c = nearest(centroids, v);
    sum[c] += n * v;
    count[c] += n;
  }
  std::vector<int32_t> next;
  for (size_t c = 0; c < centroids.size(); ++c) {
    next.push_back(count[c] == 0 ? centroids[c]
                                 : static_cast<int32_t>(std::lround(static_cast<double>(sum[c]) / count[c])));
  }
  std::sort(next.begin(), next.end());
  next.erase(std::unique(next.begin(), next.end()), next.end());
  const bool moved = next != centroids;
  centroids = next;
  return moved;
}

// Where ranks coincide (values heaped on a few, e.g. a tensor's many zeros), fewer than k centroids remain: adds
// the present value farthest from every centroid (ties: the lower) until there are k, so that a channel or tensor
// of more than k values keeps k.
void fill_farthest(const std::vector<int64_t>& histogram, int k, std::vector<int32_t>& centroids) {
  while (static_cast<int>(centroids.size()) < k) {
    int32_t best = 0, best_distance = 0;
    for (int32_t v = -128; v < 128; ++v) {
      if (histogram[static_cast<size_t>(v + 128)] == 0) continue;
      const int32_t distance = std::abs(v - centroids[nearest(centroids, v)]);
      if (distance > best_distance) best = v, best_distance = distance;
    }
    if (best_distance == 0) return;  // every present value is a centroid
    centroids.insert(std::upper_bound(centroids.begin(), centroids.end(), best), best);
  }
}

int distinct_count(const std::vector<int8_t>& values) { return static_cast<int>(std::set<int8_t>(values.begin(), values.end()).size()); }

// Channel c's values: dimension 0 (CONV_2D's OHWI, FULLY_CONNECTED's [units, depth]) or the last (DEPTHWISE_CONV_2D).
std::vector<size_t> channel_positions(const Tensor& t, bool last_axis, int32_t c) {
  const auto count = static_cast<size_t>(t.num_elements());
  const auto channels = static_cast<size_t>(last_axis ? t.shape.back() : t.shape[0]);
  std::vector<size_t> at;
  for (size_t i = 0; i < count / channels; ++i) {
    at.push_back(last_axis ? i * channels + static_cast<size_t>(c) : static_cast<size_t>(c) * (count / channels) + i);
  }
  return at;
}

double sqnr_db(double signal, double noise) {
  if (noise == 0) return std::numeric_limits<double>::infinity();
  return 10 * std::log10(signal / noise);
}

// Clusters one weight tensor's channels (or the whole tensor, cluster_per_tensor) in place; its report line.
ClusteredWeights cluster_tensor(Tensor& t, const std::string& op, bool last_axis, int k) {
  ClusteredWeights r{t.name, op, last_axis ? t.shape.back() : t.shape[0], false, 0, 0, 0};
  std::vector<int8_t> data = constant_values<int8_t>(t);
  r.per_tensor = cluster_per_tensor(r.channels, static_cast<int64_t>(data.size()) / r.channels, k);
  const std::vector<int8_t> whole = r.per_tensor ? cluster_channel(data, k) : std::vector<int8_t>{};
  double signal = 0, noise = 0;
  for (int32_t c = 0; c < r.channels; ++c) {
    const std::vector<size_t> at = channel_positions(t, last_axis, c);
    std::vector<int8_t> values, clustered;
    for (size_t i : at) values.push_back(data[i]);
    for (size_t i : at) clustered.push_back(r.per_tensor ? whole[i] : data[i]);
    if (!r.per_tensor) clustered = cluster_channel(values, k);
    const double scale = t.quant.scale.empty() ? 1.0 : t.quant.scale[t.quant.per_channel() ? static_cast<size_t>(c) : 0];
    const int64_t zero = t.quant.zero_point.empty() ? 0 : t.quant.zero_point[t.quant.per_channel() ? static_cast<size_t>(c) : 0];
    for (size_t i = 0; i < at.size(); ++i) {
      const double before = scale * static_cast<double>(values[i] - zero);
      const double after = scale * static_cast<double>(clustered[i] - zero);
      signal += before * before;
      noise += (before - after) * (before - after);
      data[at[i]] = clustered[i];
    }
    r.most_values_before = std::max(r.most_values_before, distinct_count(values));
    r.most_values_after = std::max(r.most_values_after, distinct_count(clustered));
  }
  if (r.per_tensor) r.most_values_after = distinct_count(data);  // the shared table's values
  std::memcpy(t.data.data(), data.data(), data.size());
  r.sqnr_db = sqnr_db(signal, noise);
  return r;
}

// The offset in `file` (the bytes `model` reads) of constant `t`'s data (the main subgraph's tensor
// t.source_index), or CompileError.
size_t file_offset_of(const tflite::Model& model, const std::vector<uint8_t>& file, const Tensor& t) {
  const tflite::SubGraph& sub = tflite_detail::main_subgraph(model);
  const bool found = t.source_index >= 0 && sub.tensors() != nullptr &&
                     static_cast<uint32_t>(t.source_index) < sub.tensors()->size();
  const tflite::Tensor* ft = found ? sub.tensors()->Get(static_cast<uint32_t>(t.source_index)) : nullptr;
  const tflite::Buffer* buffer = ft != nullptr && model.buffers() != nullptr && ft->buffer() < model.buffers()->size()
                                     ? model.buffers()->Get(ft->buffer())
                                     : nullptr;
  if (buffer == nullptr || buffer->data() == nullptr || buffer->data()->size() != t.data.size()) {
    throw CompileError("--cluster-weights: the weights '" + t.name +
                       "' are not a buffer of the file's own (external or shared data): they cannot be rewritten");
  }
  return static_cast<size_t>(buffer->data()->data() - file.data());
}

}  // namespace

bool cluster_per_tensor(int32_t channels, int64_t n, int k) {
  int bits = 0;
  while ((1 << bits) < k) ++bits;
  return int64_t{channels} * (int64_t{1} << bits) * 8 >= int64_t{channels} * n;
}

std::vector<int8_t> cluster_channel(const std::vector<int8_t>& values, int k) {
  MICROAOT_CHECK(k >= 1, "cluster_channel: k >= 1");
  if (distinct_count(values) <= k) return values;
  std::vector<int64_t> histogram(256, 0);
  for (int8_t v : values) ++histogram[static_cast<size_t>(v + 128)];
  std::vector<int8_t> sorted = values;
  std::sort(sorted.begin(), sorted.end());
  std::vector<int32_t> centroids;
  for (int i = 0; i < k; ++i) {
    centroids.push_back(sorted[(sorted.size() * (2 * static_cast<size_t>(i) + 1)) / (2 * static_cast<size_t>(k))]);
  }
  std::sort(centroids.begin(), centroids.end());
  centroids.erase(std::unique(centroids.begin(), centroids.end()), centroids.end());
  fill_farthest(histogram, k, centroids);
  for (int i = 0; i < kMaxIterations && lloyd_step(histogram, centroids); ++i) {
  }
  std::vector<int8_t> out;
  for (int8_t v : values) out.push_back(static_cast<int8_t>(centroids[nearest(centroids, v)]));
  return out;
}

ClusteredModel cluster_model_weights(const std::vector<uint8_t>& tflite, int k, const CustomOpBindings& custom_ops) {
  if (k < 1 || k > kMaxClusterValues) {
    throw CompileError("--cluster-weights takes 1 to " + std::to_string(kMaxClusterValues) + " values per channel");
  }
  const tflite::Model& model = tflite_detail::verify_model(tflite);  // a .tflite, not ONNX
  Graph graph = read_model(tflite, custom_ops);
  ClusteredModel result{tflite, {}};
  std::set<int> done;
  for (const Op& op : graph.ops) {
    if (op.kind != OpKind::Conv2D && op.kind != OpKind::DepthwiseConv2D && op.kind != OpKind::FullyConnected) continue;
    if (op.inputs.size() < 2 || op.inputs[1] < 0 || !done.insert(op.inputs[1]).second) continue;
    Tensor& w = graph.tensor(op.inputs[1]);
    if (w.dtype != DType::kInt8 || !w.is_constant || w.shape.empty()) continue;
    const std::string name = op.kind == OpKind::Conv2D ? "CONV_2D"
                             : op.kind == OpKind::FullyConnected ? "FULLY_CONNECTED" : "DEPTHWISE_CONV_2D";
    result.layers.push_back(cluster_tensor(w, name, op.kind == OpKind::DepthwiseConv2D, k));
    std::memcpy(result.tflite.data() + file_offset_of(model, tflite, w), w.data.data(), w.data.size());
  }
  return result;
}

std::string clustered_weights_text(const ClusteredModel& model, int k) {
  std::string text = "weights changed by --cluster-weights " + std::to_string(k) + " (at most " + std::to_string(k) +
                     " values per output channel, or per tensor where tables per channel would cost at least an "
                     "eighth of the int8 bytes; SQNR of each tensor's dequantized weights):\n";
  for (const ClusteredWeights& l : model.layers) {
    char sqnr[32] = "unchanged";
    if (!std::isinf(l.sqnr_db)) std::snprintf(sqnr, sizeof sqnr, "%.1f dB", l.sqnr_db);
    text += "  " + l.op + " '" + l.tensor + "': " + std::to_string(l.channels) + " channels, " +
            std::to_string(l.most_values_before) + " -> " + std::to_string(l.most_values_after) +
            (l.per_tensor ? " values in the tensor (clustered as a whole)" : " values in the fullest") +
            ", weights SQNR " + sqnr + "\n";
  }
  return text;
}

nlohmann::json clustered_weights_json(const ClusteredModel& model) {
  nlohmann::json layers = nlohmann::json::array();
  for (const ClusteredWeights& l : model.layers) {
    layers.push_back({{"tensor", l.tensor}, {"op", l.op}, {"channels", l.channels}, {"per_tensor", l.per_tensor},
                      {"values_before", l.most_values_before}, {"values_after", l.most_values_after},
                      {"sqnr_db", std::isinf(l.sqnr_db) ? nlohmann::json(nullptr) : nlohmann::json(l.sqnr_db)}});
  }
  return layers;
}

}  // namespace microaot
