// UNPACK handler: one input cut at any axis (negative from the end) lowers to the split kernel with one inner
// block per output, any element size; options read from the .tflite table; the refusals.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ops/reduce_test_util.h"

namespace microaot {
namespace {

// Input 'x' of `in_shape`, `count` outputs of `out_shape`; options {num, axis} through the handler's reader.
Graph unpack_graph(DType type, const std::vector<int32_t>& in_shape, int count, const std::vector<int32_t>& out_shape,
                   int axis, int num) {
  Graph g;
  g.tensors.push_back(spec_tensor("x", type, {in_shape}));
  Op op{OpKind::Unpack, 0, 1, {0}, {}, {}};
  for (int i = 0; i < count; ++i) {
    g.tensors.push_back(spec_tensor(("out" + std::to_string(i)).c_str(), type, {out_shape}));
    op.outputs.push_back(i + 1);
  }
  g.ops.push_back(op);
  read_table_options(g, tflite::BuiltinOptions::UnpackOptions,
                     [&](auto& fbb) { return tflite::CreateUnpackOptions(fbb, num, axis).Union(); });
  return g;
}
Graph unpack_graph(DType type, const std::vector<int32_t>& in_shape, int count, const std::vector<int32_t>& out_shape,
                   int axis) {
  return unpack_graph(type, in_shape, count, out_shape, axis, count);
}

TEST(UnpackHandler, LastAxisTakesOneElementPerOutput) {
  const KernelCall call = lower_for_test(unpack_graph(DType::kFloat32, {2, 5, 3}, 3, {2, 5}, 2));
  EXPECT_EQ(call.info().function(), "microaot_split");
  EXPECT_EQ(param_text(call).at("outer_count"), "10");
  EXPECT_EQ(param_text(call).at("output_count"), "3");
  EXPECT_EQ(param_arrays(call).at("slice_bytes"), (std::vector<int64_t>{4, 4, 4}));
  EXPECT_EQ(call.args, (std::vector<int>{0, 1, 2, 3}));
}

TEST(UnpackHandler, FirstAxisAndNegativeAxis) {
  const KernelCall first = lower_for_test(unpack_graph(DType::kInt16, {3, 4}, 3, {4}, 0));
  EXPECT_EQ(param_text(first).at("outer_count"), "1");
  EXPECT_EQ(param_arrays(first).at("slice_bytes"), (std::vector<int64_t>{8, 8, 8}));
  const KernelCall negative = lower_for_test(unpack_graph(DType::kInt8, {2, 3, 4}, 3, {2, 4}, -2));
  EXPECT_EQ(param_text(negative).at("outer_count"), "2");
  EXPECT_EQ(param_arrays(negative).at("slice_bytes"), (std::vector<int64_t>{4, 4, 4}));
}

TEST(UnpackHandler, Refusals) {
  EXPECT_TRUE(refuses(unpack_graph(DType::kFloat32, {3, 4}, 2, {4}, 0, 2), "is not the number of pieces (2)"));
  EXPECT_TRUE(refuses(unpack_graph(DType::kFloat32, {3, 4}, 3, {4}, 0, 2), "num 2 is not the number of outputs (3)"));
  EXPECT_TRUE(refuses(unpack_graph(DType::kFloat32, {3, 4}, 3, {3}, 0),
                      "output 0 'out0' (tensor 1): its shape is not the stacked tensor's without dimension 0"));
  EXPECT_TRUE(refuses(unpack_graph(DType::kFloat32, {3, 4}, 3, {4}, -3), "axis -3 is out of range"));
  EXPECT_TRUE(refuses(unpack_graph(DType::kInt64, {3, 4}, 3, {4}, 0), "input 0"));
  Graph mixed = unpack_graph(DType::kFloat32, {2, 4}, 2, {4}, 0);
  mixed.tensors[2].dtype = DType::kInt32;
  EXPECT_TRUE(refuses(mixed, "output 1 'out1' (tensor 2): has a type other than input 0's"));
}

}  // namespace
}  // namespace microaot
