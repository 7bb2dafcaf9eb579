// RELU and RELU6 handlers: RELU's rescale and its clamp at the output zero point, RELU6's clamp in the input's
// quantization (TFLM's behaviour), and the int16 zero point rules (expected values from Python).
#include <gtest/gtest.h>

#include "ops/unary_test_util.h"

namespace microaot {
namespace {

TEST(ReluHandler, Int8RescalesAndClampsAtTheOutputZeroPoint) {
  const KernelCall call = lower_for_test(unary_graph(OpKind::Relu, DType::kInt8, {{8}, 0.05f, 3}, {{8}, 0.025f, 10}));
  EXPECT_EQ(call.info().function(), "microaot_relu_s8");
  const auto f = param_text(call);
  EXPECT_EQ(f.at("input_offset"), "-3");
  EXPECT_EQ(f.at("output_multiplier"), "1073741824");  // 2.0 = 2^30 * 2^(2 - 31)
  EXPECT_EQ(f.at("output_shift"), "2");
  EXPECT_EQ(f.at("output_offset"), "10");
  EXPECT_EQ(f.at("activation_min"), "10");
  EXPECT_EQ(f.at("activation_max"), "127");
}

TEST(ReluHandler, Int16IsSymmetric) {
  const KernelCall call = lower_for_test(unary_graph(OpKind::Relu, DType::kInt16, {{8}, 0.001f, 0}, {{8}, 0.001f, 0}));
  EXPECT_EQ(call.info().function(), "microaot_relu_s16");
  EXPECT_EQ(param_text(call).at("activation_max"), "32767");
  EXPECT_TRUE(refuses(unary_graph(OpKind::Relu, DType::kInt16, {{8}, 0.001f, 5}, {{8}, 0.001f, 0}),
                      "int16 tensors must be symmetric"));
}

TEST(Relu6Handler, ClampsInTheInputQuantization) {
  // 6 / 0.05f = 120 steps above the input zero point 3; the output's parameters play no part.
  const KernelCall call = lower_for_test(unary_graph(OpKind::Relu6, DType::kInt8, {{8}, 0.05f, 3}, {{8}, 0.5f, -7}));
  EXPECT_EQ(call.info().function(), "microaot_relu6_s8");
  EXPECT_EQ(call.info().params->c_type(), "microaot_clamp_params_q");
  const auto f = param_text(call);
  EXPECT_EQ(f.at("activation_min"), "3");
  EXPECT_EQ(f.at("activation_max"), "123");
  // TFLM checks no int16 zero point for RELU6.
  const KernelCall s16 = lower_for_test(unary_graph(OpKind::Relu6, DType::kInt16, {{8}, 0.001f, 4}, {{8}, 0.001f, 4}));
  EXPECT_EQ(param_text(s16).at("activation_max"), "6004");
}

TEST(ReluHandler, FloatAndRefusals) {
  EXPECT_EQ(lower_for_test(unary_graph(OpKind::Relu, DType::kFloat32, {{3}}, {{3}})).info().function(),
            "microaot_relu_f32");
  EXPECT_TRUE(refuses(unary_graph(OpKind::Relu6, DType::kInt32, {{3}}, {{3}}), "type int32 is not supported"));
  EXPECT_TRUE(refuses(unary_graph(OpKind::Relu, DType::kInt8, {{3}}, {{3}}), "input 0"));  // unquantized int8
}

}  // namespace
}  // namespace microaot
