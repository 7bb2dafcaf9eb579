// ADD_N: the element-wise sum of two or more tensors of one shape and type, float32 or int8, as TFLite Micro's
// add_n.cc (no broadcast, no activation). int8 inputs share one scale and zero point and are summed through
// TFLM's fixed-point sum, which starts from the transform of a raw 0: with a non-zero input zero point TFLM's
// results are shifted (the ../shared/ops README lists the quirk) and microaot keeps TFLM's results.
#include <string>

#include "ops/op_checks.h"
#include "ops/op_handler.h"
#include "ops/scaled_sum.h"

namespace microaot {
namespace {

constexpr int kMaxVersion = 2;

float scale_of(const Tensor& t) { return t.quant.scale.empty() ? 0.0f : t.quant.scale[0]; }
int64_t zero_point_of(const Tensor& t) { return t.quant.zero_point.empty() ? 0 : t.quant.zero_point[0]; }

// Input i against input 0: type, shape and (int8, as TFLM checks) scale and zero point.
void check_input(const Graph& graph, const Op& op, size_t i) {
  const int id = input_id(graph, op, static_cast<int>(i));
  const std::string role = "input " + std::to_string(i);
  const Tensor& input = graph.tensor(id);
  const Tensor& first = graph.tensor(op.inputs[0]);
  expect_tensor(input.dtype == first.dtype, graph, op, id, role, "has a type other than input 0's");
  expect_tensor(input.shape == first.shape, graph, op, id, role, "has a shape other than input 0's (no broadcast)");
  expect_known_shape(graph, op, id, role);
  if (input.is_constant) expect_constant_data(graph, op, id, role);
  if (input.dtype != DType::kInt8) return;
  expect_tensor(scale_of(input) == scale_of(first) && zero_point_of(input) == zero_point_of(first), graph, op, id,
                role, "int8 inputs must share input 0's scale and zero point (TFLM requires it)");
}

void check(const Graph& graph, const Op& op) {
  expect_version(graph, op, kMaxVersion);
  expect_op(op.inputs.size() >= 2, graph, op, "expects 2 or more inputs, has " + std::to_string(op.inputs.size()));
  expect_op(op.outputs.size() == 1, graph, op, "expects 1 output, has " + std::to_string(op.outputs.size()));
  const int first = input_id(graph, op, 0), out = output_id(graph, op, 0);
  expect_dtype(graph, op, first, "input 0", {DType::kFloat32, DType::kInt8});
  expect_dtype(graph, op, out, "output 0", {graph.tensor(first).dtype});
  for (size_t i = 0; i < op.inputs.size(); ++i) check_input(graph, op, i);
  expect_tensor(graph.tensor(out).shape == graph.tensor(first).shape, graph, op, out, "output 0",
                "must have the inputs' shape");
  expect_same_elements(graph, op, first, out);
  if (graph.tensor(first).dtype == DType::kInt8) check_scaled_sum_quantization(graph, op, first);
}

KernelCall lower(const Graph& graph, const Op& op) {
  const Tensor& first = graph.tensor(op.inputs[0]);
  KernelCall call;
  call.stem = std::string("add_n_") + dtype_short_name(first.dtype);
  call.args = op.inputs;
  call.args.push_back(op.outputs[0]);
  call.params.set_int("size", first.num_elements());
  call.params.set_int("input_count", static_cast<int64_t>(op.inputs.size()));
  if (first.dtype == DType::kInt8) set_scaled_sum_params(graph, op, op.inputs[0], call);
  return call;
}

// One addition per input and element.
int64_t macs(const Graph& graph, const Op& op) {
  return graph.tensor(op.outputs[0]).num_elements() * static_cast<int64_t>(op.inputs.size());
}

}  // namespace

extern const OpHandler add_n_handler = {check, lower, macs, /*is_view=*/false, /*in_place=*/nullptr,
                                        /*read_options=*/nullptr};

}  // namespace microaot
