// MUL handler: the stem per type, TFLM's multiplier of the product of scales (expected values computed
// independently, in double from the float scales), broadcast params, activation range and refusals.
#include <gtest/gtest.h>

#include <string>

#include "ops/binary_test_util.h"
#include "ops/lowering_test_util.h"

namespace microaot {
namespace {

Graph mul_graph(DType type, const TensorSpec& a, const TensorSpec& b, const TensorSpec& out,
                Activation act = Activation::kNone) {
  return binary_graph(OpKind::Mul, type, a, b, out, act);
}

TEST(MulHandler, Int8ConstantsMatchIndependentDoubleMath) {
  // MUL/int8_1x8x8x3_same_shape scales; expected values from Python (frexp, mantissa rounded half away).
  const KernelCall call = lower_for_test(mul_graph(DType::kInt8, {{1, 8, 8, 3}, 0.04813913255929947f, 11},
                                                   {{1, 8, 8, 3}, 0.02001652494072914f, 7},
                                                   {{1, 8, 8, 3}, 0.023615600541234016f, 8}));
  EXPECT_EQ(call.info().function(), "microaot_mul_s8");
  EXPECT_EQ(call.info().params->c_type(), "microaot_mul_params_q");
  EXPECT_EQ(call.source, "kernels/portable/mul_s8.c");
  EXPECT_EQ(call.args, (std::vector<int>{0, 1, 2}));
  const auto f = param_text(call);
  EXPECT_EQ(f.at("input1_offset"), "-11");
  EXPECT_EQ(f.at("input2_offset"), "-7");
  EXPECT_EQ(f.at("output_multiplier"), "1401967017");
  EXPECT_EQ(f.at("output_shift"), "-4");
  EXPECT_EQ(f.at("output_offset"), "8");
  EXPECT_EQ(f.at("activation_min"), "-128");
  EXPECT_EQ(f.at("activation_max"), "127");
  EXPECT_EQ(f.at("num_dims"), "0");
  EXPECT_EQ(f.at("flat_size"), "192");
}

TEST(MulHandler, Int16IsSymmetric) {
  const KernelCall call = lower_for_test(mul_graph(DType::kInt16, {{1, 8, 8, 3}, 0.00039000489050522447f, 0},
                                                   {{1, 8, 8, 3}, 0.0002499328984413296f, 0},
                                                   {{1, 8, 8, 3}, 0.00029753262060694396f, 0}, Activation::kRelu));
  EXPECT_EQ(call.info().function(), "microaot_mul_s16");
  const auto f = param_text(call);
  EXPECT_EQ(f.at("output_multiplier"), "1440849795");
  EXPECT_EQ(f.at("output_shift"), "-11");
  EXPECT_EQ(f.at("activation_min"), "0");
  EXPECT_EQ(f.at("activation_max"), "32767");
  const std::string error = check_error(mul_graph(DType::kInt16, {{4}, 0.1f, 0}, {{4}, 0.1f, 2}, {{4}, 0.1f, 0}));
  EXPECT_NE(error.find("MUL (op 2), input 1 'b' (tensor 1): zero point 2: int16 tensors must be symmetric"),
            std::string::npos)
      << error;
}

TEST(MulHandler, FloatBroadcastsWithTheActivationClamp) {
  const KernelCall call =
      lower_for_test(mul_graph(DType::kFloat32, {{1, 4, 4, 6}}, {{6}}, {{1, 4, 4, 6}}, Activation::kRelu6));
  EXPECT_EQ(call.info().function(), "microaot_mul_f32");
  EXPECT_EQ(call.info().params->c_type(), "microaot_binary_params_f32");
  const auto f = param_text(call);
  EXPECT_EQ(f.at("num_dims"), "2");
  EXPECT_EQ(f.at("activation_min"), "0x0p+0f");
  EXPECT_EQ(f.at("activation_max"), "0x1.8p+2f");
  const auto arrays = param_arrays(call);
  EXPECT_EQ(arrays.at("output_shape"), (std::vector<int64_t>{16, 6}));
  EXPECT_EQ(arrays.at("input2_strides"), (std::vector<int64_t>{0, 1}));
}

TEST(MulHandler, RefusesWhatTheKernelsCannotRun) {
  EXPECT_NE(check_error(mul_graph(DType::kInt32, {{4}}, {{4}}, {{4}})).find("type int32 is not supported"),
            std::string::npos);
  EXPECT_NE(check_error(mul_graph(DType::kFloat32, {{2, 3}}, {{4}}, {{2, 3}})).find("cannot be broadcast"),
            std::string::npos);
  EXPECT_NE(check_error(mul_graph(DType::kInt8, {{4}, 0.1f, 200}, {{4}, 0.1f, 0}, {{4}, 0.1f, 0}))
                .find("zero point 200 is outside the range of int8"),
            std::string::npos);
  Graph versioned = mul_graph(DType::kFloat32, {{4}}, {{4}}, {{4}});
  versioned.ops[0].version = 8;
  EXPECT_NE(check_error(versioned).find("version 8 is not supported"), std::string::npos);
}

TEST(MulHandler, MayWriteOverAnInputThatIsNotBroadcast) {
  const Graph g = mul_graph(DType::kFloat32, {{2, 3}}, {{3}}, {{2, 3}});
  const std::vector<InPlaceOption> options = op_handler(OpKind::Mul).in_place(g, g.ops[0]);
  ASSERT_EQ(options.size(), 1u);
  EXPECT_EQ(options[0].input, 0);
  EXPECT_EQ(options[0].variant, KernelVariant::kPlain);
  EXPECT_EQ(op_handler(OpKind::Mul).macs(g, g.ops[0]), 6);
}

}  // namespace
}  // namespace microaot
