// PACK handler: inputs stacked at any output axis (negative from the end) lower to the concatenation kernel
// with one inner block per input, any element size; options read from the .tflite table; the refusals.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ops/reduce_test_util.h"

namespace microaot {
namespace {

// `count` inputs of `in_shape`, the output last; options {values_count, axis} through the handler's reader.
Graph pack_graph(DType type, int count, const std::vector<int32_t>& in_shape, const std::vector<int32_t>& out_shape,
                 int axis, int values_count) {
  Graph g;
  Op op{OpKind::Pack, 0, 1, {}, {count}, {}};
  for (int i = 0; i < count; ++i) {
    g.tensors.push_back(spec_tensor(("in" + std::to_string(i)).c_str(), type, {in_shape}));
    op.inputs.push_back(i);
  }
  g.tensors.push_back(spec_tensor("out", type, {out_shape}));
  g.ops.push_back(op);
  read_table_options(g, tflite::BuiltinOptions::PackOptions,
                     [&](auto& fbb) { return tflite::CreatePackOptions(fbb, values_count, axis).Union(); });
  return g;
}
Graph pack_graph(DType type, int count, const std::vector<int32_t>& in_shape, const std::vector<int32_t>& out_shape,
                 int axis) {
  return pack_graph(type, count, in_shape, out_shape, axis, count);
}

TEST(PackHandler, InnerAxisInterleavesOneBlockPerInput) {
  const KernelCall call = lower_for_test(pack_graph(DType::kFloat32, 2, {4, 5}, {4, 2, 5}, 1));
  EXPECT_EQ(call.info().function(), "microaot_concatenation");
  EXPECT_EQ(param_text(call).at("outer_count"), "4");
  EXPECT_EQ(param_text(call).at("input_count"), "2");
  EXPECT_EQ(param_arrays(call).at("slice_bytes"), (std::vector<int64_t>{5 * 4, 5 * 4}));
  EXPECT_EQ(call.args, (std::vector<int>{0, 1, 2}));
}

TEST(PackHandler, FirstAndLastAxes) {
  const KernelCall first = lower_for_test(pack_graph(DType::kInt16, 3, {2, 3}, {3, 2, 3}, 0));
  EXPECT_EQ(param_text(first).at("outer_count"), "1");
  EXPECT_EQ(param_arrays(first).at("slice_bytes"), (std::vector<int64_t>{12, 12, 12}));
  const KernelCall last = lower_for_test(pack_graph(DType::kInt8, 3, {2, 3}, {2, 3, 3}, -1));
  EXPECT_EQ(param_text(last).at("outer_count"), "6");
  EXPECT_EQ(param_arrays(last).at("slice_bytes"), (std::vector<int64_t>{1, 1, 1}));
}

TEST(PackHandler, Int64AndRankOneInputs) {
  const KernelCall call = lower_for_test(pack_graph(DType::kInt64, 2, {3}, {3, 2}, 1));
  EXPECT_EQ(param_text(call).at("outer_count"), "3");
  EXPECT_EQ(param_arrays(call).at("slice_bytes"), (std::vector<int64_t>{8, 8}));
}

TEST(PackHandler, Refusals) {
  EXPECT_TRUE(refuses(pack_graph(DType::kFloat32, 2, {4, 5}, {4, 3, 5}, 1), "is not the number of pieces (2)"));
  EXPECT_TRUE(refuses(pack_graph(DType::kFloat32, 2, {4, 5}, {2, 5, 4}, 0),
                      "input 0 'in0' (tensor 0): its shape is not the stacked tensor's without dimension 0"));
  EXPECT_TRUE(refuses(pack_graph(DType::kFloat32, 2, {4, 5}, {4, 2, 5}, 3), "axis 3 is out of range"));
  EXPECT_TRUE(refuses(pack_graph(DType::kFloat32, 2, {4, 5}, {4, 2, 5}, 1, 3), "values_count 3"));
  EXPECT_TRUE(refuses(pack_graph(DType::kBool, 2, {4}, {2, 4}, 0), "output 0"));
  Graph mixed = pack_graph(DType::kFloat32, 2, {4}, {2, 4}, 0);
  mixed.tensors[1].dtype = DType::kInt32;
  EXPECT_TRUE(refuses(mixed, "input 1 'in1' (tensor 1): has a type other than the output's"));
}

}  // namespace
}  // namespace microaot
