// GATHER_ND, as TFLite Micro's kernel (gather_nd.cc): float32 or int8 values, int32 indices whose last
// dimension (at most 5, at most the input's rank) indexes the input's leading dimensions; each index tuple
// picks one block. Lowers to the byte-generic gather_nd kernel, which checks every entry of indices that
// arrive at run time (TFLM checks only that the block lies inside the input, so it accepts an entry beyond
// its dimension that the others make up for; here that is refused); constant indices are checked here.
#include <string>
#include <vector>

#include "ops/op_checks.h"
#include "ops/op_handler.h"
#include "ops/remap_common.h"

namespace microaot {
namespace {

constexpr size_t kMaxIndexDepth = 5;  // TFLM's MAX_INDICES_ND

size_t index_depth(const Graph& graph, const Op& op) {
  const std::vector<int32_t>& indices = graph.tensor(op.inputs[1]).shape;
  return static_cast<size_t>(indices.back());
}

// Constant index tuples are checked now, so that only indices computed at run time can make the kernel refuse.
void expect_constant_tuples_within(const Graph& graph, const Op& op, size_t depth) {
  const int id = op.inputs[1];
  if (!graph.tensor(id).is_constant || depth == 0) return;
  const std::vector<int32_t>& input = graph.tensor(op.inputs[0]).shape;
  const std::vector<int64_t> values = constant_ints(graph, op, id, "input 1");
  for (size_t i = 0; i < values.size(); ++i) {
    const int64_t bound = input[i % depth];
    expect_tensor(values[i] >= 0 && values[i] < bound, graph, op, id, "input 1",
                  "index " + std::to_string(values[i]) + " (entry " + std::to_string(i) + ") is outside [0, " +
                      std::to_string(bound) + ")");
  }
}

void check(const Graph& graph, const Op& op) {
  expect_version(graph, op, 4);
  expect_arity(graph, op, 2, 2, 1);
  const int in = input_id(graph, op, 0), indices = input_id(graph, op, 1), out = output_id(graph, op, 0);
  expect_dtype(graph, op, in, "input 0", {DType::kFloat32, DType::kInt8});
  expect_dtype(graph, op, indices, "input 1", {DType::kInt32});
  expect_tensor(graph.tensor(out).dtype == graph.tensor(in).dtype, graph, op, out, "output 0",
                "has a type other than input 0's");
  for (int id : {in, indices}) {
    expect_known_shape(graph, op, id, input_role(op, id));
    expect_dims_product_fits(graph, op, id, input_role(op, id));
  }
  const std::vector<int32_t>& input = graph.tensor(in).shape;
  const std::vector<int32_t>& index_shape = graph.tensor(indices).shape;
  expect_tensor(!input.empty(), graph, op, in, "input 0", "must be at least a vector");
  expect_tensor(!index_shape.empty(), graph, op, indices, "input 1", "must be at least a vector");
  const size_t depth = index_depth(graph, op);
  expect_tensor(depth <= input.size() && depth <= kMaxIndexDepth, graph, op, indices, "input 1",
                "its last dimension (" + std::to_string(depth) + ") exceeds the input's rank or 5");
  std::vector<int32_t> shape(index_shape.begin(), index_shape.end() - 1);
  shape.insert(shape.end(), input.begin() + static_cast<std::ptrdiff_t>(depth), input.end());
  expect_tensor(graph.tensor(out).shape == shape, graph, op, out, "output 0",
                "its shape is not indices[:-1] + input[depth:]");
  expect_constant_tuples_within(graph, op, depth);
}

KernelCall lower(const Graph& graph, const Op& op) {
  const Tensor& input = graph.tensor(op.inputs[0]);
  const std::vector<int32_t>& index_shape = graph.tensor(op.inputs[1]).shape;
  const size_t depth = index_depth(graph, op);
  const int64_t element = static_cast<int64_t>(dtype_size(input.dtype));
  std::vector<int64_t> dims, strides;
  for (size_t d = 0; d < depth; ++d) {
    dims.push_back(input.shape[d]);
    strides.push_back(dims_product(input.shape, d + 1, input.shape.size()) * element);
  }
  KernelCall call;
  call.stem = "gather_nd";
  call.args = {op.inputs[0], op.inputs[1], op.outputs[0]};
  call.params.set_int("slice_count", dims_product(index_shape, 0, index_shape.size() - 1));
  call.params.set_int("index_depth", static_cast<int64_t>(depth));
  call.params.set_int("slice_bytes", dims_product(input.shape, depth, input.shape.size()) * element);
  call.params.set_ints("dims", dims);
  call.params.set_ints("strides", strides);
  return call;
}

int64_t macs(const Graph&, const Op&) { return 0; }

}  // namespace

extern const OpHandler gather_nd_handler = {check, lower, macs};

}  // namespace microaot
