// ADD with broadcasting (ranks up to 6): float, int8 and int16. The quantized constants are TFLM's
// (tflite-micro add_common.cc): inputs shifted left by 20 (int8) or 15 (int16) and scaled by
// scale / (2 * max input scale), the sum rescaled by 2 * max input scale / (2^shift * output scale).
// The broadcast and the checks it shares with the other binary operators are in ops/broadcast.h.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "ops/broadcast.h"
#include "ops/op_checks.h"
#include "ops/op_handler.h"
#include "ops/read_options.h"
#include "ops/quant_math.h"

namespace microaot {
namespace {

struct AddQuant {
  int left_shift;
  QuantizedMultiplier input1, input2, output;
  double real_output_multiplier;
};

// TFLM's CalculateOpDataAdd, in double from the float scales.
AddQuant add_quant(const Graph& graph, const Op& op) {
  const float s1 = graph.tensor(op.inputs[0]).quant.scale[0];
  const float s2 = graph.tensor(op.inputs[1]).quant.scale[0];
  const Tensor& output = graph.tensor(op.outputs[0]);
  AddQuant q;
  q.left_shift = output.dtype == DType::kInt16 ? 15 : 20;
  const double twice_max_input_scale = 2 * static_cast<double>(std::max(s1, s2));
  q.real_output_multiplier =
      twice_max_input_scale / ((1 << q.left_shift) * static_cast<double>(output.quant.scale[0]));
  q.input1 = quantize_multiplier_smaller_than_one(static_cast<double>(s1) / twice_max_input_scale);
  q.input2 = quantize_multiplier_smaller_than_one(static_cast<double>(s2) / twice_max_input_scale);
  if (q.real_output_multiplier < 1.0) q.output = quantize_multiplier_smaller_than_one(q.real_output_multiplier);
  return q;
}

void check(const Graph& graph, const Op& op) {
  expect_version(graph, op, 5);
  const DType type = check_binary_op(graph, op, {DType::kFloat32, DType::kInt8, DType::kInt16});
  if (type == DType::kFloat32) return;
  check_binary_quantization(graph, op);
  const AddQuant q = add_quant(graph, op);
  expect_tensor(q.real_output_multiplier < 1.0, graph, op, op.outputs[0], "output 0",
                "scale is too small for the input scales (TFLM needs 2 * max input scale < 2^" +
                    std::to_string(q.left_shift) + " * output scale)");
}

void add_quant_fields(const Graph& graph, const Op& op, KernelCall* call) {
  const Tensor& output = graph.tensor(op.outputs[0]);
  const AddQuant q = add_quant(graph, op);
  ParamValues& p = call->params;
  p.set_int("input1_offset", -graph.tensor(op.inputs[0]).quant.zero_point[0]);
  p.set_int("input1_multiplier", q.input1.multiplier);
  p.set_int("input1_shift", q.input1.shift);
  p.set_int("input2_offset", -graph.tensor(op.inputs[1]).quant.zero_point[0]);
  p.set_int("input2_multiplier", q.input2.multiplier);
  p.set_int("input2_shift", q.input2.shift);
  p.set_int("left_shift", q.left_shift);
  p.set_int("output_multiplier", q.output.multiplier);
  p.set_int("output_shift", q.output.shift);
  p.set_int("output_offset", output.quant.zero_point[0]);
}

KernelCall lower(const Graph& graph, const Op& op, const Target&) {
  const DType type = graph.tensor(op.outputs[0]).dtype;
  KernelCall call;
  call.stem = std::string("add_") + dtype_short_name(type);  // f32, s8, s16
  call.args = {op.inputs[0], op.inputs[1], op.outputs[0]};
  set_broadcast_params(graph, op, call);
  set_activation_params(call, graph.tensor(op.outputs[0]), options_if<FusedActivationOptions>(op)->activation);
  if (type != DType::kFloat32) add_quant_fields(graph, op, &call);
  return call;
}

}  // namespace

extern const OpHandler add_handler = {check, lower, binary_macs, /*is_view=*/false, binary_in_place,
                                     read_fused_activation<tflite::AddOptions>};

}  // namespace microaot
