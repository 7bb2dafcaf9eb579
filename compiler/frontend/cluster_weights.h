// --cluster-weights K (issue 32): a lossy rewrite, only when asked, of the int8 weights of every CONV_2D,
// DEPTHWISE_CONV_2D and FULLY_CONNECTED into at most K values per output channel (deterministic one-dimensional
// k-means over each channel's int8 values, integer centroids), so that --compress-weights stores them as
// palettes (compiler/ops/palette_weights.h). Where per-channel tables would not pay (short rows: a table per
// channel of 2^ceil(log2 K) bytes would be at least an eighth of the int8 weights, e.g. a 3x3 depthwise filter or
// a 64-input FULLY_CONNECTED at K = 16), the tensor is clustered as a whole into K values, stored with one
// shared table. The model is rewritten before anything else reads it, and the
// rewritten .tflite is the same file with those weights' bytes replaced.
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "ir/custom_op.h"

namespace microaot {

// The largest K: 128 values per channel, the most a palette takes (kLosslessPaletteBits).
constexpr int kMaxClusterValues = 128;

// A channel's int8 values mapped to at most k (>= 1) centroids, each value to its nearest (ties: the lower):
// unchanged when it has at most k distinct values. Deterministic: centroids start at evenly spaced ranks of the
// sorted values (where ranks coincide, the present values farthest from every centroid are added until there are
// k), then Lloyd's iterations, each centroid the rounded mean of its values, until none moves.
std::vector<int8_t> cluster_channel(const std::vector<int8_t>& values, int k);

// One rewritten weight tensor, as the report states it.
struct ClusteredWeights {
  std::string tensor;        // the weight tensor's name
  std::string op;            // "CONV_2D", ...
  int32_t channels = 0;
  bool per_tensor = false;     // clustered as a whole (one shared table), not channel by channel
  int most_values_before = 0;  // distinct values of its fullest channel, before and after
  int most_values_after = 0;
  double sqnr_db = 0;        // of the dequantized weights against the originals (inf: unchanged)
};

struct ClusteredModel {
  std::vector<uint8_t> tflite;  // the model with the weights replaced
  std::vector<ClusteredWeights> layers;
};

// True when `channels` rows of n weights are clustered as one tensor at k values: per-channel tables of
// 2^ceil(log2 k) bytes would be at least an eighth of the int8 weights.
bool cluster_per_tensor(int32_t channels, int64_t n, int k);

// Clusters `tflite`'s weights to k values per channel; CompileError for a model whose weights it cannot rewrite
// in place (a constant outside the file's buffers).
ClusteredModel cluster_model_weights(const std::vector<uint8_t>& tflite, int k, const CustomOpBindings& custom_ops = {});

// The report's lines: one per tensor ("  CONV_2D 'name': 8 channels, 97 -> 16 values, weights SQNR 38.1 dB").
std::string clustered_weights_text(const ClusteredModel& model, int k);
// The same as a JSON array, one object per tensor (report.json, the cluster report).
nlohmann::json clustered_weights_json(const ClusteredModel& model);

}  // namespace microaot
