// PRELU (float, int8, int16 with an int8 alpha) as TFLite Micro's reference kernel (prelu_common.cc): x for
// x >= 0, alpha * x otherwise, alpha broadcast NumPy-style against x (ranks up to 6, ops/broadcast.h).
// Quantized: x rescaled by input_scale / output_scale, or x * alpha by input_scale * alpha_scale /
// output_scale, both in double.
#include <string>

#include "ops/broadcast.h"
#include "ops/op_checks.h"
#include "ops/op_handler.h"
#include "ops/unary.h"

namespace microaot {
namespace {

void check(const Graph& graph, const Op& op) {
  expect_version(graph, op, 1);
  expect_arity(graph, op, 2, 2, 1);
  const int in = input_id(graph, op, 0);
  const int alpha = input_id(graph, op, 1);
  const int out = output_id(graph, op, 0);
  expect_dtype(graph, op, in, "input 0", {DType::kFloat32, DType::kInt8, DType::kInt16});
  const DType type = graph.tensor(in).dtype;
  // TFLM takes an int8 alpha for int16 inputs.
  expect_dtype(graph, op, alpha, "input 1", {type == DType::kInt16 ? DType::kInt8 : type});
  expect_dtype(graph, op, out, "output 0", {type});
  check_broadcast_shapes(graph, op);
  if (type == DType::kFloat32) return;
  expect_activation_quant(graph, op, in, "input 0");
  expect_activation_quant(graph, op, alpha, "input 1");
  expect_activation_quant(graph, op, out, "output 0");
}

KernelCall lower(const Graph& graph, const Op& op) {
  const Tensor& input = graph.tensor(op.inputs[0]);
  const Tensor& alpha = graph.tensor(op.inputs[1]);
  const Tensor& output = graph.tensor(op.outputs[0]);
  KernelCall call;
  call.stem = std::string("prelu_") + dtype_short_name(input.dtype);
  call.args = {op.inputs[0], op.inputs[1], op.outputs[0]};
  set_broadcast_params(graph, op, call);
  if (input.dtype == DType::kFloat32) return call;
  const double input_scale = input.quant.scale[0];
  const double output_scale = output.quant.scale[0];
  set_by_sign_params(call, input, output, input_scale / output_scale,
                     input_scale * alpha.quant.scale[0] / output_scale);
  call.params.set_int("alpha_offset", -alpha.quant.zero_point[0]);
  return call;
}

}  // namespace

// binary_in_place: the output may overlap an input of its element count (not a broadcast alpha).
extern const OpHandler prelu_handler = {check, lower, binary_macs, /*is_view=*/false, binary_in_place, nullptr};

}  // namespace microaot
