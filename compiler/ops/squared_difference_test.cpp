// SQUARED_DIFFERENCE handler: TFLM's constants (inputs on twice the larger scale shifted by 7 for int8 and 0
// for int16, the output multiplier of its square, computed independently in double), the type's range as the
// clamp, and the unquantized types.
#include <gtest/gtest.h>

#include <string>

#include "ops/binary_test_util.h"
#include "ops/lowering_test_util.h"

namespace microaot {
namespace {

Graph squared_difference_graph(DType type, const TensorSpec& a, const TensorSpec& b, const TensorSpec& out) {
  return binary_graph(OpKind::SquaredDifference, type, a, b, out);
}

TEST(SquaredDifferenceHandler, Int8ConstantsMatchIndependentMath) {
  // From Python: 0.05 / 0.1 and 0.02 / 0.1 below one; 0.1^2 / (2^14 * 0.001) = 1342177256 * 2^(-10-31).
  const KernelCall call = lower_for_test(
      squared_difference_graph(DType::kInt8, {{2, 5, 3}, 0.05f, 3}, {{3}, 0.02f, -4}, {{2, 5, 3}, 0.001f, -128}));
  EXPECT_EQ(call.info().function(), "microaot_squared_difference_s8");
  EXPECT_EQ(call.info().params->c_type(), "microaot_add_params_q");
  const auto f = param_text(call);
  EXPECT_EQ(f.at("left_shift"), "7");
  EXPECT_EQ(f.at("input1_offset"), "-3");
  EXPECT_EQ(f.at("input1_multiplier"), "1073741824");
  EXPECT_EQ(f.at("input1_shift"), "0");
  EXPECT_EQ(f.at("input2_offset"), "4");
  EXPECT_EQ(f.at("input2_multiplier"), "1717986854");
  EXPECT_EQ(f.at("input2_shift"), "-2");
  EXPECT_EQ(f.at("output_multiplier"), "1342177256");
  EXPECT_EQ(f.at("output_shift"), "-10");
  EXPECT_EQ(f.at("output_offset"), "-128");
  EXPECT_EQ(f.at("activation_min"), "-128");  // no fused activation: the type's range
  EXPECT_EQ(f.at("activation_max"), "127");
}

TEST(SquaredDifferenceHandler, Int16KeepsItsValuesAndMayShiftLeft) {
  // 0.0008^2 / 0.00002 = 0.032 -> shift -4; a tiny output scale gives a positive shift.
  const auto f = param_text(lower_for_test(
      squared_difference_graph(DType::kInt16, {{4}, 0.0004f, 0}, {{4}, 0.0003f, 0}, {{4}, 0.00002f, 0})));
  EXPECT_EQ(f.at("left_shift"), "0");
  EXPECT_EQ(f.at("input2_multiplier"), "1610612853");
  EXPECT_EQ(f.at("input2_shift"), "-1");
  EXPECT_EQ(f.at("output_multiplier"), "1099511600");
  EXPECT_EQ(f.at("output_shift"), "-4");
  EXPECT_EQ(f.at("activation_min"), "-32768");
  const auto wide = param_text(
      lower_for_test(squared_difference_graph(DType::kInt16, {{4}, 0.5f, 0}, {{4}, 0.5f, 0}, {{4}, 0.01f, 0})));
  EXPECT_EQ(wide.at("output_shift"), "7");  // 1 / 0.01 = 100 = 0.78 * 2^7
}

TEST(SquaredDifferenceHandler, UnquantizedTypesAndRefusals) {
  EXPECT_EQ(lower_for_test(squared_difference_graph(DType::kFloat32, {{4}}, {{4}}, {{4}})).info().function(),
            "microaot_squared_difference_f32");
  EXPECT_EQ(lower_for_test(squared_difference_graph(DType::kInt32, {{4}}, {{1}}, {{4}})).info().params->c_type(),
            "microaot_binary_params");
  EXPECT_NE(check_error(squared_difference_graph(DType::kInt16, {{4}, 0.5f, 2}, {{4}, 0.5f, 0}, {{4}, 0.5f, 0}))
                .find("SQUARED_DIFFERENCE (op 2), input 0 'a' (tensor 0): zero point 2"),
            std::string::npos);
  EXPECT_NE(check_error(squared_difference_graph(DType::kInt64, {{4}}, {{4}}, {{4}})).find("type int64 is not supported"),
            std::string::npos);
}

}  // namespace
}  // namespace microaot
