// GATHER and EMBEDDING_LOOKUP handlers: the [batch, outer, axis, inner] view for any axis and batch_dims, the
// row view of a lookup, constant indices checked at compile time (run-time ones go to the kernel), refusals.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ops/reduce_test_util.h"
#include "ops/remap_test_util.h"

namespace microaot {
namespace {

// Tensors 'x' (type), 'idx' (int32, constant when `values` is given) and 'out'.
Graph gather_graph(DType type, const std::vector<int32_t>& in_shape, const std::vector<int32_t>& idx_shape,
                   const std::vector<int32_t>& out_shape, int axis, int batch_dims,
                   const std::vector<int32_t>& values = {}) {
  Graph g = indexed_graph(type, in_shape, idx_shape, out_shape, values);
  g.ops.push_back(Op{OpKind::Gather, 0, 1, {0, 1}, {2}, {}});
  read_table_options(g, tflite::BuiltinOptions::GatherOptions,
                     [&](auto& fbb) { return tflite::CreateGatherOptions(fbb, axis, batch_dims).Union(); });
  return g;
}

TEST(GatherHandler, InnerAxisWithMatrixIndices) {
  const KernelCall call =
      lower_for_test(gather_graph(DType::kInt8, {2, 6, 3}, {2, 2}, {2, 2, 2, 3}, 1, 0, {5, 1, 0, 3}));
  EXPECT_EQ(call.info().function(), "microaot_gather");
  EXPECT_TRUE(call.info().returns_status());
  const auto f = param_text(call);
  EXPECT_EQ(f.at("batch_count"), "1");
  EXPECT_EQ(f.at("outer_count"), "2");
  EXPECT_EQ(f.at("axis_size"), "6");
  EXPECT_EQ(f.at("coord_count"), "4");
  EXPECT_EQ(f.at("inner_bytes"), "3");
  EXPECT_EQ(call.args, (std::vector<int>{0, 1, 2}));
}

TEST(GatherHandler, BatchDimsAndNegativeAxisWithRunTimeIndices) {
  // input [2,3,5,4] float, indices [2,7], axis -2 (= 2), batch_dims -1 (= 1) -> [2,3,7,4].
  const KernelCall call = lower_for_test(gather_graph(DType::kFloat32, {2, 3, 5, 4}, {2, 7}, {2, 3, 7, 4}, -2, -1));
  const auto f = param_text(call);
  EXPECT_EQ(f.at("batch_count"), "2");
  EXPECT_EQ(f.at("outer_count"), "3");
  EXPECT_EQ(f.at("axis_size"), "5");
  EXPECT_EQ(f.at("coord_count"), "7");
  EXPECT_EQ(f.at("inner_bytes"), "16");
}

TEST(GatherHandler, ScalarIndexDropsTheAxis) {
  const KernelCall call = lower_for_test(gather_graph(DType::kFloat32, {5, 4}, {}, {4}, 0, 0, {4}));
  EXPECT_EQ(param_text(call).at("coord_count"), "1");
  EXPECT_EQ(param_text(call).at("inner_bytes"), "16");
}

TEST(GatherHandler, Refusals) {
  EXPECT_TRUE(refuses(gather_graph(DType::kInt8, {5, 4}, {3}, {3, 4}, 0, 0, {0, 5, 1}),
                      "input 1 'idx' (tensor 1): index 5 (entry 1) is outside [0, 5)"));
  EXPECT_TRUE(refuses(gather_graph(DType::kInt8, {5, 4}, {1}, {1, 4}, 0, 0, {-1}), "index -1"));
  EXPECT_TRUE(refuses(gather_graph(DType::kInt8, {5, 4}, {3}, {4, 3}, 0, 0), "its shape is not input[:axis]"));
  EXPECT_TRUE(refuses(gather_graph(DType::kInt8, {5, 4}, {3}, {3, 4}, 2, 0), "axis 2 is out of range"));
  EXPECT_TRUE(refuses(gather_graph(DType::kInt8, {2, 4}, {2, 3}, {2, 3}, 0, 1), "batch_dims 1"));
  EXPECT_TRUE(refuses(gather_graph(DType::kInt8, {2, 4}, {3, 3}, {2, 3}, 1, 1), "batch dimension 0"));
  EXPECT_TRUE(refuses(gather_graph(DType::kInt16, {5, 4}, {3}, {3, 4}, 0, 0), "input 0"));
  Graph int64_indices = gather_graph(DType::kInt8, {5, 4}, {3}, {3, 4}, 0, 0);
  int64_indices.tensors[1].dtype = DType::kInt64;
  EXPECT_TRUE(refuses(int64_indices, "input 1 'idx' (tensor 1)"));
}

// Tensors 'ids' (int32 [n], constant when `values` is given), 'table' (type) and 'out'.
Graph lookup_graph(DType type, int32_t n, const std::vector<int32_t>& table_shape,
                   const std::vector<int32_t>& out_shape, const std::vector<int32_t>& values = {}) {
  Graph g = gather_graph(type, table_shape, {n}, out_shape, 0, 0, values);
  std::swap(g.tensors[0], g.tensors[1]);
  g.ops[0] = Op{OpKind::EmbeddingLookup, 0, 1, {0, 1}, {2}, NoOptions{}};
  return g;
}

TEST(EmbeddingLookupHandler, RowsOfTheTable) {
  const KernelCall call = lower_for_test(lookup_graph(DType::kFloat32, 3, {6, 7}, {3, 7}));
  EXPECT_EQ(call.info().function(), "microaot_gather");
  const auto f = param_text(call);
  EXPECT_EQ(f.at("batch_count"), "1");
  EXPECT_EQ(f.at("outer_count"), "1");
  EXPECT_EQ(f.at("axis_size"), "6");
  EXPECT_EQ(f.at("coord_count"), "3");
  EXPECT_EQ(f.at("inner_bytes"), "28");
  EXPECT_EQ(call.args, (std::vector<int>{1, 0, 2}));  // the table first, as the kernel takes it
  EXPECT_EQ(param_text(lower_for_test(lookup_graph(DType::kInt8, 2, {4, 3, 2}, {2, 3, 2}))).at("inner_bytes"), "6");
}

TEST(EmbeddingLookupHandler, Refusals) {
  EXPECT_TRUE(refuses(lookup_graph(DType::kInt8, 2, {4, 3}, {2, 3}, {1, 4}), "index 4 (entry 1) is outside [0, 4)"));
  EXPECT_TRUE(refuses(lookup_graph(DType::kInt8, 2, {4}, {2}), "rank 2 or more"));
  EXPECT_TRUE(refuses(lookup_graph(DType::kInt8, 2, {4, 3}, {3, 3}), "its shape is not [ids]"));
  Graph hybrid = lookup_graph(DType::kInt8, 2, {4, 3}, {2, 3});
  hybrid.tensors[2].dtype = DType::kFloat32;
  EXPECT_TRUE(refuses(hybrid, "an int8 table with a float32 output (the hybrid, dequantizing lookup) is not supported"));
  Graph mixed = lookup_graph(DType::kFloat32, 2, {4, 3}, {2, 3});
  mixed.tensors[2].dtype = DType::kInt8;
  EXPECT_TRUE(refuses(mixed, "output 0 'out' (tensor 2): has a type other than input 1's"));
}

}  // namespace
}  // namespace microaot
