// MUL kernels: hand-computed quantized products (rounding, offsets, clamps, int16), agreement with the
// real-valued product, a broadcast and the float clamp. The broadcast walk itself is tested with ADD.
#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <vector>

#include "microaot/kernels/mul.h"

namespace {

// frexp with the mantissa rounded half away from zero (TFLite's QuantizeMultiplier).
void quantize(double real, int32_t* mantissa, int32_t* shift) {
  int exponent = 0;
  int64_t m = std::llround(std::frexp(real, &exponent) * 2147483648.0);
  if (m == (1LL << 31)) {
    m /= 2;
    ++exponent;
  }
  *mantissa = static_cast<int32_t>(m);
  *shift = exponent;
}

// TFLM's Prepare-time constants for scales s1, s2, so and zero points z1, z2, zo; a flat walk of n elements.
microaot_mul_params_q make_params(int32_t n, double s1, int32_t z1, double s2, int32_t z2, double so, int32_t zo,
                                  int32_t qmin = -128, int32_t qmax = 127) {
  microaot_mul_params_q p = {};
  p.flat_size = n;
  p.input1_offset = -z1;
  p.input2_offset = -z2;
  quantize(s1 * s2 / so, &p.output_multiplier, &p.output_shift);
  p.output_offset = zo;
  p.activation_min = qmin;
  p.activation_max = qmax;
  return p;
}

TEST(MulS8, ProductsRoundAsTheFixedPointHighMultiply) {
  // (a - 1) * (b + 2) * 0.5 * 0.5 / 0.5 = half the product, then + 5. The doubling high multiply rounds
  // halves up: 3.5 -> 4, -3.5 -> -3.
  const microaot_mul_params_q p = make_params(4, 0.5, 1, 0.5, -2, 0.5, 5);
  const std::vector<int8_t> a = {8, -6, 3, 1}, b = {-1, -1, 5, 100};
  std::vector<int8_t> out(4);
  microaot_mul_s8(&p, a.data(), b.data(), out.data());
  // (7 * 1) / 2 = 3.5 -> 4; (-7 * 1) / 2 = -3.5 -> -3; (2 * 7) / 2 = 7; 0 * 102 = 0.
  EXPECT_EQ(out, (std::vector<int8_t>{9, 2, 12, 5}));
}

TEST(MulS8, ClampsToTheActivationRange) {
  const microaot_mul_params_q p = make_params(3, 1.0, 0, 1.0, 0, 1.0, 0, 0, 100);
  const std::vector<int8_t> a = {-5, 11, 3}, b = {5, 11, 3};
  std::vector<int8_t> out(3);
  microaot_mul_s8(&p, a.data(), b.data(), out.data());
  EXPECT_EQ(out, (std::vector<int8_t>{0, 100, 9}));
}

TEST(MulS8, FollowsTheRealProductOverAllInputs) {
  const double s1 = 0.0213, s2 = 0.0371, so = 0.0459;
  const int32_t z1 = 7, z2 = -12, zo = -3;
  std::vector<int8_t> a, b;
  for (int x = -128; x < 128; ++x) {
    for (int y = -128; y < 128; y += 5) a.push_back(static_cast<int8_t>(x)), b.push_back(static_cast<int8_t>(y));
  }
  const microaot_mul_params_q p = make_params(static_cast<int32_t>(a.size()), s1, z1, s2, z2, so, zo);
  std::vector<int8_t> out(a.size());
  microaot_mul_s8(&p, a.data(), b.data(), out.data());
  for (size_t k = 0; k < a.size(); ++k) {
    const double real = s1 * (a[k] - z1) * s2 * (b[k] - z2);
    const double want = std::clamp(std::round(real / so) + zo, -128.0, 127.0);
    ASSERT_NEAR(out[k], want, 1.0) << int(a[k]) << " * " << int(b[k]);
  }
}

TEST(MulS16, SymmetricProductsSaturateAtTheTypeRange) {
  // Scales 2^-8 * 2^-8 / 2^-15 = 1/2: the output is (a * b) / 2.
  const microaot_mul_params_q p = make_params(4, 1.0 / 256, 0, 1.0 / 256, 0, 1.0 / 32768, 0, -32768, 32767);
  const std::vector<int16_t> a = {3, -3, 1000, -32768}, b = {5, 5, 1000, 32767};
  std::vector<int16_t> out(4);
  microaot_mul_s16(&p, a.data(), b.data(), out.data());
  // 15 / 2 = 7.5 -> 8; -7.5 -> -7; 10^6 / 2 saturates; -2^15 * (2^15 - 1) / 2 saturates at the minimum.
  EXPECT_EQ(out, (std::vector<int16_t>{8, -7, 32767, -32768}));
}

TEST(MulS8, BroadcastsAndMayOverwriteTheFullSizeInput) {
  std::vector<int8_t> a = {1, 2, 3, 4, 5, 6};
  const std::vector<int8_t> b = {10, -1, 2};
  microaot_mul_params_q p = make_params(6, 1.0, 0, 1.0, 0, 1.0, 0);
  const int32_t shape[2] = {2, 3}, strides1[2] = {3, 1}, strides2[2] = {0, 1};
  p.num_dims = 2;
  p.output_shape = shape;
  p.input1_strides = strides1;
  p.input2_strides = strides2;
  microaot_mul_s8(&p, a.data(), b.data(), a.data());
  EXPECT_EQ(a, (std::vector<int8_t>{10, -2, 6, 40, -5, 12}));
}

TEST(MulF32, MultipliesAndClamps) {
  const std::vector<float> a = {-1.0f, 0.5f, 7.0f, 2.0f}, b = {0.25f, 3.0f};
  const int32_t shape[2] = {2, 2}, strides1[2] = {2, 1}, strides2[2] = {0, 1};
  const microaot_binary_params_f32 p = {4, 2, shape, strides1, strides2, 0.0f, 6.0f};
  std::vector<float> out(4);
  microaot_mul_f32(&p, a.data(), b.data(), out.data());
  EXPECT_EQ(out, (std::vector<float>{0.0f, 1.5f, 1.75f, 6.0f}));
  const microaot_binary_params_f32 flat = {4, 0, nullptr, nullptr, nullptr, -FLT_MAX, FLT_MAX};
  const std::vector<float> c = {1e-8f, -2.5f, 1e30f, 0.1f};
  microaot_mul_f32(&flat, a.data(), c.data(), out.data());
  for (int i = 0; i < 4; ++i) EXPECT_EQ(out[i], a[i] * c[i]);
}

}  // namespace
