// SHAPE, as TFLite Micro's kernel (shape.cc): the input's dimensions as an int32 vector (TFLM refuses every other
// output type, int64 included). The shape is known when compiling, so the op lowers to a remap kernel call that
// copies a derived constant holding it into the output. The pass fold_constants turns the op into that
// constant, except where its result is a graph output: that one stays this call, like any other op's.
#include <string>
#include <vector>

#include "ops/op_checks.h"
#include "ops/op_handler.h"
#include "ops/remap_common.h"

namespace microaot {
namespace {

void check(const Graph& graph, const Op& op) {
  expect_version(graph, op, 1);
  expect_arity(graph, op, 1, 1, 1);
  const int in = input_id(graph, op, 0);
  const int out = output_id(graph, op, 0);
  expect_dtype(graph, op, out, "output 0", {DType::kInt32});
  expect_known_shape(graph, op, in, "input 0");
  const int32_t rank = static_cast<int32_t>(graph.tensor(in).shape.size());
  expect_tensor(graph.tensor(out).shape == std::vector<int32_t>{rank}, graph, op, out, "output 0",
                "its shape is not [input rank]");
}

// The input's dimensions as the bytes of an int32 vector.
Tensor shape_constant(const Graph& graph, const Op& op) {
  const Tensor& input = graph.tensor(op.inputs[0]);
  Tensor t;
  t.name = graph.tensor(op.outputs[0]).name + "_value";
  t.dtype = DType::kInt32;
  t.shape = {static_cast<int32_t>(input.shape.size())};
  for (int32_t dim : input.shape) {
    for (int b = 0; b < 4; ++b) t.data.push_back(static_cast<uint8_t>(static_cast<uint32_t>(dim) >> (8 * b)));
  }
  return t;
}

KernelCall lower(const Graph& graph, const Op& op) {
  const int64_t rank = static_cast<int64_t>(graph.tensor(op.inputs[0]).shape.size());
  RemapTables tables;
  tables.add(stepped_offsets(rank, 0, 1, 4));
  KernelCall call = remap_call(graph, op, tables);
  if (rank == 0) return call;  // an empty output: nothing is read, and an empty constant has no C array
  call.derived.push_back(shape_constant(graph, op));
  call.args[0] = derived_arg(0);
  return call;
}

int64_t macs(const Graph&, const Op&) { return 0; }

}  // namespace

extern const OpHandler shape_handler = {check, lower, macs, /*is_view=*/false, /*in_place=*/nullptr, nullptr};

}  // namespace microaot
