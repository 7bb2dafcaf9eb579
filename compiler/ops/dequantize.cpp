// DEQUANTIZE: int8/int16 -> float32 as scale * (q - zero_point) in float (TFLM's reference Dequantize).
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "ops/in_place.h"
#include "ops/op_checks.h"
#include "ops/op_handler.h"
#include "ops/quant_math.h"

namespace microaot {
namespace {

void check(const Graph& graph, const Op& op) {
  expect_arity(graph, op, 1, 1, 1);
  expect_version(graph, op, 5);  // 6 is int4
  const int in = input_id(graph, op, 0);
  const int out = output_id(graph, op, 0);
  expect_dtype(graph, op, in, "input 0", {DType::kInt8, DType::kInt16});
  expect_dtype(graph, op, out, "output 0", {DType::kFloat32});
  expect_same_elements(graph, op, in, out);
  expect_activation_quant(graph, op, in, "input 0");
}

KernelCall lower(const Graph& graph, const Op& op) {
  const Tensor& input = graph.tensor(op.inputs[0]);
  KernelCall call;
  call.stem = std::string("dequantize_") + dtype_short_name(input.dtype) + "_f32";
  call.params.set_int("size", input.num_elements());
  call.params.set_float("input_scale", input.quant.scale[0]);
  call.params.set_int("input_offset", -input.quant.zero_point[0]);
  call.args = {op.inputs[0], op.outputs[0]};
  return call;
}

// The kernels convert element i right after reading it, in order.
std::vector<InPlaceOption> in_place(const Graph& graph, const Op& op) { return {element_wise_option(graph, op, 0, 0)}; }

// Element-wise conversion: no multiply-accumulates.
int64_t macs(const Graph&, const Op&) { return 0; }

}  // namespace

extern const OpHandler dequantize_handler = {check, lower, macs, /*is_view=*/false, in_place};

}  // namespace microaot
