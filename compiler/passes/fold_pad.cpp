// fold_pad: a PAD or PADV2 in front of CONV_2D / DEPTHWISE_CONV_2D / MAX_POOL_2D whose fill is what the
// consumers' skipped out-of-image taps already mean becomes their explicit padding, and leaves the graph.
// Bit-exact: the kernels skip exactly the taps whose padded value could not change a result.
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <utility>
#include <vector>

#include "ops/op_handler.h"
#include "ops/op_options.h"
#include "ops/remap_common.h"
#include "passes/pass.h"
#include "support/diagnostics.h"

namespace microaot {
namespace {

constexpr int64_t kMaxPadding = int64_t{1} << 30;  // far below the geometry's int32 arithmetic

// A constant's first element as a number (int8/int16 sign-extended); NaN for other types or missing bytes.
double first_value(const Tensor& t) {
  if (t.data.size() < dtype_size(t.dtype)) return NAN;
  switch (t.dtype) {
    case DType::kInt8: return static_cast<int8_t>(t.data[0]);
    case DType::kInt16: {
      int16_t v;
      std::memcpy(&v, t.data.data(), sizeof v);
      return v;
    }
    case DType::kFloat32: {
      float v;
      std::memcpy(&v, t.data.data(), sizeof v);
      return v;
    }
    default: return NAN;
  }
}

int64_t zero_point_of(const Tensor& t) { return t.quant.zero_point.empty() ? 0 : t.quant.zero_point[0]; }

// The value PAD writes into the padding, as its lowering does: PADV2's constant value, PAD's int8 output zero
// point, otherwise 0.
double fill_value(const Graph& graph, const Op& pad) {
  const Tensor& out = graph.tensor(pad.outputs[0]);
  if (pad.inputs.size() >= 3 && pad.inputs[2] != kNoTensor) return first_value(graph.tensor(pad.inputs[2]));
  return out.dtype == DType::kInt8 ? static_cast<double>(zero_point_of(out)) : 0.0;
}

// Whether the consumer's skipped out-of-image taps mean what the fill did. A convolution tap holding the zero
// point (int16's is 0; float 0.0, and -0.0 too, as the sums never hold -0.0 and x + -0.0 == x) adds nothing. A
// max pool never picks a value at or below the type's lowest, where its running maximum starts.
bool skipping_keeps_values(const Op& consumer, const Tensor& padded, double fill) {
  if (consumer.kind == OpKind::MaxPool2D) {
    const double lowest = padded.dtype == DType::kInt8    ? INT8_MIN
                          : padded.dtype == DType::kInt16 ? INT16_MIN
                                                          : -static_cast<double>(FLT_MAX);
    return fill <= lowest;
  }
  return fill == (padded.dtype == DType::kFloat32 ? 0.0 : static_cast<double>(zero_point_of(padded)));
}

// The convolution reads the PAD's input as it read its output: same type, scales and zero points.
bool keeps_quantization(const Graph& graph, const Op& pad) {
  const Tensor& in = graph.tensor(pad.inputs[0]);
  const Tensor& out = graph.tensor(pad.outputs[0]);
  return in.dtype == out.dtype && in.quant.scale == out.quant.scale && in.quant.zero_point == out.quant.zero_point;
}

bool is_exposed(const Graph& graph, int id) {
  const bool aliased = std::any_of(graph.tensors.begin(), graph.tensors.end(),
                                   [id](const Tensor& t) { return t.alias_of == id; });
  return aliased || std::find(graph.outputs.begin(), graph.outputs.end(), id) != graph.outputs.end();
}

// The PAD's padding when it pads only height and width of a rank-4 tensor and can be folded at all.
std::optional<ExplicitPadding> spatial_padding(const Graph& graph, const Op& pad) {
  if (pad.kind != OpKind::Pad && pad.kind != OpKind::PadV2) return std::nullopt;
  if (graph.tensor(pad.inputs[0]).shape.size() != 4 || is_exposed(graph, pad.outputs[0])) return std::nullopt;
  if (!keeps_quantization(graph, pad)) return std::nullopt;
  const std::vector<int64_t> p = constant_ints(graph, pad, pad.inputs[1], "paddings");
  const bool in_range = std::all_of(p.begin(), p.end(), [](int64_t v) { return v >= 0 && v < kMaxPadding; });
  if (p.size() != 8 || !in_range || p[0] != 0 || p[1] != 0 || p[6] != 0 || p[7] != 0) return std::nullopt;
  return ExplicitPadding{static_cast<int>(p[2]), static_cast<int>(p[3]), static_cast<int>(p[4]),
                         static_cast<int>(p[5])};
}

// A SAME/VALID window's own padding along one axis: TFLite puts the smaller half before.
std::pair<int64_t, int64_t> own_padding(Padding padding, int in, int filter, int stride, int dilation, int out) {
  const int64_t needed = (int64_t{out} - 1) * stride + (int64_t{filter} - 1) * dilation + 1 - in;
  if (padding == Padding::kValid || needed <= 0) return {0, 0};
  return {needed / 2, needed - needed / 2};
}

// The window's extent parameters: the pool's options; the convolution's filter tensor (OHWI / 1HWC).
struct WindowShape {
  int filter_h, filter_w, dilation_h, dilation_w;
};
WindowShape window_shape(const Graph& /*graph*/, const Op& /*op*/, const Pool2DOptions& o) {
  return {o.filter_h, o.filter_w, 1, 1};
}
template <typename ConvOptions>
WindowShape window_shape(const Graph& graph, const Op& op, const ConvOptions& o) {
  if (op.inputs.size() < 2 || op.inputs[1] == kNoTensor || graph.tensor(op.inputs[1]).shape.size() != 4) {
    return {0, 0, 1, 1};
  }
  const std::vector<int32_t>& filter = graph.tensor(op.inputs[1]).shape;
  return {filter[1], filter[2], o.dilation_h, o.dilation_w};
}

// Adds the PAD's padding to the window's own (SAME, VALID or already explicit) as explicit padding. The
// handler's check then confirms the output size is unchanged.
template <typename Options>
bool add_padding(const Graph& graph, Op& consumer, const ExplicitPadding& pad) {
  auto* o = std::any_cast<Options>(&consumer.options);
  if (o == nullptr) return false;
  const std::vector<int32_t>& in = graph.tensor(consumer.inputs[0]).shape;
  const std::vector<int32_t>& out = graph.tensor(consumer.outputs[0]).shape;
  const WindowShape s = window_shape(graph, consumer, *o);
  if (in.size() != 4 || out.size() != 4 || s.filter_h < 1 || s.filter_w < 1) return false;
  const auto h = own_padding(o->padding, in[1], s.filter_h, o->stride_h, s.dilation_h, out[1]);
  const auto w = own_padding(o->padding, in[2], s.filter_w, o->stride_w, s.dilation_w, out[2]);
  const ExplicitPadding own = o->explicit_padding.value_or(ExplicitPadding{
      static_cast<int>(h.first), static_cast<int>(h.second), static_cast<int>(w.first), static_cast<int>(w.second)});
  const int64_t sums[] = {int64_t{own.top} + pad.top, int64_t{own.bottom} + pad.bottom, int64_t{own.left} + pad.left,
                          int64_t{own.right} + pad.right};
  if (std::any_of(std::begin(sums), std::end(sums), [](int64_t v) { return v < 0 || v >= kMaxPadding; })) return false;
  o->explicit_padding = ExplicitPadding{static_cast<int>(sums[0]), static_cast<int>(sums[1]),
                                        static_cast<int>(sums[2]), static_cast<int>(sums[3])};
  return true;
}

// A float filter holding inf or NaN would turn a padded 0.0 into NaN; skipping that tap would not.
bool finite_filter(const Graph& graph, const Op& conv) {
  const Tensor& filter = graph.tensor(conv.inputs[1]);
  if (filter.dtype != DType::kFloat32) return true;
  for (size_t at = 0; at + sizeof(float) <= filter.data.size(); at += sizeof(float)) {
    float v;
    std::memcpy(&v, filter.data.data() + at, sizeof v);
    if (!std::isfinite(v)) return false;
  }
  return true;
}

// Explicit padding added to the consumer's options, for the consumers that take it.
bool add_consumer_padding(const Graph& graph, Op& consumer, const ExplicitPadding& pad) {
  switch (consumer.kind) {
    case OpKind::Conv2D: return add_padding<Conv2DOptions>(graph, consumer, pad);
    case OpKind::DepthwiseConv2D: return add_padding<DepthwiseConv2DOptions>(graph, consumer, pad);
    case OpKind::MaxPool2D: return add_padding<Pool2DOptions>(graph, consumer, pad);
    default: return false;  // AVERAGE_POOL_2D divides by the in-image count: padded values change it
  }
}

// The consumer reading `pad`'s input with the padding folded in, if skipping the padded values keeps every
// output and the rewritten op passes its handler's check.
std::optional<Op> folded_consumer(const Graph& graph, const Op& consumer, const Op& pad, const ExplicitPadding& p) {
  Op folded = consumer;
  if (!add_consumer_padding(graph, folded, p)) return std::nullopt;
  if (!skipping_keeps_values(consumer, graph.tensor(pad.outputs[0]), fill_value(graph, pad))) return std::nullopt;
  if (consumer.kind != OpKind::MaxPool2D && !finite_filter(graph, consumer)) return std::nullopt;
  folded.inputs[0] = pad.inputs[0];
  try {
    op_handler(folded.kind).check(graph, folded);
  } catch (const CompileError&) {
    return std::nullopt;
  }
  return folded;
}

// Every reader of the PAD's output rewritten, or nothing when one of them cannot take the padding.
std::optional<std::vector<std::pair<size_t, Op>>> folded_readers(const Graph& graph, const Op& pad) {
  const std::optional<ExplicitPadding> padding = spatial_padding(graph, pad);
  if (!padding) return std::nullopt;
  const int padded = pad.outputs[0];
  std::vector<std::pair<size_t, Op>> folded;
  for (size_t i = 0; i < graph.ops.size(); ++i) {
    const Op& op = graph.ops[i];
    const auto reads = std::count(op.inputs.begin(), op.inputs.end(), padded);
    if (reads == 0) continue;
    std::optional<Op> rewritten;
    if (reads == 1 && op.inputs[0] == padded) rewritten = folded_consumer(graph, op, pad, *padding);
    if (!rewritten) return std::nullopt;
    folded.emplace_back(i, std::move(*rewritten));
  }
  if (folded.empty()) return std::nullopt;
  return folded;
}

}  // namespace

bool fold_pad(Graph& graph, PassContext& /*ctx*/) {
  std::vector<bool> removed(graph.ops.size(), false);
  for (size_t i = 0; i < graph.ops.size(); ++i) {
    std::optional<std::vector<std::pair<size_t, Op>>> readers = folded_readers(graph, graph.ops[i]);
    if (!readers) continue;
    for (auto& [index, op] : *readers) graph.ops[index] = std::move(op);
    removed[i] = true;
  }
  std::vector<Op> kept;
  for (size_t i = 0; i < graph.ops.size(); ++i) {
    if (!removed[i]) kept.push_back(std::move(graph.ops[i]));
  }
  const bool changed = kept.size() != graph.ops.size();
  graph.ops = std::move(kept);
  return changed;
}

}  // namespace microaot
