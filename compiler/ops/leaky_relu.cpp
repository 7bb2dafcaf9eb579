// LEAKY_RELU (float, int8, int16) as TFLite Micro's reference kernel (leaky_relu_common.cc): x for x > 0,
// alpha * x otherwise. Quantized: one multiplier for each sign, input_scale / output_scale and
// input_scale * alpha / output_scale, both computed in float as TFLM does; a negative alpha is applied as the
// multiplier of |alpha| and a negation. An int8 LeakyRelu of an ONNX QDQ group (onnx_table) is ONNX's own
// arithmetic instead, through a 256-entry table (the lut kernel).
#include <cmath>

#include "ops/op_checks.h"
#include "ops/op_handler.h"
#include "ops/read_options.h"
#include "ops/unary.h"

namespace microaot {
namespace {

OpOptions read_options(const Graph& graph, const Op& op, const tflite::Operator& source) {
  LeakyReluOptions options;
  if (const auto* table = source.builtin_options_as_LeakyReluOptions()) options.alpha = table->alpha();
  if (!std::isfinite(options.alpha)) refuse_options(graph, op, "alpha is not finite");
  return options;
}

float alpha_of(const Op& op) { return options_if<LeakyReluOptions>(op)->alpha; }

// TFLite's versions: 1 float and int8, 2 int16.
void check(const Graph& graph, const Op& op) {
  expect_version(graph, op, 2);
  const DType type = check_unary_op(graph, op, {DType::kFloat32, DType::kInt8, DType::kInt16});
  if (type != DType::kFloat32) check_unary_quantization(graph, op, /*symmetric_int16=*/false);
}

KernelCall lower(const Graph& graph, const Op& op) {
  KernelCall call = unary_call(graph, op, "leaky_relu");
  const Tensor& input = graph.tensor(op.inputs[0]);
  const Tensor& output = graph.tensor(op.outputs[0]);
  const float alpha = alpha_of(op);
  if (input.dtype == DType::kFloat32) {
    call.params.set_float("alpha", alpha);
    return call;
  }
  if (options_if<LeakyReluOptions>(op)->onnx_table && input.dtype == DType::kInt8) {
    KernelCall table = unary_call(graph, op, "lut");
    table.params.set_ints("table", int8_onnx_lut(input, output, [alpha](float x) { return x < 0.0f ? alpha * x : x; }));
    return table;
  }
  const float input_scale = input.quant.scale[0];
  const float output_scale = output.quant.scale[0];
  set_by_sign_params(call, input, output, static_cast<double>(input_scale / output_scale),
                     std::fabs(static_cast<double>(input_scale * alpha / output_scale)));
  call.params.set_int("alpha_negative", alpha < 0.0f ? 1 : 0);
  return call;
}

}  // namespace

extern const OpHandler leaky_relu_handler = {check, lower, unary_macs, /*is_view=*/false, unary_in_place,
                                             read_options};

}  // namespace microaot
