// MEAN, SUM, REDUCE_MAX and REDUCE_MIN over constant axes (negative or repeated axes, keep_dims either way)
// as TFLite Micro's reference kernels compute them (tflite-micro reduce_common.cc, reference/reduce.h). The
// groups are walked in the order TFLM folds them (ops/reduce_common.h). int8/int16 SUM and MEAN sum raw values
// in int32, subtract zero point * group size and rescale once by input_scale / output_scale, MEAN folding
// 1 / group size into that multiplier with TFLM's integer arithmetic; float MEAN divides the float sum.
// TFLM has one integer MEAN path (its special 4-D H,W path is float only and adds in the same order).
#include <algorithm>
#include <initializer_list>
#include <string>

#include "ops/broadcast.h"
#include "ops/op_checks.h"
#include "ops/op_handler.h"
#include "ops/quant_math.h"
#include "ops/read_options.h"
#include "ops/reduce_common.h"

namespace microaot {
namespace {

// TFLite's versions of these operators: 1 float, 2 int8, 3 int16.
constexpr int kMaxVersion = 3;

// ReducerOptions: keep_dims only changes the output's shape, not its layout; the checks accept either.
struct ReducerOptions {
  bool keep_dims = false;
};

OpOptions read_options(const Graph&, const Op&, const tflite::Operator& source) {
  ReducerOptions options;
  if (const auto* table = source.builtin_options_as_ReducerOptions()) options.keep_dims = table->keep_dims();
  return options;
}

ReducePlan reduce_plan(const Graph& graph, const Op& op) {
  const int rank = static_cast<int>(graph.tensor(op.inputs[0]).shape.size());
  return checked_reduce_plan(graph, op, reduced_dimensions(graph, op, constant_axis_values(graph, op, 1), rank));
}

// Input, axis and output of one of `types`, the output of the input's type.
void check_reduction(const Graph& graph, const Op& op, std::initializer_list<DType> types) {
  expect_arity(graph, op, 2, 2, 1);
  expect_version(graph, op, kMaxVersion);
  const int in = input_id(graph, op, 0);
  expect_dtype(graph, op, in, "input 0", types);
  expect_dtype(graph, op, output_id(graph, op, 0), "output 0", {graph.tensor(in).dtype});
  reduce_plan(graph, op);
}

void check_mean_or_sum(const Graph& graph, const Op& op) {
  check_reduction(graph, op, {DType::kFloat32, DType::kInt8, DType::kInt16});
  if (graph.tensor(op.inputs[0]).dtype == DType::kFloat32) return;
  expect_activation_quant(graph, op, op.inputs[0], "input 0");
  expect_activation_quant(graph, op, op.outputs[0], "output 0");
}

// int8 max/min compare quantized values, so TFLM requires the output to share the input's quantization.
void check_max_or_min(const Graph& graph, const Op& op) {
  check_reduction(graph, op, {DType::kFloat32, DType::kInt8});
  if (graph.tensor(op.inputs[0]).dtype == DType::kFloat32) return;
  expect_per_tensor_quant(graph, op, op.inputs[0], "input 0");
  expect_per_tensor_quant(graph, op, op.outputs[0], "output 0");
  const Quantization& in = graph.tensor(op.inputs[0]).quant;
  const Quantization& out = graph.tensor(op.outputs[0]).quant;
  expect_tensor(in.scale[0] == out.scale[0] && in.zero_point[0] == out.zero_point[0], graph, op, op.outputs[0],
                "output 0", "must have the input's scale and zero point (TFLite Micro requires it for int8)");
}

// floor(log2(n)) for n >= 1.
int floor_log2(int64_t n) {
  int bits = 0;
  while (n > 1) n >>= 1, ++bits;
  return bits;
}

// TFLM's MEAN rescale: the multiplier times 2^s / n in integers, the shift less s, with s = floor(log2 n)
// capped at 32 and at 31 + shift (so the kernel's right shift stays within 31).
QuantizedMultiplier fold_mean_divisor(QuantizedMultiplier m, int64_t n) {
  const int s = std::min({floor_log2(n), 32, 31 + m.shift});
  return {static_cast<int32_t>((static_cast<int64_t>(m.multiplier) << s) / n), m.shift - s};
}

KernelCall lower_mean_or_sum(const Graph& graph, const Op& op, bool mean) {
  const Tensor& input = graph.tensor(op.inputs[0]);
  const Tensor& output = graph.tensor(op.outputs[0]);
  const ReducePlan plan = reduce_plan(graph, op);
  KernelCall call;
  call.stem = std::string("reduce_sum_") + dtype_short_name(input.dtype);
  call.args = {op.inputs[0], op.outputs[0]};
  set_reduce_walk_params(call, plan);
  if (input.dtype == DType::kFloat32) {
    call.params.set_float("divisor", mean ? static_cast<float>(plan.group_size) : 1.0f);
    return call;
  }
  QuantizedMultiplier m = quantize_multiplier(static_cast<double>(input.quant.scale[0]) /
                                              static_cast<double>(output.quant.scale[0]));
  if (mean) m = fold_mean_divisor(m, plan.group_size);
  // -zero_point * n as TFLM's int32 result of the int64 product: wrapped to 32 bits.
  const auto offset = static_cast<uint32_t>(static_cast<uint64_t>(-input.quant.zero_point[0] * plan.group_size));
  call.params.set_int("sum_offset", static_cast<int32_t>(offset));
  set_output_rescale_params(graph, op, m, call);
  return call;
}

KernelCall lower_mean(const Graph& graph, const Op& op) { return lower_mean_or_sum(graph, op, true); }
KernelCall lower_sum(const Graph& graph, const Op& op) { return lower_mean_or_sum(graph, op, false); }

KernelCall lower_max_or_min(const Graph& graph, const Op& op, const char* name) {
  KernelCall call;
  call.stem = std::string("reduce_") + name + "_" + dtype_short_name(graph.tensor(op.inputs[0]).dtype);
  call.args = {op.inputs[0], op.outputs[0]};
  set_reduce_walk_params(call, reduce_plan(graph, op));
  return call;
}

KernelCall lower_max(const Graph& graph, const Op& op) { return lower_max_or_min(graph, op, "max"); }
KernelCall lower_min(const Graph& graph, const Op& op) { return lower_max_or_min(graph, op, "min"); }

// One addition or comparison per input element.
int64_t macs(const Graph& graph, const Op& op) { return graph.tensor(op.inputs[0]).num_elements(); }

}  // namespace

extern const OpHandler mean_handler = {check_mean_or_sum, lower_mean, macs, /*is_view=*/false, nullptr, read_options};
extern const OpHandler sum_handler = {check_mean_or_sum, lower_sum, macs, /*is_view=*/false, nullptr, read_options};
extern const OpHandler reduce_max_handler = {check_max_or_min, lower_max, macs, /*is_view=*/false, nullptr,
                                             read_options};
extern const OpHandler reduce_min_handler = {check_max_or_min, lower_min, macs, /*is_view=*/false, nullptr,
                                             read_options};

}  // namespace microaot
