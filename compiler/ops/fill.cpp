// FILL and ZEROS_LIKE, as TFLite Micro's kernels (fill.cc, zeros_like.cc). FILL: a constant int32 / int64 dims
// vector equal to the output's shape and a scalar value (float32, int32 or int8), constant or computed at run
// time. ZEROS_LIKE: the input's shape filled with 0 (float32, int8, int32, int64); like TFLM, int8 gets the raw
// value 0, not the zero point. Both lower to the remap kernel: FILL reads the value's bytes at offset 0 for
// every coordinate, ZEROS_LIKE marks every coordinate as fill.
#include <string>
#include <vector>

#include "ops/op_checks.h"
#include "ops/op_handler.h"
#include "ops/remap_common.h"

namespace microaot {
namespace {

void check_fill(const Graph& graph, const Op& op) {
  expect_version(graph, op, 4);
  expect_arity(graph, op, 2, 2, 1);
  const int dims = input_id(graph, op, 0);
  const int value = input_id(graph, op, 1);
  const int out = output_id(graph, op, 0);
  expect_dtype(graph, op, out, "output 0", {DType::kFloat32, DType::kInt32, DType::kInt8});
  expect_same_type(graph, op, 1);
  expect_rank(graph, op, value, "value", 0);
  expect_known_shape(graph, op, out, "output 0");
  expect_remap_table_size(graph, op, out);
  expect_rank(graph, op, dims, "dims", 1);
  const std::vector<int64_t> values = constant_ints(graph, op, dims, "dims");
  const std::vector<int32_t>& shape = graph.tensor(out).shape;
  expect_tensor(values == std::vector<int64_t>(shape.begin(), shape.end()), graph, op, dims, "dims",
                "is not the output's shape");
}

// Every coordinate of every dimension reads offset 0: the value tensor's one element.
KernelCall lower_fill(const Graph& graph, const Op& op) {
  RemapTables tables;
  for (int32_t size : graph.tensor(op.outputs[0]).shape) tables.add(std::vector<int64_t>(size, 0));
  KernelCall call = remap_call(graph, op, tables);
  call.args[0] = op.inputs[1];
  return call;
}

void check_zeros_like(const Graph& graph, const Op& op) {
  expect_version(graph, op, 1);
  expect_arity(graph, op, 1, 1, 1);
  expect_moved_tensors(graph, op, {DType::kFloat32, DType::kInt8, DType::kInt32, DType::kInt64});
  expect_tensor(graph.tensor(op.outputs[0]).shape == graph.tensor(op.inputs[0]).shape, graph, op, op.outputs[0],
                "output 0", "its shape is not the input's");
}

// Every coordinate is fill (a scalar too: its one coordinate), and the fill is zero bytes.
KernelCall lower_zeros_like(const Graph& graph, const Op& op) {
  RemapTables tables;
  for (int32_t size : graph.tensor(op.outputs[0]).shape) tables.add(std::vector<int64_t>(size, kFillOffset));
  if (tables.dims.empty()) tables.add({kFillOffset});
  return remap_call(graph, op, tables);
}

int64_t macs(const Graph&, const Op&) { return 0; }

}  // namespace

extern const OpHandler fill_handler = {check_fill, lower_fill, macs, /*is_view=*/false, /*in_place=*/nullptr,
                                       nullptr};
extern const OpHandler zeros_like_handler = {check_zeros_like, lower_zeros_like, macs, /*is_view=*/false,
                                             /*in_place=*/nullptr, nullptr};

}  // namespace microaot
