// PRELU handler: alpha broadcast against the input, TFLM's multipliers in double (expected values from
// Python), the int8 alpha of int16 inputs, and refusals.
#include <gtest/gtest.h>

#include "ops/unary_test_util.h"

namespace microaot {
namespace {

Graph prelu_graph(DType type, DType alpha_type, const TensorSpec& in, const TensorSpec& alpha, const TensorSpec& out) {
  Graph g;
  g.tensors = {spec_tensor("x", type, in), spec_tensor("alpha", alpha_type, alpha), spec_tensor("y", type, out)};
  g.ops.push_back(Op{OpKind::Prelu, 4, 1, {0, 1}, {2}, {}});
  return g;
}

TEST(PreluHandler, Int16TakesAnInt8AlphaAndBroadcastsIt) {
  const KernelCall call = lower_for_test(prelu_graph(DType::kInt16, DType::kInt8, {{2, 3}, 0.001f, 0},
                                                     {{3}, 0.01f, 2}, {{2, 3}, 0.002f, 0}));
  EXPECT_EQ(call.info().function(), "microaot_prelu_s16");
  EXPECT_EQ(call.args, (std::vector<int>{0, 1, 2}));
  const auto f = param_text(call);
  EXPECT_EQ(f.at("identity_multiplier"), "1073741824");  // 0.001 / 0.002 = 1/2
  EXPECT_EQ(f.at("identity_shift"), "0");
  EXPECT_EQ(f.at("alpha_multiplier"), "1374389504");  // 0.001 * 0.01 / 0.002 = 0.005
  EXPECT_EQ(f.at("alpha_shift"), "-7");
  EXPECT_EQ(f.at("alpha_offset"), "-2");
  EXPECT_EQ(f.at("num_dims"), "2");
  EXPECT_EQ(param_arrays(call).at("input2_strides"), (std::vector<int64_t>{0, 1}));
}

TEST(PreluHandler, FloatAndInt8) {
  EXPECT_EQ(lower_for_test(prelu_graph(DType::kFloat32, DType::kFloat32, {{4}}, {{4}}, {{4}})).info().function(),
            "microaot_prelu_f32");
  EXPECT_EQ(lower_for_test(prelu_graph(DType::kInt8, DType::kInt8, {{4}, 0.1f, 1}, {{1}, 0.01f, 0}, {{4}, 0.1f, 1}))
                .info()
                .function(),
            "microaot_prelu_s8");
}

TEST(PreluHandler, RefusesWhatTfliteMicroRefuses) {
  EXPECT_TRUE(refuses(prelu_graph(DType::kInt16, DType::kInt16, {{4}, 0.1f, 0}, {{4}, 0.1f, 0}, {{4}, 0.1f, 0}),
                      "input 1 'alpha' (tensor 1): type int16 is not supported"));
  EXPECT_TRUE(refuses(prelu_graph(DType::kFloat32, DType::kFloat32, {{2, 3}}, {{2}}, {{2, 3}}), "cannot be broadcast"));
  EXPECT_TRUE(refuses(prelu_graph(DType::kInt8, DType::kInt8, {{4}, 0.1f, 1}, {{4}}, {{4}, 0.1f, 1}), "alpha"));
}

}  // namespace
}  // namespace microaot
