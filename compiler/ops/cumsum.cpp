// CUMSUM along one constant axis, exclusive and/or reverse, float or int8, as TFLite Micro's reference kernel
// computes it (tflite-micro cumsum.cc): int8 moves every element to a common fixed point (left shift 20, then
// half the input scale), sums there and rescales once. TFLM starts that sum from the transformed raw 0
// instead of 0, so with a non-zero input zero point every output is shifted (the README of ../shared/ops lists
// it): the kernel keeps TFLM's arithmetic, so the results are TFLM's (runtime/include/microaot/kernels/cumsum.h).
#include <string>

#include "ops/op_checks.h"
#include "ops/op_handler.h"
#include "ops/read_options.h"
#include "ops/reduce_common.h"
#include "ops/scaled_sum.h"

namespace microaot {
namespace {

constexpr int kMaxVersion = 1;

OpOptions read_options(const Graph&, const Op&, const tflite::Operator& source) {
  CumsumOptions options;
  if (const auto* table = source.builtin_options_as_CumsumOptions()) {
    options.exclusive = table->exclusive();
    options.reverse = table->reverse();
  }
  return options;
}

// The resolved axis: one constant int32 value, as TFLM requires.
int cumsum_axis(const Graph& graph, const Op& op) {
  const std::vector<int32_t> axes = constant_axis_values(graph, op, 1);
  expect_tensor(axes.size() == 1, graph, op, op.inputs[1], "input 1",
                "must hold exactly one axis, holds " + std::to_string(axes.size()));
  return resolve_axis(graph, op, axes[0], static_cast<int>(graph.tensor(op.inputs[0]).shape.size()));
}

void check(const Graph& graph, const Op& op) {
  expect_arity(graph, op, 2, 2, 1);
  expect_version(graph, op, kMaxVersion);
  const int in = input_id(graph, op, 0), out = output_id(graph, op, 0);
  expect_dtype(graph, op, in, "input 0", {DType::kFloat32, DType::kInt8});
  expect_dtype(graph, op, out, "output 0", {graph.tensor(in).dtype});
  expect_tensor(!graph.tensor(in).shape.empty(), graph, op, in, "input 0", "must have at least one dimension");
  expect_tensor(graph.tensor(out).shape == graph.tensor(in).shape, graph, op, out, "output 0",
                "must have the input's shape");
  expect_same_elements(graph, op, in, out);
  cumsum_axis(graph, op);
  if (graph.tensor(in).dtype == DType::kInt8) check_scaled_sum_quantization(graph, op, in);
}

void set_shape_params(const Graph& graph, const Op& op, KernelCall& call) {
  const std::vector<int32_t>& shape = graph.tensor(op.inputs[0]).shape;
  const int axis = cumsum_axis(graph, op);
  int64_t outer = 1, inner = 1;
  for (int d = 0; d < axis; ++d) outer *= shape[d];
  for (size_t d = static_cast<size_t>(axis) + 1; d < shape.size(); ++d) inner *= shape[d];
  const CumsumOptions& options = *options_if<CumsumOptions>(op);
  call.params.set_int("outer", outer);
  call.params.set_int("depth", shape[static_cast<size_t>(axis)]);
  call.params.set_int("inner", inner);
  call.params.set_int("exclusive", options.exclusive ? 1 : 0);
  call.params.set_int("reverse", options.reverse ? 1 : 0);
}

KernelCall lower(const Graph& graph, const Op& op) {
  const Tensor& input = graph.tensor(op.inputs[0]);
  KernelCall call;
  call.stem = std::string("cumsum_") + dtype_short_name(input.dtype);
  call.args = {op.inputs[0], op.outputs[0]};
  set_shape_params(graph, op, call);
  if (input.dtype == DType::kInt8) set_scaled_sum_params(graph, op, op.inputs[0], call);
  return call;
}

// One addition per element.
int64_t macs(const Graph& graph, const Op& op) { return graph.tensor(op.inputs[0]).num_elements(); }

}  // namespace

extern const OpHandler cumsum_handler = {check, lower, macs, /*is_view=*/false, nullptr, read_options};

}  // namespace microaot
