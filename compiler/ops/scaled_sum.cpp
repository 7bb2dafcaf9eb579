#include "ops/scaled_sum.h"

#include "ops/broadcast.h"
#include "ops/op_checks.h"
#include "ops/quant_math.h"

namespace microaot {

namespace {
constexpr int kLeftShift = 20;  // TFLM's kAddNIntegerShift and kCumSumIntegerShift

// 2 * input_scale / (2^20 * output_scale).
double output_real_multiplier(const Graph& graph, const Op& op, int input) {
  const double input_scale = graph.tensor(input).quant.scale[0];
  return 2.0 * input_scale / (static_cast<double>(1 << kLeftShift) * graph.tensor(op.outputs[0]).quant.scale[0]);
}
}  // namespace

void check_scaled_sum_quantization(const Graph& graph, const Op& op, int input) {
  expect_activation_quant(graph, op, input, "input 0");
  expect_activation_quant(graph, op, op.outputs[0], "output 0");
  expect_op(output_real_multiplier(graph, op, input) < 1.0, graph, op,
            "the input scale is more than 2^19 times the output scale (TFLite Micro's int8 sum needs less)");
}

void set_scaled_sum_params(const Graph& graph, const Op& op, int input, KernelCall& call) {
  // Each input is scaled by input_scale / (2 * input_scale): TFLM's common scale of a one-scale sum.
  const QuantizedMultiplier in = quantize_multiplier_smaller_than_one(0.5);
  const QuantizedMultiplier out = quantize_multiplier_smaller_than_one(output_real_multiplier(graph, op, input));
  call.params.set_int("input_offset", -graph.tensor(input).quant.zero_point[0]);
  call.params.set_int("left_shift", kLeftShift);
  call.params.set_int("input_multiplier", in.multiplier);
  call.params.set_int("input_shift", in.shift);
  set_output_rescale_params(graph, op, out, call);
}

}  // namespace microaot
