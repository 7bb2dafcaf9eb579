// Math kernels: hand-computed ABS and RSQRT cases, agreement of the quantized ABS and RSQRT with the real
// function over every int8 input, the float functions against the C library, round-half-to-even, LOGICAL_NOT.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "microaot/kernels/math.h"
#include "unary_test_util.h"

namespace {

using unary_test::rescale_params;

TEST(AbsS8, OffsetsAndSaturates) {
  // |x - 3| - 10 with a multiplier of exactly 1.
  const microaot_unary_params_q p = rescale_params(4, 3, 1.0, -10, -128, 127);
  const std::vector<int8_t> in = {3, 10, -5, -128};
  std::vector<int8_t> out(4);
  microaot_abs_s8(&p, in.data(), out.data());
  EXPECT_EQ(out, (std::vector<int8_t>{-10, -3, -2, 121}));
}

TEST(AbsS8, FollowsTheRealFunctionOverAllInputs) {
  const double si = 0.05, so = 0.03;
  const microaot_unary_params_q p = rescale_params(256, 7, si / so, -20, -128, 127);
  const std::vector<int8_t> in = unary_test::all_int8();
  std::vector<int8_t> out(in.size());
  microaot_abs_s8(&p, in.data(), out.data());
  for (size_t k = 0; k < in.size(); ++k) {
    const double want = std::clamp(std::round(std::fabs(si * (in[k] - 7)) / so) - 20, -128.0, 127.0);
    ASSERT_NEAR(out[k], want, 1.0) << int(in[k]);
  }
}

TEST(AbsS16, TheMostNegativeValueSaturates) {
  const microaot_unary_params_q p = rescale_params(3, 0, 1.0, 0, -32768, 32767);
  const std::vector<int16_t> in = {-32768, -5, 7};
  std::vector<int16_t> out(3);
  microaot_abs_s16(&p, in.data(), out.data());
  EXPECT_EQ(out, (std::vector<int16_t>{32767, 5, 7}));
}

TEST(RsqrtS8, FollowsTheRealFunctionAndGivesTheMaximumAtZero) {
  const double si = 0.02, so = 0.1;
  const microaot_unary_params_q p = rescale_params(256, -128, 1.0 / (std::sqrt(si) * so), -128, -128, 127);
  const std::vector<int8_t> in = unary_test::all_int8();
  std::vector<int8_t> out(in.size());
  microaot_rsqrt_s8(&p, in.data(), out.data());
  EXPECT_EQ(out[0], 127);  // x at the zero point
  for (size_t k = 1; k < in.size(); ++k) {
    const double want = std::clamp(std::round(1.0 / std::sqrt(si * (in[k] + 128)) / so) - 128, -128.0, 127.0);
    ASSERT_NEAR(out[k], want, 1.0) << int(in[k]);
  }
}

TEST(RsqrtS16, FollowsTheRealFunction) {
  const double si = 1.0 / 1024, so = 1.0 / 2048;
  std::vector<int16_t> in;
  for (int v = 1; v < 32768; v += 97) in.push_back(static_cast<int16_t>(v));
  const microaot_unary_params_q p =
      rescale_params(static_cast<int32_t>(in.size()), 0, 1.0 / (std::sqrt(si) * so), 0, -32768, 32767);
  std::vector<int16_t> out(in.size());
  microaot_rsqrt_s16(&p, in.data(), out.data());
  for (size_t k = 0; k < in.size(); ++k) {
    const double want = std::min(std::round(1.0 / std::sqrt(si * in[k]) / so), 32767.0);
    ASSERT_NEAR(out[k], want, 1.0) << in[k];
  }
}

TEST(MathF32, FunctionsOfTheCLibrary) {
  const std::vector<float> in = {0.25f, 1.0f, 2.5f, 3.75f};
  const microaot_unary_params p = {4};
  std::vector<float> out(4);
  microaot_rsqrt_f32(&p, in.data(), out.data());
  for (int i = 0; i < 4; ++i) EXPECT_FLOAT_EQ(out[i], 1.0f / std::sqrt(in[i]));
  microaot_log_f32(&p, in.data(), out.data());
  for (int i = 0; i < 4; ++i) EXPECT_FLOAT_EQ(out[i], std::log(in[i]));
  microaot_cos_f32(&p, in.data(), out.data());
  for (int i = 0; i < 4; ++i) EXPECT_FLOAT_EQ(out[i], std::cos(in[i]));
  microaot_neg_f32(&p, in.data(), out.data());
  EXPECT_EQ(out, (std::vector<float>{-0.25f, -1.0f, -2.5f, -3.75f}));
  microaot_square_f32(&p, in.data(), out.data());
  EXPECT_EQ(out, (std::vector<float>{0.0625f, 1.0f, 6.25f, 14.0625f}));
}

TEST(RoundF32, HalvesGoToEven) {
  const std::vector<float> in = {0.5f, 1.5f, 2.5f, -0.5f, -1.5f, -2.5f, 2.4f, -2.6f};
  const microaot_unary_params p = {8};
  std::vector<float> out(8);
  microaot_round_f32(&p, in.data(), out.data());
  EXPECT_EQ(out, (std::vector<float>{0.0f, 2.0f, 2.0f, -0.0f, -2.0f, -2.0f, 2.0f, -3.0f}));
}

TEST(LogicalNot, AnyNonZeroByteIsTrue) {
  const std::vector<uint8_t> in = {0, 1, 2, 0};
  const microaot_unary_params p = {4};
  std::vector<uint8_t> out(4);
  microaot_logical_not_bool(&p, in.data(), out.data());
  EXPECT_EQ(out, (std::vector<uint8_t>{1, 0, 0, 1}));
}

}  // namespace
