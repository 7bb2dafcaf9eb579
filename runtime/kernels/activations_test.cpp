// Activation kernels: hand-computed RELU, RELU6, LEAKY_RELU, PRELU (int16 with an int8 alpha, broadcast) and
// table cases, agreement of the quantized LEAKY_RELU and HARD_SWISH with the real function over every int8
// input, and the float functions.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "microaot/kernels/activations.h"
#include "unary_test_util.h"

namespace {

using unary_test::Multiplier;
using unary_test::quantize;

TEST(ReluS8, RescalesAndClampsAtTheOutputZeroPoint) {
  // (x - 3) * 2 + 10, at least 10.
  const microaot_unary_params_q p = unary_test::rescale_params(4, 3, 2.0, 10, 10, 127);
  const std::vector<int8_t> in = {-2, 3, 8, 100};
  std::vector<int8_t> out(4);
  microaot_relu_s8(&p, in.data(), out.data());
  EXPECT_EQ(out, (std::vector<int8_t>{10, 10, 20, 127}));
}

TEST(Relu6S16, ClampsOnly) {
  const microaot_clamp_params_q p = {4, 0, 6000};
  const std::vector<int16_t> in = {-300, 0, 5999, 32767};
  std::vector<int16_t> out(4);
  microaot_relu6_s16(&p, in.data(), out.data());
  EXPECT_EQ(out, (std::vector<int16_t>{0, 0, 5999, 6000}));
}

microaot_leaky_relu_params_q leaky_params(int32_t size, double si, int32_t zi, double so, int32_t zo, double alpha) {
  const Multiplier identity = quantize(si / so), scaled_alpha = quantize(std::fabs(si * alpha / so));
  return {size, -zi, zo, identity.mantissa, identity.shift, scaled_alpha.mantissa, scaled_alpha.shift,
          alpha < 0 ? 1 : 0, -128, 127};
}

TEST(LeakyReluS8, NegativeAlphaHalvesRoundAwayFromZeroBeforeTheSign) {
  // Equal scales, alpha -0.25: -6 * 0.25 = -1.5 rounds to -2, negated to 2.
  const microaot_leaky_relu_params_q p = leaky_params(4, 0.1, 0, 0.1, 0, -0.25);
  const std::vector<int8_t> in = {-8, -6, 0, 5};
  std::vector<int8_t> out(4);
  microaot_leaky_relu_s8(&p, in.data(), out.data());
  EXPECT_EQ(out, (std::vector<int8_t>{2, 2, 0, 5}));
}

TEST(LeakyReluS8, FollowsTheRealFunctionOverAllInputs) {
  const double si = 0.05, so = 0.04, alpha = 0.3;
  const microaot_leaky_relu_params_q p = leaky_params(256, si, -3, so, 5, alpha);
  const std::vector<int8_t> in = unary_test::all_int8();
  std::vector<int8_t> out(in.size());
  microaot_leaky_relu_s8(&p, in.data(), out.data());
  for (size_t k = 0; k < in.size(); ++k) {
    const double x = si * (in[k] + 3);
    const double want = std::clamp(std::round((x > 0 ? x : alpha * x) / so) + 5, -128.0, 127.0);
    ASSERT_NEAR(out[k], want, 1.0) << int(in[k]);
  }
}

TEST(PreluS16, BroadcastsAnInt8Alpha) {
  // Input scale 1, alpha scale 1/4 with zero point 2, output scale 1: x or x * (a - 2) / 4.
  const Multiplier identity = quantize(1.0), alpha = quantize(0.25);
  const int32_t shape[2] = {2, 3}, strides1[2] = {3, 1}, strides2[2] = {0, 1};
  const microaot_prelu_params_q p = {6,  2,       shape,          strides1,     strides2,     0, -2, 0,
                                     identity.mantissa, identity.shift, alpha.mantissa, alpha.shift, -32768, 32767};
  const std::vector<int16_t> in = {-100, -100, 7, -20000, 4, -32768};
  const std::vector<int8_t> a = {6, 2, 10};
  std::vector<int16_t> out(6);
  microaot_prelu_s16(&p, in.data(), a.data(), out.data());
  EXPECT_EQ(out, (std::vector<int16_t>{-100, 0, 7, -20000, 4, -32768}));
}

TEST(PreluF32, AlphaAppliesBelowZero) {
  const microaot_prelu_params_f32 p = {4, 0, nullptr, nullptr, nullptr};
  const std::vector<float> in = {-2.0f, 3.0f, -1.0f, 0.0f}, a = {0.5f, 0.5f, -1.0f, 2.0f};
  std::vector<float> out(4);
  microaot_prelu_f32(&p, in.data(), a.data(), out.data());
  EXPECT_EQ(out, (std::vector<float>{-1.0f, 3.0f, 1.0f, 0.0f}));
}

// TFLM's Q15 rounding of a Q31 mantissa.
int32_t to_q15(int32_t m) { return m >= INT32_MAX - (1 << 15) ? 32767 : (m + (1 << 15)) >> 16; }

TEST(HardSwishS8, FollowsTheRealFunctionOverAllInputs) {
  const double si = 0.05, so = 0.03;
  const int32_t zi = 10, zo = -20;
  const Multiplier output = quantize(si / 128 / so), reluish = quantize(si / 128 / (3.0 / 32768));
  const microaot_hard_swish_params_s8 p = {256, zi, zo, to_q15(output.mantissa), output.shift,
                                           to_q15(reluish.mantissa), reluish.shift};
  const std::vector<int8_t> in = unary_test::all_int8();
  std::vector<int8_t> out(in.size());
  microaot_hard_swish_s8(&p, in.data(), out.data());
  for (size_t k = 0; k < in.size(); ++k) {
    const double x = si * (in[k] - zi);
    const double want = std::clamp(std::round(x * std::clamp(x + 3, 0.0, 6.0) / 6 / so) + zo, -128.0, 127.0);
    ASSERT_NEAR(out[k], want, 1.0) << int(in[k]);
  }
}

TEST(LutS8, IndexesByTheInputByte) {
  std::vector<int8_t> table(256);
  for (int i = 0; i < 256; ++i) table[i] = static_cast<int8_t>(127 - i);  // entry for x is -1 - x
  const microaot_lut_params_s8 p = {4, table.data()};
  const std::vector<int8_t> in = {-128, -1, 0, 127};
  std::vector<int8_t> out(4);
  microaot_lut_s8(&p, in.data(), out.data());
  EXPECT_EQ(out, (std::vector<int8_t>{127, 0, -1, -128}));
}

// Four elements a pass and the last ones alone, into another buffer and in place: every length to 9.
TEST(LutS8, EveryLengthAndInPlace) {
  std::vector<int8_t> table(256);
  for (int i = 0; i < 256; ++i) table[i] = static_cast<int8_t>((i * 37 + 11) % 256 - 128);
  for (int32_t size = 0; size <= 9; ++size) {
    std::vector<int8_t> in(static_cast<size_t>(size)), want(in.size()), out(in.size(), 0x55);
    for (size_t k = 0; k < in.size(); ++k) {
      in[k] = static_cast<int8_t>(k * 29 - 100);
      want[k] = table[static_cast<size_t>(in[k] + 128)];
    }
    const microaot_lut_params_s8 p = {size, table.data()};
    microaot_lut_s8(&p, in.data(), out.data());
    EXPECT_EQ(out, want) << size;
    microaot_lut_s8(&p, in.data(), in.data());
    EXPECT_EQ(in, want) << size << " in place";
  }
}

TEST(ActivationsF32, Values) {
  const std::vector<float> in = {-4.0f, -1.0f, 0.5f, 7.0f};
  const microaot_unary_params p = {4};
  std::vector<float> out(4);
  microaot_relu6_f32(&p, in.data(), out.data());
  EXPECT_EQ(out, (std::vector<float>{0.0f, 0.0f, 0.5f, 6.0f}));
  microaot_hard_swish_f32(&p, in.data(), out.data());
  EXPECT_EQ(out, (std::vector<float>{0.0f, -1.0f * 2.0f / 6.0f, 0.5f * 3.5f / 6.0f, 7.0f}));
  microaot_elu_f32(&p, in.data(), out.data());
  EXPECT_FLOAT_EQ(out[1], std::exp(-1.0f) - 1.0f);
  EXPECT_EQ(out[3], 7.0f);
  const microaot_leaky_relu_params_f32 leaky = {4, 0.1f};
  microaot_leaky_relu_f32(&leaky, in.data(), out.data());
  EXPECT_EQ(out, (std::vector<float>{-4.0f * 0.1f, -1.0f * 0.1f, 0.5f, 7.0f}));
}

}  // namespace
