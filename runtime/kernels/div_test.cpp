// DIV, FLOOR_DIV and FLOOR_MOD kernels: hand-computed int8 quotients, agreement with the real quotient over
// every pair of int8 values (including quotients far below one step), a zero divisor, int32 truncation and
// its undefined corners, and the float floors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <vector>

#include "binary_kernel_test_util.h"
#include "microaot/kernels/div.h"

namespace {

using binary_test::quantize;
using binary_test::set_walk;

// TFLM's Prepare-time constants: the multiplier of s1 / (s2 * so) in float; a flat walk of n elements.
microaot_mul_params_q div_params(int32_t n, float s1, int32_t z1, float s2, int32_t z2, float so, int32_t zo) {
  const auto m = quantize(s1 / (s2 * so));
  microaot_mul_params_q p = {};
  set_walk(p, n);
  p.input1_offset = -z1;
  p.input2_offset = -z2;
  binary_test::set_output_rescale(p, m, zo, -128, 127);
  return p;
}

TEST(DivS8, HandComputedQuotients) {
  // Scales 1: out = (a - 2) / b rounded, + 1.
  const microaot_mul_params_q p = div_params(6, 1.0f, 2, 1.0f, 0, 1.0f, 1);
  const std::vector<int8_t> a = {8, -4, 8, 102, 2, 3}, b = {3, 3, -3, 7, 5, 100};
  std::vector<int8_t> out(6);
  microaot_div_s8(&p, a.data(), b.data(), out.data());
  EXPECT_EQ(out, (std::vector<int8_t>{3, -1, -1, 15, 1, 1}));  // 2, -2, -2, 14.3, 0, 0.01 (+1)
}

TEST(DivS8, ZeroDivisorSaturatesTowardTheDividendsSign) {
  microaot_mul_params_q p = div_params(3, 0.1f, 0, 0.1f, 4, 0.1f, -5);
  p.activation_min = -100;
  const std::vector<int8_t> a = {9, -9, 0}, b = {4, 4, 4};
  std::vector<int8_t> out(3);
  microaot_div_s8(&p, a.data(), b.data(), out.data());
  EXPECT_EQ(out, (std::vector<int8_t>{127, -100, -5}));
}

TEST(DivS8, AgreesWithTheRealQuotientWithinOneStep) {
  // Output shift 2 (0.0125 / (0.05 * 0.1) = 2.5): small dividends over large divisors take the kernel's last
  // shift beyond 31, to 0.
  const float s1 = 0.0125f, s2 = 0.05f, so = 0.1f;
  const int32_t z1 = -3, z2 = 6, zo = -20;
  std::vector<int8_t> a, b;
  for (int i = -128; i < 128; ++i) {
    for (int j = -128; j < 128; ++j) {
      if (j == z2) continue;
      a.push_back(static_cast<int8_t>(i));
      b.push_back(static_cast<int8_t>(j));
    }
  }
  const microaot_mul_params_q p = div_params(static_cast<int32_t>(a.size()), s1, z1, s2, z2, so, zo);
  ASSERT_EQ(p.output_shift, 2);
  std::vector<int8_t> out(a.size());
  microaot_div_s8(&p, a.data(), b.data(), out.data());
  for (size_t k = 0; k < a.size(); ++k) {
    const double real = s1 * (a[k] - z1) / (s2 * (b[k] - z2));
    const double want = std::clamp(std::round(real / so) + zo, -128.0, 127.0);
    ASSERT_NEAR(out[k], want, 1.0) << int(a[k]) << " / " << int(b[k]);
  }
}

TEST(DivS32, TruncatesTowardZeroAndDefinesTheUndefinedCases) {
  microaot_binary_params_s32 p = {};
  set_walk(p, 5);
  p.activation_min = INT32_MIN;
  p.activation_max = INT32_MAX;
  const std::vector<int32_t> a = {7, -7, 7, INT32_MIN, 5}, b = {2, 2, -2, -1, 0};
  std::vector<int32_t> out(5);
  microaot_div_s32(&p, a.data(), b.data(), out.data());
  EXPECT_EQ(out, (std::vector<int32_t>{3, -3, -3, INT32_MIN, 0}));
  p.activation_min = -1;
  p.activation_max = 1;
  microaot_div_s32(&p, a.data(), b.data(), out.data());
  EXPECT_EQ(out, (std::vector<int32_t>{1, -1, -1, -1, 0}));
}

TEST(DivF32, DividesWithBroadcastAndClamps) {
  const std::vector<float> a = {1.0f, -3.0f, 6.0f, 8.0f}, b = {2.0f, 0.5f};
  const int32_t shape[2] = {2, 2}, strides1[2] = {2, 1}, strides2[2] = {0, 1};
  microaot_binary_params_f32 p = {};
  set_walk(p, 4, 2, shape, strides1, strides2);
  p.activation_min = -FLT_MAX;
  p.activation_max = 6.0f;
  std::vector<float> out(4);
  microaot_div_f32(&p, a.data(), b.data(), out.data());
  EXPECT_EQ(out, (std::vector<float>{0.5f, -6.0f, 3.0f, 6.0f}));  // 16 clamped to 6
}

TEST(FloorDivModF32, FloorTowardMinusInfinityAndTakeTheDivisorsSign) {
  microaot_binary_params p = {};
  set_walk(p, 6);
  const std::vector<float> a = {7.0f, -7.0f, 7.0f, -7.0f, -6.0f, 5.5f}, b = {2.0f, 2.0f, -2.0f, -2.0f, 3.0f, 0.5f};
  std::vector<float> div(6), mod(6);
  microaot_floor_div_f32(&p, a.data(), b.data(), div.data());
  microaot_floor_mod_f32(&p, a.data(), b.data(), mod.data());
  EXPECT_EQ(div, (std::vector<float>{3.0f, -4.0f, -4.0f, 3.0f, -2.0f, 11.0f}));
  EXPECT_EQ(mod, (std::vector<float>{1.0f, 1.0f, -1.0f, -1.0f, 0.0f, 0.0f}));
  for (size_t i = 0; i < a.size(); ++i) EXPECT_FLOAT_EQ(div[i] * b[i] + mod[i], a[i]) << i;
}

}  // namespace
