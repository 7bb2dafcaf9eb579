// SPLIT and SPLIT_V handlers: a constant axis (negative from the end) and the outputs' sizes lower to the split
// kernel's byte ranges; SPLIT_V's constant size_splits with one -1; the refusals.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "ops/reduce_test_util.h"
#include "ops/remap_test_util.h"

namespace microaot {
namespace {

// Tensors: 0 'x', 1 the axis, 2 size_splits (SPLIT_V only), then the outputs.
Graph split_graph(OpKind kind, DType type, const std::vector<int32_t>& in_shape, int32_t axis,
                  const std::vector<std::vector<int32_t>>& out_shapes, const std::vector<int32_t>& size_splits = {}) {
  Graph g;
  g.tensors = {spec_tensor("x", type, {in_shape})};
  add_int32_vector(g, {axis});
  Op op{kind, 0, 1, {1, 0}, {}, {}};
  if (kind == OpKind::SplitV) {
    add_int32_vector(g, size_splits);
    op.inputs = {0, 2, 1};
  }
  for (size_t i = 0; i < out_shapes.size(); ++i) {
    op.outputs.push_back(static_cast<int>(g.tensors.size()));
    g.tensors.push_back(spec_tensor(("out" + std::to_string(i)).c_str(), type, {out_shapes[i]}));
  }
  g.ops.push_back(op);
  return g;
}

TEST(SplitHandler, EqualPiecesAlongAnInnerAxis) {
  const KernelCall call = lower_for_test(split_graph(OpKind::Split, DType::kInt16, {1, 4, 6, 2}, 2,
                                                     {{1, 4, 2, 2}, {1, 4, 2, 2}, {1, 4, 2, 2}}));
  EXPECT_EQ(call.info().function(), "microaot_split");
  EXPECT_EQ(param_text(call).at("outer_count"), "4");
  EXPECT_EQ(param_text(call).at("output_count"), "3");
  EXPECT_EQ(param_arrays(call).at("slice_bytes"), (std::vector<int64_t>{8, 8, 8}));
  EXPECT_EQ(call.args, (std::vector<int>{0, 2, 3, 4}));
}

TEST(SplitHandler, NegativeAxisCountsFromTheEnd) {
  const KernelCall call =
      lower_for_test(split_graph(OpKind::Split, DType::kFloat32, {6, 4}, -2, {{3, 4}, {3, 4}}));
  EXPECT_EQ(param_text(call).at("outer_count"), "1");
  EXPECT_EQ(param_arrays(call).at("slice_bytes"), (std::vector<int64_t>{48, 48}));
}

TEST(SplitHandler, Refusals) {
  EXPECT_TRUE(refuses(split_graph(OpKind::Split, DType::kInt8, {6, 4}, 0, {{2, 4}, {4, 4}}), "equal pieces"));
  EXPECT_TRUE(refuses(split_graph(OpKind::Split, DType::kInt8, {6, 4}, 0, {{2, 4}, {2, 4}}), "do not add up"));
  EXPECT_TRUE(refuses(split_graph(OpKind::Split, DType::kInt8, {6, 4}, 2, {{3, 4}, {3, 4}}), "axis 2 is out of range"));
  EXPECT_TRUE(refuses(split_graph(OpKind::Split, DType::kInt8, {6, 4}, 0, {{3, 4}, {3, 3}}),
                      "output 1 'out1' (tensor 3): its shape is not the input's but along axis 0"));
  Graph runtime_axis = split_graph(OpKind::Split, DType::kInt8, {6, 4}, 0, {{3, 4}, {3, 4}});
  runtime_axis.tensors[1].is_constant = false;
  EXPECT_TRUE(refuses(runtime_axis, "the axis must be a constant"));
  EXPECT_TRUE(refuses(split_graph(OpKind::Split, DType::kBool, {6, 4}, 0, {{3, 4}, {3, 4}}), "input 1"));
}

TEST(SplitHandler, AnEmptyInputMayNotHideHugeDimensions) {
  // Zero bytes, yet its outer count would be 2^31 - 1.
  const int32_t big = INT32_MAX;
  EXPECT_TRUE(refuses(split_graph(OpKind::Split, DType::kInt8, {big, 2, 0}, 1, {{big, 1, 0}, {big, 1, 0}}),
                      "input 1 'x' (tensor 0): its non-zero dimensions hold 2^31 bytes or more"));
  EXPECT_EQ(check_error(split_graph(OpKind::Split, DType::kInt8, {5, 2, 0}, 1, {{5, 1, 0}, {5, 1, 0}})), "");
}

TEST(SplitVHandler, SizesComeFromTheOutputsWithOneMinusOne) {
  const KernelCall call = lower_for_test(
      split_graph(OpKind::SplitV, DType::kInt8, {1, 8, 3}, 1, {{1, 2, 3}, {1, 5, 3}, {1, 1, 3}}, {2, -1, 1}));
  EXPECT_EQ(param_text(call).at("outer_count"), "1");
  EXPECT_EQ(param_arrays(call).at("slice_bytes"), (std::vector<int64_t>{6, 15, 3}));
  EXPECT_EQ(call.args, (std::vector<int>{0, 3, 4, 5}));
  const KernelCall last = lower_for_test(
      split_graph(OpKind::SplitV, DType::kFloat32, {4, 6}, -1, {{4, 1}, {4, 5}}, {1, 5}));
  EXPECT_EQ(param_text(last).at("outer_count"), "4");
  EXPECT_EQ(param_arrays(last).at("slice_bytes"), (std::vector<int64_t>{4, 20}));
}

TEST(SplitVHandler, Refusals) {
  EXPECT_TRUE(refuses(split_graph(OpKind::SplitV, DType::kInt8, {4, 6}, 0, {{1, 6}, {3, 6}}, {-1, -1}),
                      "size_splits"));
  EXPECT_TRUE(refuses(split_graph(OpKind::SplitV, DType::kInt8, {4, 6}, 0, {{1, 6}, {3, 6}}, {2, 2}),
                      "entry 0 (2) is not output 0's size along the axis (1)"));
  EXPECT_TRUE(refuses(split_graph(OpKind::SplitV, DType::kInt8, {4, 6}, 0, {{1, 6}, {3, 6}}, {1}),
                      "one size per output"));
  EXPECT_TRUE(refuses(split_graph(OpKind::SplitV, DType::kInt8, {4, 6}, 0, {{1, 6}, {2, 6}}, {1, -1}),
                      "do not add up"));
  Graph runtime_sizes = split_graph(OpKind::SplitV, DType::kInt8, {4, 6}, 0, {{1, 6}, {3, 6}}, {7, 7});
  runtime_sizes.tensors[2].is_constant = false;  // TFLM reads the sizes from the outputs
  EXPECT_EQ(check_error(runtime_sizes), "");
}

}  // namespace
}  // namespace microaot
