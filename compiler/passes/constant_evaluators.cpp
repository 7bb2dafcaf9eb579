// The evaluators of fold_constants. Element-wise ones (DEQUANTIZE, QUANTIZE, CAST) repeat the kernels'
// one-line formulas on the params the handler lowers to (CAST through the very element macros of
// microaot/kernels/cast.h); data-movement ones walk the lowered call's index tables (remap, concatenation,
// gather), so the index arithmetic is the handler's, as the kernel receives it.
#include "passes/constant_evaluators.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>

#include "kernels/kernel_call.h"
#include "microaot/kernels/cast.h"
#include "ops/op_handler.h"
#include "support/diagnostics.h"
#include "target/target.h"

namespace microaot {
namespace {

using Bytes = std::vector<uint8_t>;
using Folded = std::optional<Bytes>;

// Element i of little-endian storage, and appending one; T is an integer or float type of at most 4 bytes.
template <typename T>
T load(const Bytes& bytes, size_t i) {
  static_assert(sizeof(T) <= 4, "4-byte words at most");
  uint32_t bits = 0;
  for (size_t b = 0; b < sizeof(T); ++b) bits |= static_cast<uint32_t>(bytes[i * sizeof(T) + b]) << (8 * b);
  if constexpr (std::is_same_v<T, float>) {
    float value;
    std::memcpy(&value, &bits, sizeof value);
    return value;
  } else {
    return static_cast<T>(static_cast<std::make_unsigned_t<T>>(bits));
  }
}

template <typename T>
void append(Bytes& bytes, T value) {
  static_assert(sizeof(T) <= 4, "4-byte words at most");
  uint32_t bits = 0;
  if constexpr (std::is_same_v<T, float>) {
    std::memcpy(&bits, &value, sizeof value);
  } else {
    bits = static_cast<uint32_t>(static_cast<std::make_unsigned_t<T>>(value));
  }
  for (size_t b = 0; b < sizeof(T); ++b) bytes.push_back(static_cast<uint8_t>(bits >> (8 * b)));
}

KernelCall lowered(const Graph& graph, const Op& op) {
  const OpHandler& handler = op_handler(op.kind);
  MICROAOT_CHECK(handler.lower != nullptr, "a folded op kind without lowering");
  return handler.lower(graph, op);
}

const ParamValue& param(const KernelCall& call, const char* field) {
  const ParamValue* value = call.params.find(field);
  MICROAOT_CHECK(value != nullptr, std::string("lowered call without params field ") + field);
  return *value;
}

// The bytes of argument `id`: a tensor's, or a derived constant's (derived_arg).
const Bytes& arg_bytes(const Graph& graph, const KernelCall& call, int id) {
  if (id >= 0) return graph.tensor(id).data;
  const size_t index = static_cast<size_t>(derived_arg(0) - id);
  MICROAOT_CHECK(id <= derived_arg(0) && index < call.derived.size(), "a lowered call's argument is absent");
  return call.derived[index].data;
}

// ---- element-wise: the kernels' formulas (microaot/internal/templates/dequantize.h, quantize.h)

template <typename In>
Bytes dequantize_values(const Bytes& in, int64_t size, float scale, int32_t offset) {
  Bytes out;
  for (size_t i = 0; i < static_cast<size_t>(size); ++i) {
    append<float>(out, scale * static_cast<float>(static_cast<int32_t>(load<In>(in, i)) + offset));
  }
  return out;
}

Folded evaluate_dequantize(const Graph& graph, const Op& op) {
  const KernelCall call = lowered(graph, op);
  const Bytes& in = graph.tensor(op.inputs[0]).data;
  const int64_t size = param(call, "size").integer;
  const float scale = param(call, "input_scale").real;
  const int32_t offset = static_cast<int32_t>(param(call, "input_offset").integer);
  if (call.stem == "dequantize_s8_f32") return dequantize_values<int8_t>(in, size, scale, offset);
  if (call.stem == "dequantize_s16_f32") return dequantize_values<int16_t>(in, size, scale, offset);
  return std::nullopt;
}

// round(x / scale) half away from zero, clamped before the zero point is added (NaN: the zero point, as the
// kernels give it).
template <typename Out>
Bytes quantize_values(const Bytes& in, int64_t size, float scale, int32_t offset) {
  const float lo = static_cast<float>(std::numeric_limits<Out>::min() - offset);
  const float hi = static_cast<float>(std::numeric_limits<Out>::max() - offset);
  Bytes out;
  for (size_t i = 0; i < static_cast<size_t>(size); ++i) {
    float q = std::round(load<float>(in, i) / scale);
    if (std::isnan(q)) q = 0.0f;
    q = q > lo ? q : lo;
    q = q < hi ? q : hi;
    append<Out>(out, static_cast<Out>(static_cast<int32_t>(q) + offset));
  }
  return out;
}

// float -> integer only; a requantization (integer input) stays a kernel call.
Folded evaluate_quantize(const Graph& graph, const Op& op) {
  const KernelCall call = lowered(graph, op);
  const Bytes& in = graph.tensor(op.inputs[0]).data;
  if (call.stem != "quantize_f32_s8" && call.stem != "quantize_f32_s16") return std::nullopt;
  const int64_t size = param(call, "size").integer;
  const float scale = param(call, "output_scale").real;
  const int32_t offset = static_cast<int32_t>(param(call, "output_offset").integer);
  if (call.stem == "quantize_f32_s8") return quantize_values<int8_t>(in, size, scale, offset);
  return quantize_values<int16_t>(in, size, scale, offset);
}

// One element through the kernels' element macro for (source kind, target type): Source is int32_t for the
// integer and bool sources, float for float32.
template <typename Source>
void append_cast(Bytes& out, DType target, Source x) {
  if constexpr (std::is_same_v<Source, float>) {
    if (target == DType::kInt8) append<int8_t>(out, static_cast<int8_t>(MICROAOT_CAST_F32_TO_S8(nullptr, x)));
    if (target == DType::kInt16) append<int16_t>(out, static_cast<int16_t>(MICROAOT_CAST_F32_TO_S16(nullptr, x)));
    if (target == DType::kInt32) append<int32_t>(out, MICROAOT_CAST_F32_TO_S32(nullptr, x));
  } else {
    if (target == DType::kInt8) append<int8_t>(out, static_cast<int8_t>(MICROAOT_CAST_INT_TO_S8(nullptr, x)));
    if (target == DType::kInt16) append<int16_t>(out, static_cast<int16_t>(MICROAOT_CAST_INT_TO_S16(nullptr, x)));
    if (target == DType::kInt32) append<int32_t>(out, MICROAOT_CAST_INT_TO_S32(nullptr, x));
    if (target == DType::kFloat32) append<float>(out, MICROAOT_CAST_INT_TO_F32(nullptr, x));
  }
}

template <typename In, typename Source>
Bytes cast_values(const Bytes& in, int64_t size, DType target) {
  Bytes out;
  for (size_t i = 0; i < static_cast<size_t>(size); ++i) append_cast<Source>(out, target, load<In>(in, i));
  return out;
}

// The same type is the copy kernel; otherwise the source type picks the element macros' family.
Folded evaluate_cast(const Graph& graph, const Op& op) {
  const Tensor& input = graph.tensor(op.inputs[0]);
  const DType target = graph.tensor(op.outputs[0]).dtype;
  const int64_t size = input.num_elements();
  if (input.dtype == target) return input.data;
  switch (input.dtype) {
    case DType::kInt8: return cast_values<int8_t, int32_t>(input.data, size, target);
    case DType::kInt16: return cast_values<int16_t, int32_t>(input.data, size, target);
    case DType::kInt32: return cast_values<int32_t, int32_t>(input.data, size, target);
    case DType::kBool: return cast_values<uint8_t, int32_t>(input.data, size, target);
    case DType::kFloat32: return cast_values<float, float>(input.data, size, target);
    default: return std::nullopt;
  }
}

// ---- data movement: the lowered call's tables (microaot/kernels/remap.h, concatenation.h, gather.h)

// Bytes [offset, offset + count) of `in`, refused (an internal error: the handler's tables are wrong) past its end.
void append_range(Bytes& out, const Bytes& in, int64_t offset, int64_t count) {
  MICROAOT_CHECK(offset >= 0 && count >= 0 && offset + count <= static_cast<int64_t>(in.size()),
                 "a lowered call reads outside its constant input");
  out.insert(out.end(), in.begin() + offset, in.begin() + offset + count);
}

// Output coordinate by coordinate: the sum of each dimension's table entry, or the fill where any is -1.
Bytes remap_values(const Bytes& in, const std::vector<int64_t>& dims, const std::vector<int64_t>& offsets,
                   const Bytes& fill, int64_t element_bytes) {
  int64_t count = 1;
  std::vector<size_t> table_start(dims.size(), 0);  // where each dimension's table begins in `offsets`
  for (size_t d = 0; d < dims.size(); ++d) {
    if (d > 0) table_start[d] = table_start[d - 1] + static_cast<size_t>(dims[d - 1]);
    count *= dims[d];
  }
  MICROAOT_CHECK(dims.empty() || table_start.back() + static_cast<size_t>(dims.back()) == offsets.size(),
                 "remap tables do not match their dimensions");
  Bytes out;
  std::vector<int64_t> index(dims.size(), 0);
  for (int64_t n = 0; n < count; ++n) {
    int64_t offset = 0;
    for (size_t d = 0; d < dims.size(); ++d) {
      const int64_t entry = offsets[table_start[d] + static_cast<size_t>(index[d])];
      offset = (offset < 0 || entry < 0) ? -1 : offset + entry;
    }
    if (offset < 0) out.insert(out.end(), fill.begin(), fill.end());
    if (offset >= 0) append_range(out, in, offset, element_bytes);
    for (size_t d = dims.size(); d-- > 0 && ++index[d] == dims[d];) index[d] = 0;
  }
  return out;
}

Folded evaluate_remap(const Graph& graph, const Op& op) {
  const KernelCall call = lowered(graph, op);
  if (call.stem != "remap") return std::nullopt;
  const int64_t element_bytes = param(call, "element_bytes").integer;
  Bytes fill;
  for (int64_t byte : param(call, "fill").integers) fill.push_back(static_cast<uint8_t>(byte));
  MICROAOT_CHECK(static_cast<int64_t>(fill.size()) == element_bytes, "remap fill is not one element");
  return remap_values(arg_bytes(graph, call, call.args[0]), param(call, "out_dims").integers,
                      param(call, "offsets").integers, fill, element_bytes);
}

// Per outer index, each input's slice in turn.
Folded evaluate_concatenation(const Graph& graph, const Op& op) {
  const KernelCall call = lowered(graph, op);
  if (call.stem != "concatenation") return std::nullopt;
  const std::vector<int64_t>& slice_bytes = param(call, "slice_bytes").integers;
  Bytes out;
  for (int64_t outer = 0; outer < param(call, "outer_count").integer; ++outer) {
    for (size_t i = 0; i < slice_bytes.size(); ++i) {
      append_range(out, arg_bytes(graph, call, call.args.at(i)), outer * slice_bytes[i], slice_bytes[i]);
    }
  }
  return out;
}

// Per batch and outer index, the block each index picks; an index outside the axis is not folded (the
// handler refuses it).
Folded evaluate_gather(const Graph& graph, const Op& op) {
  const KernelCall call = lowered(graph, op);
  if (call.stem != "gather") return std::nullopt;
  const Bytes& values = arg_bytes(graph, call, call.args.at(0));
  const Bytes& indices = arg_bytes(graph, call, call.args.at(1));
  const int64_t axis_size = param(call, "axis_size").integer, coords = param(call, "coord_count").integer;
  const int64_t inner = param(call, "inner_bytes").integer, outer_count = param(call, "outer_count").integer;
  Bytes out;
  for (int64_t batch = 0; batch < param(call, "batch_count").integer; ++batch) {
    for (int64_t outer = 0; outer < outer_count; ++outer) {
      for (int64_t c = 0; c < coords; ++c) {
        const int32_t index = load<int32_t>(indices, static_cast<size_t>(batch * coords + c));
        if (index < 0 || index >= axis_size) return std::nullopt;
        append_range(out, values, ((batch * outer_count + outer) * axis_size + index) * inner, inner);
      }
    }
  }
  return out;
}

// A view's output holds its input's bytes.
Folded evaluate_view(const Graph& graph, const Op& op) { return graph.tensor(op.inputs[0]).data; }

constexpr ConstantFoldRule kRules[] = {
    {OpKind::Reshape, evaluate_view, true},          {OpKind::Squeeze, evaluate_view, true},
    {OpKind::ExpandDims, evaluate_view, true},       {OpKind::Dequantize, evaluate_dequantize, true},
    {OpKind::Quantize, evaluate_quantize, true},     {OpKind::Cast, evaluate_cast, true},
    {OpKind::Transpose, evaluate_remap, true},       {OpKind::Slice, evaluate_remap, true},
    {OpKind::StridedSlice, evaluate_remap, true},    {OpKind::Pad, evaluate_remap, true},
    {OpKind::PadV2, evaluate_remap, true},           {OpKind::MirrorPad, evaluate_remap, true},
    {OpKind::ReverseV2, evaluate_remap, true},       {OpKind::BroadcastTo, evaluate_remap, true},
    {OpKind::DepthToSpace, evaluate_remap, true},    {OpKind::SpaceToDepth, evaluate_remap, true},
    {OpKind::BatchToSpaceNd, evaluate_remap, true},  {OpKind::SpaceToBatchNd, evaluate_remap, true},
    {OpKind::Shape, evaluate_remap, false},          {OpKind::Concatenation, evaluate_concatenation, true},
    {OpKind::Pack, evaluate_concatenation, true},    {OpKind::Gather, evaluate_gather, true},
};

}  // namespace

const ConstantFoldRule* constant_fold_rule(OpKind kind) {
  for (const ConstantFoldRule& rule : kRules) {
    if (rule.kind == kind) return &rule;
  }
  return nullptr;
}

}  // namespace microaot
