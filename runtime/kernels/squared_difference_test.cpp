// SQUARED_DIFFERENCE kernels: agreement with the real squared difference over every pair of int8 values,
// hand-computed int16 squares with a left output shift and saturation, int32 wrap-around and float.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "binary_kernel_test_util.h"
#include "microaot/kernels/squared_difference.h"

namespace {

using binary_test::quantize;
using binary_test::set_input_rescale;
using binary_test::set_output_rescale;
using binary_test::set_walk;

// TFLM's PrepareQuantized in double; a flat walk of n elements, clamped to the type's range.
microaot_add_params_q squared_difference_params(int32_t n, float s1, int32_t z1, float s2, int32_t z2, float so,
                                                int32_t zo, int left_shift, int32_t qmin, int32_t qmax) {
  const double twice_max = 2.0 * std::max(s1, s2);
  const auto m1 = quantize(s1 / twice_max), m2 = quantize(s2 / twice_max);
  const auto mo = quantize(twice_max * twice_max / static_cast<double>(static_cast<float>(1 << (2 * left_shift)) * so));
  microaot_add_params_q p = {};
  set_walk(p, n);
  set_input_rescale(p, z1, m1, z2, m2, left_shift);
  set_output_rescale(p, mo, zo, qmin, qmax);
  return p;
}

TEST(SquaredDifferenceS8, AgreesWithTheRealSquareWithinOneStep) {
  const float s1 = 0.05f, s2 = 0.02f, so = 0.12f;
  const int32_t z1 = 3, z2 = -4, zo = -128;
  std::vector<int8_t> a, b;
  for (int i = -128; i < 128; ++i) {
    for (int j = -128; j < 128; ++j) {
      a.push_back(static_cast<int8_t>(i));
      b.push_back(static_cast<int8_t>(j));
    }
  }
  const microaot_add_params_q p =
      squared_difference_params(static_cast<int32_t>(a.size()), s1, z1, s2, z2, so, zo, 7, -128, 127);
  std::vector<int8_t> out(a.size());
  microaot_squared_difference_s8(&p, a.data(), b.data(), out.data());
  for (size_t k = 0; k < a.size(); ++k) {
    const double difference = s1 * (a[k] - z1) - s2 * (b[k] - z2);
    const double want = std::clamp(std::round(difference * difference / so) + zo, -128.0, 127.0);
    ASSERT_NEAR(out[k], want, 1.0) << int(a[k]) << ", " << int(b[k]);
  }
}

TEST(SquaredDifferenceS16, SquaresOnTheCommonScaleAndSaturates) {
  // Scales 1: inputs halved on the common scale 2, squared, times 2^2 / 1 = 4 (a left shift).
  const microaot_add_params_q p = squared_difference_params(3, 1.0f, 0, 1.0f, 0, 1.0f, 0, 0, -32768, 32767);
  ASSERT_EQ(p.output_shift, 3);
  const std::vector<int16_t> a = {100, 6, 200}, b = {-20, 2, -200};
  std::vector<int16_t> out(3);
  microaot_squared_difference_s16(&p, a.data(), b.data(), out.data());
  EXPECT_EQ(out, (std::vector<int16_t>{14400, 16, 32767}));  // 120^2, 4^2, 400^2 saturated
}

TEST(SquaredDifferenceS32AndF32, SquareTheDifference) {
  microaot_binary_params p = {};
  set_walk(p, 3);
  const std::vector<int32_t> a = {3, -5, 65536}, b = {10, 5, 0};
  std::vector<int32_t> out(3);
  microaot_squared_difference_s32(&p, a.data(), b.data(), out.data());
  EXPECT_EQ(out, (std::vector<int32_t>{49, 100, 0}));  // 2^32 wraps to 0
  const std::vector<float> x = {1.5f, -2.0f, 0.0f}, y = {0.5f, 1.0f, 0.0f};
  std::vector<float> f(3);
  microaot_squared_difference_f32(&p, x.data(), y.data(), f.data());
  EXPECT_EQ(f, (std::vector<float>{1.0f, 9.0f, 0.0f}));
}

}  // namespace
