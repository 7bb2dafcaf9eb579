// ADD and SUB with broadcasting (ranks up to 6), as TFLM's reference kernels (add_common.cc, sub_common.cc).
// float and int32: the sum or difference, clamped by the fused activation. int8 and int16: both inputs
// brought to twice the larger input scale (shifted left by 20 for int8, 15 for int16), added or subtracted,
// rescaled to the output scale; ADD computes those constants in double, SUB in float, as TFLM does.
#include <algorithm>
#include <string>

#include "ops/add_linear.h"
#include "ops/broadcast.h"
#include "ops/op_checks.h"
#include "ops/op_handler.h"
#include "ops/quant_math.h"
#include "ops/read_options.h"

namespace microaot {
namespace {

// TFLite's versions: ADD 1 float, 2 int8, 3 int16, 4 int64, 5 int16 unquantized; SUB 1 float, 2 int8,
// 3 broadcast above 4D, 4 int64, 5 int16. The type checks refuse int64 and unquantized int16.
constexpr int kMaxVersion = 5;

struct AddSubQuant {
  InputRescale inputs;
  double real_output_multiplier = 0;
};

// TFLM's CalculateOpDataAdd / CalculateOpDataSub with the arithmetic in Real.
template <typename Real>
AddSubQuant add_sub_quant(const Graph& graph, const Op& op) {
  const float s1 = graph.tensor(op.inputs[0]).quant.scale[0];
  const float s2 = graph.tensor(op.inputs[1]).quant.scale[0];
  const Tensor& output = graph.tensor(op.outputs[0]);
  AddSubQuant q;
  q.inputs.left_shift = output.dtype == DType::kInt16 ? 15 : 20;
  const Real twice_max_input_scale = 2 * static_cast<Real>(std::max(s1, s2));
  q.inputs.real1 = static_cast<double>(static_cast<Real>(s1) / twice_max_input_scale);
  q.inputs.real2 = static_cast<double>(static_cast<Real>(s2) / twice_max_input_scale);
  q.real_output_multiplier = static_cast<double>(
      twice_max_input_scale /
      (static_cast<Real>(1 << q.inputs.left_shift) * static_cast<Real>(output.quant.scale[0])));
  return q;
}

AddSubQuant add_sub_quant(const Graph& graph, const Op& op) {
  return op.kind == OpKind::Add ? add_sub_quant<double>(graph, op) : add_sub_quant<float>(graph, op);
}

void check(const Graph& graph, const Op& op) {
  expect_version(graph, op, kMaxVersion);
  const DType type = check_binary_op(graph, op, {DType::kFloat32, DType::kInt32, DType::kInt8, DType::kInt16});
  if (type == DType::kFloat32) return;
  if (type == DType::kInt32) return check_binary_unquantized(graph, op);
  check_binary_quantization(graph, op);
  const AddSubQuant q = add_sub_quant(graph, op);
  // TFLM requires every rescale factor in (0, 1); in float (SUB) a ratio of far-apart scales underflows to 0.
  expect_op(q.inputs.real1 > 0.0 && q.inputs.real2 > 0.0, graph, op,
            "the input scales are too far apart: an input's rescale factor underflows to 0");
  expect_tensor(q.real_output_multiplier > 0.0, graph, op, op.outputs[0], "output 0",
                "scale is too large for the input scales: the rescale factor underflows to 0");
  expect_tensor(q.real_output_multiplier < 1.0, graph, op, op.outputs[0], "output 0",
                "scale is too small for the input scales (TFLM needs 2 * max input scale < 2^" +
                    std::to_string(q.inputs.left_shift) + " * output scale)");
}

KernelCall lower(const Graph& graph, const Op& op) {
  const Tensor& output = graph.tensor(op.outputs[0]);
  KernelCall call = broadcast_call(graph, op);  // add_s8, sub_f32, ...
  set_activation_params(call, output, options_if<FusedActivationOptions>(op)->activation);
  if (output.dtype == DType::kFloat32 || output.dtype == DType::kInt32) return call;
  const AddSubQuant q = add_sub_quant(graph, op);
  set_input_rescale_params(graph, op, q.inputs, call);
  set_output_rescale_params(graph, op, quantize_multiplier_smaller_than_one(q.real_output_multiplier), call);
  return call;
}

// The int8 family's chooser (compile/choose_variants.h): one linear form of the two values, where it is exact.
void choose(const Graph&, const Op& op, const Target& target, KernelCall& call) {
  use_add_linear_form(call, target, op.kind == OpKind::Sub);
}

// ADD and SUB differ in their options table alone.
constexpr OpHandler add_sub_handler(OpOptions (*read_options)(const Graph&, const Op&, const tflite::Operator&)) {
  return {check, lower, binary_macs, /*is_view=*/false, binary_in_place, read_options,
          /*state_copy_bytes=*/nullptr, choose};
}

}  // namespace

extern const OpHandler add_handler = add_sub_handler(read_fused_activation<tflite::AddOptions>);
extern const OpHandler sub_handler = add_sub_handler(read_fused_activation<tflite::SubOptions>);

}  // namespace microaot
