// Tests of the ADD_N handler: the list call (every input, then the output), TFLM's int8 fixed-point constants
// for the inputs' and output's quantization, and the refusals, naming the tensor.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ops/unary_test_util.h"

namespace microaot {
namespace {

// `count` inputs x0, x1, ... of `in` and the output y of `out`.
Graph add_n_graph(DType type, int count, const TensorSpec& in, const TensorSpec& out) {
  Graph g;
  Op op{OpKind::AddN, 5, 1, {}, {count}, {}};
  for (int i = 0; i < count; ++i) {
    g.tensors.push_back(spec_tensor(("x" + std::to_string(i)).c_str(), type, in));
    op.inputs.push_back(i);
  }
  g.tensors.push_back(spec_tensor("y", type, out));
  g.ops.push_back(op);
  return g;
}

TEST(AddNHandler, Int8ListCallAndTflmConstants) {
  const KernelCall call = lower_for_test(add_n_graph(DType::kInt8, 3, {{2, 3}, 0.05f, 6}, {{2, 3}, 0.1f, -6}));
  EXPECT_EQ(call.info().function(), "microaot_add_n_s8");
  EXPECT_EQ(call.args, (std::vector<int>{0, 1, 2, 3}));
  const auto f = param_text(call);
  EXPECT_EQ(f.at("size"), "6");
  EXPECT_EQ(f.at("input_count"), "3");
  // The fixed-point constants are CUMSUM's (cumsum_test.cpp checks each): here the zero points and the rescale.
  EXPECT_EQ(f.at("input_offset"), "-6");
  EXPECT_EQ(f.at("output_offset"), "-6");
  EXPECT_EQ(f.at("output_shift"), "-19");  // 2 * 0.05f / (2^20 * 0.1f) = 2^-20
  const Graph g = add_n_graph(DType::kInt8, 3, {{2, 3}, 0.05f, 6}, {{2, 3}, 0.1f, -6});
  EXPECT_EQ(op_handler(OpKind::AddN).macs(g, g.ops[0]), 18);
}

TEST(AddNHandler, FloatCallHasNoQuantization) {
  const KernelCall call = lower_for_test(add_n_graph(DType::kFloat32, 2, {{1, 4, 4, 2}}, {{1, 4, 4, 2}}));
  EXPECT_EQ(call.info().function(), "microaot_add_n_f32");
  EXPECT_EQ(call.args, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(param_text(call).at("size"), "32");
  EXPECT_EQ(param_text(call).size(), 2u);
}

TEST(AddNHandler, RefusesWhatTflmRefuses) {
  EXPECT_TRUE(refuses(add_n_graph(DType::kFloat32, 1, {{2}}, {{2}}), "expects 2 or more inputs, has 1"));
  EXPECT_TRUE(refuses(add_n_graph(DType::kInt16, 2, {{2}, 0.5f, 0}, {{2}, 0.5f, 0}), "type int16 is not supported"));
  EXPECT_TRUE(refuses(add_n_graph(DType::kInt32, 2, {{2}}, {{2}}), "type int32 is not supported"));
  Graph g = add_n_graph(DType::kFloat32, 3, {{2, 3}}, {{2, 3}});
  g.tensors[2].shape = {1, 3};
  EXPECT_TRUE(refuses(g, "input 2 'x2' (tensor 2): has a shape other than input 0's (no broadcast)"));
  g = add_n_graph(DType::kFloat32, 2, {{2, 3}}, {{2, 3}});
  g.tensors[1].dtype = DType::kInt8;
  EXPECT_TRUE(refuses(g, "'x1' (tensor 1): has a type other than input 0's"));
  g = add_n_graph(DType::kInt8, 2, {{2, 3}, 0.05f, 6}, {{2, 3}, 0.1f, -6});
  g.tensors[1].quant.zero_point = {5};
  EXPECT_TRUE(refuses(g, "'x1' (tensor 1): int8 inputs must share input 0's scale and zero point"));
  EXPECT_TRUE(
      refuses(add_n_graph(DType::kFloat32, 2, {{2, 3}}, {{3, 2}}), "'y' (tensor 2): must have the inputs' shape"));
  EXPECT_TRUE(refuses(add_n_graph(DType::kInt8, 2, {{2}, 1.0f, 0}, {{2}, 1e-6f, 0}),
                      "the input scale is more than 2^19 times the output scale"));
}

}  // namespace
}  // namespace microaot
