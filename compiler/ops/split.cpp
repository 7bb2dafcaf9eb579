// SPLIT and SPLIT_V: one tensor cut along a constant axis into consecutive pieces, as TFLite Micro's kernels
// (split.cc, split_v.cc): float32, int8, int16 or int32, values copied as they are. SPLIT's pieces are equal;
// SPLIT_V's sizes are the outputs' (TFLM reads them there, not from size_splits, which when constant must
// agree, one -1 standing for the rest). Both lower to the byte-generic split kernel.
#include <string>
#include <vector>

#include "ops/join_split.h"
#include "ops/op_checks.h"
#include "ops/op_handler.h"
#include "ops/reduce_common.h"
#include "ops/remap_common.h"

namespace microaot {
namespace {

// The operand positions of the two operators.
struct SplitLayout {
  int input;
  int axis;
};
constexpr SplitLayout kSplit{1, 0};    // SPLIT(axis, input)
constexpr SplitLayout kSplitV{0, 2};   // SPLIT_V(input, size_splits, axis)

size_t split_axis(const Graph& graph, const Op& op, SplitLayout layout) {
  const std::vector<int32_t> axis = constant_axis_values(graph, op, layout.axis);
  expect_tensor(axis.size() == 1, graph, op, op.inputs[static_cast<size_t>(layout.axis)],
                "input " + std::to_string(layout.axis), "must hold exactly one axis");
  const int rank = static_cast<int>(graph.tensor(input_id(graph, op, layout.input)).shape.size());
  return static_cast<size_t>(resolve_axis(graph, op, axis[0], rank));
}

// Every output has the input's type and dimensions except along the axis, where the outputs' sizes add up to
// the input's. Returns those sizes.
std::vector<int64_t> check_pieces(const Graph& graph, const Op& op, SplitLayout layout, size_t axis) {
  expect_op(!op.outputs.empty(), graph, op, "has no outputs");
  const int in = input_id(graph, op, layout.input);
  const std::string in_role = "input " + std::to_string(layout.input);
  const Tensor& input = graph.tensor(in);
  expect_dtype(graph, op, in, in_role, {DType::kFloat32, DType::kInt8, DType::kInt16, DType::kInt32});
  expect_known_shape(graph, op, in, in_role);
  expect_dims_product_fits(graph, op, in, in_role);
  expect_outputs_typed_as_input(graph, op, layout.input);
  std::vector<int64_t> sizes;
  int64_t sum = 0;
  for (size_t i = 0; i < op.outputs.size(); ++i) {
    std::vector<int32_t> shape = graph.tensor(op.outputs[i]).shape;
    const bool same_rank = shape.size() == input.shape.size();
    if (same_rank) shape[axis] = input.shape[axis];
    expect_tensor(same_rank && shape == input.shape, graph, op, op.outputs[i], "output " + std::to_string(i),
                  "its shape is not the input's but along axis " + std::to_string(axis));
    sizes.push_back(graph.tensor(op.outputs[i]).shape[axis]);
    sum += sizes.back();
  }
  expect_op(sum == input.shape[axis], graph, op,
            "the outputs' sizes along axis " + std::to_string(axis) + " do not add up to the input's");
  return sizes;
}

void check_split(const Graph& graph, const Op& op) {
  expect_version(graph, op, 4);
  expect_arity(graph, op, 2, 2, static_cast<int>(op.outputs.size()));
  const size_t axis = split_axis(graph, op, kSplit);
  const std::vector<int64_t> sizes = check_pieces(graph, op, kSplit, axis);
  for (size_t i = 1; i < sizes.size(); ++i) {
    expect_tensor(sizes[i] == sizes[0], graph, op, op.outputs[i], "output " + std::to_string(i),
                  "SPLIT cuts into equal pieces: its size along the axis differs from output 0's");
  }
}

// A constant size_splits must name the outputs' sizes, one -1 allowed for what the others leave.
void check_size_splits(const Graph& graph, const Op& op, const std::vector<int64_t>& sizes) {
  const int id = input_id(graph, op, 1);
  if (!graph.tensor(id).is_constant) return;  // TFLM takes the sizes from the outputs
  const std::vector<int64_t> splits = constant_ints(graph, op, id, "size_splits");
  expect_tensor(splits.size() == sizes.size(), graph, op, id, "size_splits", "must hold one size per output");
  int unknown = 0;
  for (size_t i = 0; i < splits.size(); ++i) {
    unknown += splits[i] == -1 ? 1 : 0;
    expect_tensor(unknown <= 1 && (splits[i] == -1 || splits[i] == sizes[i]), graph, op, id, "size_splits",
                  "entry " + std::to_string(i) + " (" + std::to_string(splits[i]) + ") is not output " +
                      std::to_string(i) + "'s size along the axis (" + std::to_string(sizes[i]) +
                      ") nor the one -1");
  }
}

void check_split_v(const Graph& graph, const Op& op) {
  expect_version(graph, op, 3);
  expect_arity(graph, op, 3, 3, static_cast<int>(op.outputs.size()));
  const size_t axis = split_axis(graph, op, kSplitV);
  check_size_splits(graph, op, check_pieces(graph, op, kSplitV, axis));
}

KernelCall lower_split(const Graph& graph, const Op& op) {
  return split_call(graph, op, kSplit.input, split_axis(graph, op, kSplit));
}

KernelCall lower_split_v(const Graph& graph, const Op& op) {
  return split_call(graph, op, kSplitV.input, split_axis(graph, op, kSplitV));
}

int64_t macs(const Graph&, const Op&) { return 0; }

}  // namespace

extern const OpHandler split_handler = {check_split, lower_split, macs};
extern const OpHandler split_v_handler = {check_split_v, lower_split_v, macs};

}  // namespace microaot
