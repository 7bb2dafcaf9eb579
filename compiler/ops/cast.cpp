// CAST as TFLite Micro's reference kernel (cast.cc): each element converted by value (static_cast; no
// quantization is applied) from int8, int16, int32, float32 or bool to int8, int16, int32 or float32. A cast
// to the same type is a byte copy. (TFLM's uint32 is not a microaot tensor type.)
#include <string>

#include "ops/op_checks.h"
#include "ops/op_handler.h"
#include "ops/unary.h"

namespace microaot {
namespace {

void check(const Graph& graph, const Op& op) {
  expect_version(graph, op, 7);
  expect_arity(graph, op, 1, 1, 1);
  const int in = input_id(graph, op, 0);
  const int out = output_id(graph, op, 0);
  expect_dtype(graph, op, in, "input 0", {DType::kInt8, DType::kInt16, DType::kInt32, DType::kFloat32, DType::kBool});
  expect_dtype(graph, op, out, "output 0", {DType::kInt8, DType::kInt16, DType::kInt32, DType::kFloat32});
  expect_same_elements(graph, op, in, out);
}

KernelCall lower(const Graph& graph, const Op& op) {
  const Tensor& input = graph.tensor(op.inputs[0]);
  const Tensor& output = graph.tensor(op.outputs[0]);
  if (input.dtype == output.dtype) {
    KernelCall call;
    call.stem = "copy";
    call.args = {op.inputs[0], op.outputs[0]};
    call.params.set_int("size", input.byte_size());
    return call;
  }
  KernelCall call = unary_call(graph, op, "cast");  // cast_<input type>
  call.stem += std::string("_") + dtype_short_name(output.dtype);
  return call;
}

}  // namespace

extern const OpHandler cast_handler = {check, lower, unary_macs, /*is_view=*/false, unary_in_place, nullptr};

}  // namespace microaot
