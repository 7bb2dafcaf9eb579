// SQUARED_DIFFERENCE with broadcasting (ranks up to 6), as TFLM's reference kernel (tflite-micro
// squared_difference.cc): float and int32 square the difference; int8 and int16 bring both inputs to twice
// the larger input scale (shifted left by 7 for int8, 0 for int16), square their difference and rescale by
// (2 * max input scale)^2 / (2^(2 * left_shift) * output scale), clamping to the type's range.
#include <algorithm>

#include "ops/broadcast.h"
#include "ops/op_checks.h"
#include "ops/op_handler.h"
#include "ops/quant_math.h"

namespace microaot {
namespace {

// TFLite's SQUARED_DIFFERENCE versions: 1 float, 2 int8.
constexpr int kMaxVersion = 2;

void check(const Graph& graph, const Op& op) {
  expect_version(graph, op, kMaxVersion);
  const DType type = check_binary_op(graph, op, {DType::kFloat32, DType::kInt32, DType::kInt8, DType::kInt16});
  if (type == DType::kInt8 || type == DType::kInt16) check_binary_quantization(graph, op);
}

// TFLM's PrepareQuantized, in double.
void set_quantized_params(const Graph& graph, const Op& op, KernelCall& call) {
  const Tensor& output = graph.tensor(op.outputs[0]);
  const float s1 = graph.tensor(op.inputs[0]).quant.scale[0];
  const float s2 = graph.tensor(op.inputs[1]).quant.scale[0];
  InputRescale rescale;
  rescale.left_shift = output.dtype == DType::kInt8 ? 7 : 0;
  const double twice_max_input_scale = 2.0 * static_cast<double>(std::max(s1, s2));
  rescale.real1 = static_cast<double>(s1) / twice_max_input_scale;
  rescale.real2 = static_cast<double>(s2) / twice_max_input_scale;
  set_input_rescale_params(graph, op, rescale, call);
  const double output_scale = static_cast<double>((1 << (2 * rescale.left_shift)) * output.quant.scale[0]);
  set_output_rescale_params(graph, op, quantize_multiplier(twice_max_input_scale * twice_max_input_scale / output_scale),
                            call);
  set_activation_params(call, output, Activation::kNone);  // the type's range
}

KernelCall lower(const Graph& graph, const Op& op) {
  KernelCall call = broadcast_call(graph, op);
  const DType type = graph.tensor(op.outputs[0]).dtype;
  if (type == DType::kInt8 || type == DType::kInt16) set_quantized_params(graph, op, call);
  return call;
}

}  // namespace

extern const OpHandler squared_difference_handler = {check, lower, binary_macs, /*is_view=*/false, binary_in_place};

}  // namespace microaot
