// HARD_SWISH (float, int8) as TFLite Micro's reference kernel (hard_swish_common.cc): x * relu6(x + 3) / 6.
// int8 works in 16-bit fixed point on the input scale divided by 128 ("hires"): one multiplier to the
// output scale and one onto the scale where 3.0 is 32768 (the "relu-ish" factor), each a Q31 multiplier
// rounded to Q15, the ratios computed in float as TFLM does.
#include <cstdint>
#include <limits>

#include "ops/op_checks.h"
#include "ops/op_handler.h"
#include "ops/unary.h"

namespace microaot {
namespace {

float hires_input_scale(const Graph& graph, const Op& op) {
  return (1.0f / 128.0f) * graph.tensor(op.inputs[0]).quant.scale[0];
}

QuantizedMultiplier output_multiplier(const Graph& graph, const Op& op) {
  return quantize_multiplier(
      static_cast<double>(hires_input_scale(graph, op) / graph.tensor(op.outputs[0]).quant.scale[0]));
}

// A Q31 mantissa rounded to Q15, saturating at its top (TFLM's DownScaleInt32ToInt16Multiplier).
int32_t to_q15(int32_t multiplier) {
  constexpr int32_t kRounding = 1 << 15;
  if (multiplier >= std::numeric_limits<int32_t>::max() - kRounding) return std::numeric_limits<int16_t>::max();
  return (multiplier + kRounding) >> 16;
}

void check(const Graph& graph, const Op& op) {
  expect_version(graph, op, 1);
  const DType type = check_unary_op(graph, op, {DType::kFloat32, DType::kInt8});
  if (type == DType::kFloat32) return;
  check_unary_quantization(graph, op, /*symmetric_int16=*/false);
  expect_op(output_multiplier(graph, op).shift <= 0, graph, op,
            "the output scale must be above input scale / 128 (TFLM's int8 HARD_SWISH refuses it)");
}

KernelCall lower(const Graph& graph, const Op& op) {
  KernelCall call = unary_call(graph, op, "hard_swish");
  if (graph.tensor(op.inputs[0]).dtype == DType::kFloat32) return call;
  const QuantizedMultiplier output = output_multiplier(graph, op);
  const QuantizedMultiplier reluish =
      quantize_multiplier(static_cast<double>(hires_input_scale(graph, op) / (3.0f / 32768.0f)));
  call.params.set_int("input_zero_point", graph.tensor(op.inputs[0]).quant.zero_point[0]);
  call.params.set_int("output_zero_point", graph.tensor(op.outputs[0]).quant.zero_point[0]);
  call.params.set_int("output_multiplier", to_q15(output.multiplier));
  call.params.set_int("output_shift", output.shift);
  call.params.set_int("reluish_multiplier", to_q15(reluish.multiplier));
  call.params.set_int("reluish_shift", reluish.shift);
  return call;
}

}  // namespace

extern const OpHandler hard_swish_handler = {check, lower, unary_macs, /*is_view=*/false, unary_in_place, nullptr};

}  // namespace microaot
