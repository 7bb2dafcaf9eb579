// REVERSE_V2, as TFLite Micro's kernel (reverse.cc): a constant int32 list of axes, negative ones counted from
// the end, which must form one contiguous run once sorted (TFLM refuses others); rank up to 6; every element
// type TFLM moves. Lowers to the remap kernel: a reversed dimension walks its input coordinates backwards.
#include <algorithm>
#include <string>
#include <vector>

#include "ops/op_checks.h"
#include "ops/op_handler.h"
#include "ops/remap_common.h"

namespace microaot {
namespace {

constexpr size_t kMaxRank = 6;  // TFLM's RuntimeShape::kMaxSmallSize

// Per input dimension: whether it is reversed.
std::vector<bool> reversed_axes(const Graph& graph, const Op& op) {
  const int axis = input_id(graph, op, 1);
  const int64_t rank = static_cast<int64_t>(graph.tensor(op.inputs[0]).shape.size());
  expect_dtype(graph, op, axis, "axis", {DType::kInt32});
  expect_rank(graph, op, axis, "axis", 1);
  std::vector<int64_t> axes = constant_ints(graph, op, axis, "axis");
  expect_tensor(static_cast<int64_t>(axes.size()) <= rank, graph, op, axis, "axis", "has more axes than the input");
  for (int64_t& a : axes) {
    expect_tensor(a >= -rank && a < rank, graph, op, axis, "axis", "names an axis outside the input's rank");
    if (a < 0) a += rank;
  }
  std::sort(axes.begin(), axes.end());
  for (size_t i = 1; i < axes.size(); ++i) {
    expect_tensor(axes[i] == axes[i - 1] + 1, graph, op, axis, "axis",
                  "must be distinct and contiguous once sorted (TFLM refuses others)");
  }
  std::vector<bool> reversed(static_cast<size_t>(rank), false);
  for (int64_t a : axes) reversed[static_cast<size_t>(a)] = true;
  return reversed;
}

void check(const Graph& graph, const Op& op) {
  expect_version(graph, op, 3);
  expect_arity(graph, op, 2, 2, 1);
  expect_moved_tensors(graph, op, {DType::kFloat32, DType::kInt8, DType::kUInt8, DType::kInt16, DType::kInt32,
                                   DType::kInt64, DType::kBool});
  const Tensor& input = graph.tensor(op.inputs[0]);
  expect_tensor(input.shape.size() <= kMaxRank, graph, op, op.inputs[0], "input 0", "rank above 6");
  expect_tensor(graph.tensor(op.outputs[0]).shape == input.shape, graph, op, op.outputs[0], "output 0",
                "its shape is not the input's");
  reversed_axes(graph, op);
}

KernelCall lower(const Graph& graph, const Op& op) {
  const Tensor& input = graph.tensor(op.inputs[0]);
  const std::vector<int64_t> strides = byte_strides(input.shape, static_cast<int64_t>(dtype_size(input.dtype)));
  const std::vector<bool> reversed = reversed_axes(graph, op);
  RemapTables tables;
  for (size_t d = 0; d < input.shape.size(); ++d) {
    const int64_t size = input.shape[d];
    tables.add(reversed[d] ? stepped_offsets(size, size - 1, -1, strides[d]) : stepped_offsets(size, 0, 1, strides[d]));
  }
  return remap_call(graph, op, tables);
}

int64_t macs(const Graph&, const Op&) { return 0; }

}  // namespace

extern const OpHandler reverse_v2_handler = {check, lower, macs, /*is_view=*/false, /*in_place=*/nullptr, nullptr};

}  // namespace microaot
