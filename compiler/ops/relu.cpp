// RELU and RELU6 (float, int8, int16) as TFLite Micro's reference kernels (activations_common.cc). RELU
// rescales by input_scale / output_scale (the division in float) and clamps below at the output zero point.
// RELU6 clamps to the input's zero point and to 6 quantized with the input's parameters, and does not
// rescale to the output's quantization: this is TFLM's behaviour (the shared op suite's `*_outq_differs`
// cases pin it), which microaot follows; models TFLite converts give both tensors the same parameters.
#include <algorithm>

#include "ops/op_checks.h"
#include "ops/op_handler.h"
#include "ops/unary.h"

namespace microaot {
namespace {

// TFLite's versions: 1 float, 2 int8/uint8, 3 int16.
constexpr int kMaxVersion = 3;

void check_relu(const Graph& graph, const Op& op) {
  expect_version(graph, op, kMaxVersion);
  const DType type = check_unary_op(graph, op, {DType::kFloat32, DType::kInt8, DType::kInt16});
  if (type != DType::kFloat32) check_unary_quantization(graph, op, /*symmetric_int16=*/true);
}

KernelCall lower_relu(const Graph& graph, const Op& op) {
  KernelCall call = unary_call(graph, op, "relu");
  const Tensor& input = graph.tensor(op.inputs[0]);
  const Tensor& output = graph.tensor(op.outputs[0]);
  if (input.dtype == DType::kFloat32) return call;
  ActivationRange range = type_range(output.dtype);
  range.min = std::max<int32_t>(range.min, static_cast<int32_t>(output.quant.zero_point[0]));
  set_unary_rescale_params(call, input, output, static_cast<double>(input.quant.scale[0] / output.quant.scale[0]),
                           range);
  return call;
}

// TFLM checks no zero point for RELU6, int16 included.
void check_relu6(const Graph& graph, const Op& op) {
  expect_version(graph, op, kMaxVersion);
  const DType type = check_unary_op(graph, op, {DType::kFloat32, DType::kInt8, DType::kInt16});
  if (type != DType::kFloat32) check_unary_quantization(graph, op, /*symmetric_int16=*/false);
}

KernelCall lower_relu6(const Graph& graph, const Op& op) {
  KernelCall call = unary_call(graph, op, "relu6");
  const Tensor& input = graph.tensor(op.inputs[0]);
  if (input.dtype == DType::kFloat32) return call;
  const ActivationRange range = quantized_activation_range(Activation::kRelu6, input.dtype, input.quant.scale[0],
                                                           static_cast<int32_t>(input.quant.zero_point[0]));
  call.params.set_int("activation_min", range.min);
  call.params.set_int("activation_max", range.max);
  return call;
}

}  // namespace

extern const OpHandler relu_handler = {check_relu, lower_relu, unary_macs, /*is_view=*/false, unary_in_place, nullptr};
extern const OpHandler relu6_handler = {check_relu6, lower_relu6, unary_macs, /*is_view=*/false, unary_in_place,
                                        nullptr};

}  // namespace microaot
