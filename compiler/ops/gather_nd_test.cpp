// GATHER_ND handler: per indexed dimension its size and byte stride, the block size, constant index tuples
// checked entry by entry at compile time, and the refusals.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ops/remap_test_util.h"
#include "ops/unary_test_util.h"

namespace microaot {
namespace {

// Tensors 'x' (type), 'idx' (int32, constant when `values` is given) and 'out'.
Graph gather_nd_graph(DType type, const std::vector<int32_t>& in_shape, const std::vector<int32_t>& idx_shape,
                      const std::vector<int32_t>& out_shape, const std::vector<int32_t>& values = {}) {
  Graph g = indexed_graph(type, in_shape, idx_shape, out_shape, values);
  g.ops.push_back(Op{OpKind::GatherNd, 0, 1, {0, 1}, {2}, NoOptions{}});
  return g;
}

TEST(GatherNdHandler, FullDepthPicksElements) {
  const KernelCall call = lower_for_test(gather_nd_graph(DType::kInt8, {4, 5}, {3, 2}, {3}, {0, 1, 3, 4, 2, 2}));
  EXPECT_EQ(call.info().function(), "microaot_gather_nd");
  EXPECT_TRUE(call.info().returns_status());
  const auto f = param_text(call);
  EXPECT_EQ(f.at("slice_count"), "3");
  EXPECT_EQ(f.at("index_depth"), "2");
  EXPECT_EQ(f.at("slice_bytes"), "1");
  EXPECT_EQ(param_arrays(call).at("dims"), (std::vector<int64_t>{4, 5}));
  EXPECT_EQ(param_arrays(call).at("strides"), (std::vector<int64_t>{5, 1}));
}

TEST(GatherNdHandler, PartialDepthPicksBlocksWithRunTimeIndices) {
  // float [3,4,2], indices [2,2,1] -> [2,2,4,2]: each tuple picks a [4,2] block of 32 bytes.
  const KernelCall call = lower_for_test(gather_nd_graph(DType::kFloat32, {3, 4, 2}, {2, 2, 1}, {2, 2, 4, 2}));
  const auto f = param_text(call);
  EXPECT_EQ(f.at("slice_count"), "4");
  EXPECT_EQ(f.at("index_depth"), "1");
  EXPECT_EQ(f.at("slice_bytes"), "32");
  EXPECT_EQ(param_arrays(call).at("dims"), (std::vector<int64_t>{3}));
  EXPECT_EQ(param_arrays(call).at("strides"), (std::vector<int64_t>{32}));
}

TEST(GatherNdHandler, Refusals) {
  EXPECT_TRUE(refuses(gather_nd_graph(DType::kInt8, {4, 5}, {2, 2}, {2}, {0, 1, 0, 5}),
                      "input 1 'idx' (tensor 1): index 5 (entry 3) is outside [0, 5)"));
  EXPECT_TRUE(refuses(gather_nd_graph(DType::kInt8, {4, 5}, {1, 2}, {1}, {-1, 0}), "index -1"));
  EXPECT_TRUE(refuses(gather_nd_graph(DType::kInt8, {4, 5}, {1, 3}, {1}), "exceeds the input's rank"));
  EXPECT_TRUE(refuses(gather_nd_graph(DType::kInt8, {4, 5}, {3, 1}, {3}), "indices[:-1] + input[depth:]"));
  EXPECT_TRUE(refuses(gather_nd_graph(DType::kInt8, {4, 5}, {}, {4, 5}), "at least a vector"));
  EXPECT_TRUE(refuses(gather_nd_graph(DType::kInt16, {4, 5}, {3, 2}, {3}), "input 0"));
}

}  // namespace
}  // namespace microaot
