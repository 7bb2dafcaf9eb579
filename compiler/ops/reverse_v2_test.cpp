// Tests of the REVERSE_V2 handler: reversed dimensions walk their coordinates backwards, negative axes count
// from the end, and the axes TFLM refuses (non-contiguous, repeated, out of range, not int32).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ops/binary_test_util.h"
#include "ops/remap_test_util.h"

namespace microaot {
namespace {

Graph reverse_graph(DType type, std::vector<int32_t> shape, const std::vector<int32_t>& axes) {
  Graph g;
  const int in = add_tensor(g, type, shape);
  const int axis = add_int32_vector(g, axes);
  const int out = add_tensor(g, type, shape);
  g.ops.push_back(Op{OpKind::ReverseV2, 0, 1, {in, axis}, {out}, NoOptions{}});
  return g;
}

TEST(ReverseV2Handler, NegativeAxisReversesTheLastDimension) {
  // [2,3] int16: byte strides 6, 2; axis -1 is dimension 1.
  const KernelCall call = lower_for_test(reverse_graph(DType::kInt16, {2, 3}, {-1}));
  EXPECT_EQ(call.info().function(), "microaot_remap");
  EXPECT_EQ(remap_tables(call), (std::vector<std::vector<int64_t>>{{0, 6}, {4, 2, 0}}));
}

TEST(ReverseV2Handler, ContiguousAxesReverseTogether) {
  // [2,2,2] float: axes {2, 1} reverse the inner two dimensions of each outer block.
  const KernelCall call = lower_for_test(reverse_graph(DType::kFloat32, {2, 2, 2}, {2, 1}));
  EXPECT_EQ(remap_sources(call), (std::vector<int64_t>{3, 2, 1, 0, 7, 6, 5, 4}));
}

TEST(ReverseV2Handler, RefusesWhatTflmRefuses) {
  EXPECT_NE(check_error(reverse_graph(DType::kInt8, {2, 3, 4}, {0, 2})).find("contiguous"), std::string::npos);
  EXPECT_NE(check_error(reverse_graph(DType::kInt8, {2, 3}, {1, -1})).find("distinct"), std::string::npos);
  EXPECT_NE(check_error(reverse_graph(DType::kInt8, {2, 3}, {2})).find("outside the input's rank"),
            std::string::npos);
  EXPECT_NE(check_error(reverse_graph(DType::kInt8, {1, 1, 1, 1, 1, 1, 1}, {0})).find("rank above 6"),
            std::string::npos);
  Graph int64_axis = reverse_graph(DType::kInt8, {2}, {0});
  int64_axis.tensors[1].dtype = DType::kInt64;
  EXPECT_NE(check_error(int64_axis).find("axis"), std::string::npos);
  Graph runtime_axis = reverse_graph(DType::kInt8, {2}, {0});
  runtime_axis.tensors[1].is_constant = false;
  EXPECT_NE(check_error(runtime_axis).find("axis"), std::string::npos);
}

}  // namespace
}  // namespace microaot
