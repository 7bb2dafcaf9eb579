// DYNAMIC_UPDATE_SLICE handler: the params of the byte-generic kernel for int32 and int64 starts, a scalar
// walked as rank 1, and the refusals of TFLM's Prepare (ranks, sizes, types, the start vector's length).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ops/remap_test_util.h"
#include "ops/unary_test_util.h"

namespace microaot {
namespace {

// Tensors 'operand', 'update', 'starts' (run-time, of `index_type`, one entry per dimension) and 'out'.
Graph dus_graph(DType type, const std::vector<int32_t>& operand, const std::vector<int32_t>& update,
                DType index_type = DType::kInt32) {
  Graph g;
  add_tensor(g, type, operand);
  add_tensor(g, type, update);
  add_tensor(g, index_type, {static_cast<int32_t>(operand.size())});
  add_tensor(g, type, operand);
  g.tensors[0].name = "operand";
  g.tensors[1].name = "update";
  g.tensors[2].name = "starts";
  g.tensors[3].name = "out";
  g.ops.push_back(Op{OpKind::DynamicUpdateSlice, 0, 1, {0, 1, 2}, {3}, {}});
  return g;
}

TEST(DynamicUpdateSliceHandler, Int16WithInt32Starts) {
  const KernelCall call = lower_for_test(dus_graph(DType::kInt16, {1, 6, 6, 2}, {1, 2, 3, 2}));
  EXPECT_EQ(call.info().function(), "microaot_dynamic_update_slice");
  EXPECT_EQ(call.args, (std::vector<int>{0, 1, 2, 3}));
  const auto f = param_text(call);
  EXPECT_EQ(f.at("rank"), "4");
  EXPECT_EQ(f.at("element_bytes"), "2");
  EXPECT_EQ(f.at("index_bytes"), "4");
  EXPECT_EQ(param_arrays(call).at("operand_dims"), (std::vector<int64_t>{1, 6, 6, 2}));
  EXPECT_EQ(param_arrays(call).at("update_dims"), (std::vector<int64_t>{1, 2, 3, 2}));
}

TEST(DynamicUpdateSliceHandler, FloatWithInt64Starts) {
  const auto f = param_text(lower_for_test(dus_graph(DType::kFloat32, {4, 5}, {2, 3}, DType::kInt64)));
  EXPECT_EQ(f.at("element_bytes"), "4");
  EXPECT_EQ(f.at("index_bytes"), "8");
}

TEST(DynamicUpdateSliceHandler, ScalarIsOneElementOfRankOne) {
  const KernelCall call = lower_for_test(dus_graph(DType::kInt32, {}, {}));
  EXPECT_EQ(param_text(call).at("rank"), "1");
  EXPECT_EQ(param_arrays(call).at("operand_dims"), (std::vector<int64_t>{1}));
  EXPECT_EQ(param_arrays(call).at("update_dims"), (std::vector<int64_t>{1}));
}

TEST(DynamicUpdateSliceHandler, Refusals) {
  EXPECT_TRUE(refuses(dus_graph(DType::kInt8, {4, 5}, {2, 6}),
                      "input 1 'update' (tensor 1): dimension 1 is larger than input 0's"));
  EXPECT_TRUE(refuses(dus_graph(DType::kInt8, {4, 5}, {2}), "input 1 'update' (tensor 1): its rank is not input 0's"));
  EXPECT_TRUE(refuses(dus_graph(DType::kInt8, {4, 5}, {2, 3}, DType::kInt16), "input 2 'starts'"));
  EXPECT_TRUE(refuses(dus_graph(DType::kBool, {4, 5}, {2, 3}), "output 0"));
  Graph mixed = dus_graph(DType::kInt8, {4, 5}, {2, 3});
  mixed.tensors[1].dtype = DType::kInt16;
  EXPECT_TRUE(refuses(mixed, "input 1 'update' (tensor 1)"));
  Graph short_starts = dus_graph(DType::kInt8, {4, 5}, {2, 3});
  short_starts.tensors[2].shape = {1};
  EXPECT_TRUE(refuses(short_starts, "input 2 'starts' (tensor 2): must have one entry per dimension of input 0"));
  Graph wrong_out = dus_graph(DType::kInt8, {4, 5}, {2, 3});
  wrong_out.tensors[3].shape = {2, 3};
  EXPECT_TRUE(refuses(wrong_out, "output 0 'out' (tensor 3): its shape is not input 0's"));
}

}  // namespace
}  // namespace microaot
