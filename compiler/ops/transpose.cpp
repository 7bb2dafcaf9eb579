// TRANSPOSE, as TFLite Micro's kernel (transpose_common.cc): rank up to 5, a constant permutation of
// 0..rank-1, float32 / int8 / int16 values moved as they are. Lowers to the byte-generic remap kernel:
// output dimension d walks input dimension perm[d].
#include <string>
#include <vector>

#include "ops/op_checks.h"
#include "ops/op_handler.h"
#include "ops/remap_common.h"

namespace microaot {
namespace {

constexpr size_t kMaxRank = 5;

std::vector<int64_t> permutation(const Graph& graph, const Op& op) {
  const int perm = input_id(graph, op, 1);
  const Tensor& input = graph.tensor(op.inputs[0]);
  const Tensor& output = graph.tensor(op.outputs[0]);
  const std::vector<int64_t> values = constant_ints(graph, op, perm, "perm");
  const size_t rank = input.shape.size();
  expect_tensor(values.size() == rank && output.shape.size() == rank, graph, op, perm, "perm",
                "must hold one entry per input dimension");
  std::vector<bool> seen(rank, false);
  for (size_t d = 0; d < rank; ++d) {
    const int64_t p = values[d];
    expect_tensor(p >= 0 && p < static_cast<int64_t>(rank) && !seen[static_cast<size_t>(p)], graph, op, perm, "perm",
                  "is not a permutation of 0.." + std::to_string(rank - 1));
    seen[static_cast<size_t>(p)] = true;
    expect_tensor(output.shape[d] == input.shape[static_cast<size_t>(p)], graph, op, op.outputs[0], "output 0",
                  "dimension " + std::to_string(d) + " is not the permuted input's");
  }
  return values;
}

void check(const Graph& graph, const Op& op) {
  expect_version(graph, op, 6);
  expect_arity(graph, op, 2, 2, 1);
  expect_moved_tensors(graph, op, {DType::kFloat32, DType::kInt8, DType::kInt16});
  expect_tensor(graph.tensor(op.inputs[0]).shape.size() <= kMaxRank, graph, op, op.inputs[0], "input 0",
                "rank above 5");
  permutation(graph, op);
}

KernelCall lower(const Graph& graph, const Op& op) {
  const Tensor& input = graph.tensor(op.inputs[0]);
  const std::vector<int64_t> strides = byte_strides(input.shape, static_cast<int64_t>(dtype_size(input.dtype)));
  RemapTables tables;
  for (int64_t p : permutation(graph, op)) {
    const size_t axis = static_cast<size_t>(p);
    tables.add(stepped_offsets(input.shape[axis], 0, 1, strides[axis]));
  }
  return remap_call(graph, op, tables);
}

int64_t macs(const Graph&, const Op&) { return 0; }

}  // namespace

extern const OpHandler transpose_handler = {check, lower, macs, /*is_view=*/false, /*in_place=*/nullptr, nullptr};

}  // namespace microaot
