// ELU (float, int8) as TFLite Micro's reference kernel (elu.cc): x for x >= 0, exp(x) - 1 otherwise. TFLM
// evaluates int8 through a 256-entry table built in float at Prepare; the same table is built here, so the
// kernel is one lookup per element.
#include <cmath>

#include "ops/op_checks.h"
#include "ops/op_handler.h"
#include "ops/unary.h"

namespace microaot {
namespace {

float elu(float x) { return x < 0.0f ? std::exp(x) - 1.0f : x; }

void check(const Graph& graph, const Op& op) {
  expect_version(graph, op, 1);
  const DType type = check_unary_op(graph, op, {DType::kFloat32, DType::kInt8});
  if (type != DType::kInt8) return;
  check_unary_quantization(graph, op, /*symmetric_int16=*/false);
  // The table divides by the output scale in float: a scale whose inverse overflows makes 0 * inf entries.
  const int out = op.outputs[0];
  expect_tensor(std::isfinite(1.0f / graph.tensor(out).quant.scale[0]), graph, op, out, "output 0",
                "scale too small to invert in float");
}

KernelCall lower(const Graph& graph, const Op& op) {
  const Tensor& input = graph.tensor(op.inputs[0]);
  if (input.dtype == DType::kFloat32) return unary_call(graph, op, "elu");
  KernelCall call = unary_call(graph, op, "lut");
  call.params.set_ints("table", int8_lut(input, graph.tensor(op.outputs[0]), elu));
  return call;
}

}  // namespace

extern const OpHandler elu_handler = {check, lower, unary_macs, /*is_view=*/false, unary_in_place, nullptr};

}  // namespace microaot
