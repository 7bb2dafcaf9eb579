// LOG_SOFTMAX over the last dimension (float, int8) with TFLite Micro's Prepare-time math (log_softmax.cc,
// PreprocessLogSoftmaxScalingExp): the input scale times 2^26 as a multiplier above one that makes input
// differences Q5.26 (capped at 2^31 - 1), its inverse as a multiplier below one, and the smallest difference
// whose exp still counts. The int8 output has TFLite's fixed quantization 16/256 with zero point 127.
#include <algorithm>
#include <cmath>
#include <string>

#include "ops/op_checks.h"
#include "ops/op_handler.h"
#include "ops/unary.h"

namespace microaot {
namespace {

constexpr int kScaledDiffIntegerBits = 5;  // differences enter exp() as Q5.26

// input_scale * 2^26 in double, capped at 2^31 - 1 (beta is 1).
double input_real_multiplier(const Graph& graph, const Op& op) {
  const double scaled = static_cast<double>(graph.tensor(op.inputs[0]).quant.scale[0]) *
                        static_cast<double>(1 << (31 - kScaledDiffIntegerBits));
  return std::min(scaled, static_cast<double>((1LL << 31) - 1));
}

// TFLite's versions: 1 float, 2 int8.
void check(const Graph& graph, const Op& op) {
  expect_version(graph, op, 2);
  const DType type = check_unary_op(graph, op, {DType::kFloat32, DType::kInt8});
  const int in = op.inputs[0];
  const int out = op.outputs[0];
  expect_tensor(!graph.tensor(in).shape.empty(), graph, op, in, "input 0", "must have at least one dimension");
  for (int32_t dim : graph.tensor(in).shape) {
    expect_tensor(dim > 0, graph, op, in, "input 0", "has an empty dimension");
  }
  expect_tensor(graph.tensor(out).shape == graph.tensor(in).shape, graph, op, out, "output 0",
                "must have the input's shape");
  if (type == DType::kFloat32) return;
  check_unary_quantization(graph, op, /*symmetric_int16=*/false);
  const Tensor& output = graph.tensor(out);
  expect_tensor(output.quant.scale[0] == 16.0f / 256 && output.quant.zero_point[0] == 127, graph, op, out,
                "output 0", "int8 LOG_SOFTMAX output must have scale 16/256 and zero point 127");
  // TFLM's QuantizeMultiplierGreaterThanOne aborts below this.
  expect_op(input_real_multiplier(graph, op) > 1.0, graph, op, "the input scale is too small (needs > 2^-26)");
}

void lower_int8(const Graph& graph, const Op& op, KernelCall* call) {
  const QuantizedMultiplier input = quantize_multiplier_greater_than_one(input_real_multiplier(graph, op));
  const double reverse_real = static_cast<double>(1LL << (31 - input.shift)) / static_cast<double>(input.multiplier);
  const QuantizedMultiplier reverse = quantize_multiplier_smaller_than_one(reverse_real);
  call->params.set_int("input_multiplier", input.multiplier);
  call->params.set_int("input_shift", input.shift);
  call->params.set_int("reverse_multiplier", reverse.multiplier);
  call->params.set_int("reverse_shift", reverse.shift);
  call->params.set_int("diff_min", -input_radius(kScaledDiffIntegerBits, input.shift));
}

KernelCall lower(const Graph& graph, const Op& op) {
  const Tensor& input = graph.tensor(op.inputs[0]);
  const int32_t depth = input.shape.back();
  KernelCall call;
  call.stem = std::string("log_softmax_") + dtype_short_name(input.dtype);
  call.args = {op.inputs[0], op.outputs[0]};
  call.params.set_int("outer_size", input.num_elements() / depth);
  call.params.set_int("depth", depth);
  if (input.dtype == DType::kInt8) lower_int8(graph, op, &call);
  return call;
}

}  // namespace

// Rows are read whole (maximum, sum) before any of their outputs is stored, then element i is read just
// before output element i is stored, in order: the element-wise rule.
extern const OpHandler log_softmax_handler = {check, lower, unary_macs, /*is_view=*/false, unary_in_place, nullptr};

}  // namespace microaot
