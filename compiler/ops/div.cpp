// DIV with broadcasting (ranks up to 6), as TFLM's reference kernels (tflite-micro div.cc): float and int32
// divide and clamp to the fused activation; int8 multiplies the offset dividend by a fixed-point reciprocal
// of the offset divisor and rescales by input1 scale / (input2 scale * output scale), a ratio TFLM computes
// in float.
#include "ops/broadcast.h"
#include "ops/op_checks.h"
#include "ops/op_handler.h"
#include "ops/quant_math.h"
#include "ops/read_options.h"

namespace microaot {
namespace {

// TFLite's DIV versions: 1, and 2 for a broadcast above 4D.
constexpr int kMaxVersion = 2;
// An int8 dividend (|q - zero point| <= 255) keeps 23 sign bits, which the kernel's final right shift spends
// before the output shift: a larger output shift would turn it into a left shift, which TFLM does not do.
constexpr int kMaxOutputShift = 23;

QuantizedMultiplier output_multiplier(const Graph& graph, const Op& op) {
  const float s1 = graph.tensor(op.inputs[0]).quant.scale[0];
  const float s2 = graph.tensor(op.inputs[1]).quant.scale[0];
  const float so = graph.tensor(op.outputs[0]).quant.scale[0];
  return quantize_multiplier(static_cast<double>(s1 / (s2 * so)));
}

void check(const Graph& graph, const Op& op) {
  expect_version(graph, op, kMaxVersion);
  const DType type = check_binary_op(graph, op, {DType::kFloat32, DType::kInt32, DType::kInt8});
  if (type == DType::kInt32) check_binary_unquantized(graph, op);
  if (type != DType::kInt8) return;
  check_binary_quantization(graph, op);
  expect_tensor(output_multiplier(graph, op).shift <= kMaxOutputShift, graph, op, op.outputs[0], "output 0",
                "scale is too small for the input scales (input1 scale / (input2 scale * output scale) must be "
                "below 2^23)");
}

KernelCall lower(const Graph& graph, const Op& op) {
  const Tensor& output = graph.tensor(op.outputs[0]);
  KernelCall call = broadcast_call(graph, op);
  set_activation_params(call, output, options_if<FusedActivationOptions>(op)->activation);
  if (output.dtype != DType::kInt8) return call;
  set_input_offset_params(graph, op, call);
  set_output_rescale_params(graph, op, output_multiplier(graph, op), call);
  return call;
}

}  // namespace

extern const OpHandler div_handler = {check, lower, binary_macs, /*is_view=*/false, binary_in_place,
                                     read_fused_activation<tflite::DivOptions>};

}  // namespace microaot
