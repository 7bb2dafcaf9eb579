// SUB kernels (and ADD int32): hand-computed quantized differences, agreement with the real-valued difference,
// saturation, int32 wrap-around and clamp, and a float broadcast.
#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <vector>

#include "binary_kernel_test_util.h"
#include "microaot/kernels/add.h"

namespace {

using binary_test::quantize;
using binary_test::set_input_rescale;
using binary_test::set_output_rescale;
using binary_test::set_walk;

// TFLM's CalculateOpDataSub constants for scales s1, s2, so (float steps) and zero points; a flat walk of n.
microaot_add_params_q sub_params(int32_t n, float s1, int32_t z1, float s2, int32_t z2, float so, int32_t zo,
                                 int left_shift = 20, int32_t qmin = -128, int32_t qmax = 127) {
  const float twice_max = 2 * std::max(s1, s2);
  const auto m1 = quantize(s1 / twice_max), m2 = quantize(s2 / twice_max);
  const auto mo = quantize(twice_max / (static_cast<float>(1 << left_shift) * so));
  microaot_add_params_q p = {};
  set_walk(p, n);
  set_input_rescale(p, z1, m1, z2, m2, left_shift);
  set_output_rescale(p, mo, zo, qmin, qmax);
  return p;
}

TEST(SubS8, OneScaleSubtractsExactly) {
  // Every scale 0.25: out = (a - 10) - (b + 5) + 3, clamped to the type.
  const microaot_add_params_q p = sub_params(4, 0.25f, 10, 0.25f, -5, 0.25f, 3);
  const std::vector<int8_t> a = {10, 20, 127, -128}, b = {-5, 0, -128, 127};
  std::vector<int8_t> out(4);
  microaot_sub_s8(&p, a.data(), b.data(), out.data());
  EXPECT_EQ(out, (std::vector<int8_t>{3, 8, 127, -128}));  // 0 + 3, 10 - 5 + 3, saturated both ways
}

TEST(SubS8, AgreesWithTheRealDifferenceWithinOneStep) {
  const float s1 = 0.1f, s2 = 0.3f, so = 0.07f;
  const int32_t z1 = 5, z2 = -7, zo = -3;
  std::vector<int8_t> a, b;
  for (int i = -128; i < 128; ++i) {
    for (int j = -128; j < 128; ++j) {
      a.push_back(static_cast<int8_t>(i));
      b.push_back(static_cast<int8_t>(j));
    }
  }
  const microaot_add_params_q p = sub_params(static_cast<int32_t>(a.size()), s1, z1, s2, z2, so, zo);
  std::vector<int8_t> out(a.size());
  microaot_sub_s8(&p, a.data(), b.data(), out.data());
  for (size_t k = 0; k < a.size(); ++k) {
    const double real = s1 * (a[k] - z1) - s2 * (b[k] - z2);
    const double want = std::clamp(std::round(real / so) + zo, -128.0, 127.0);
    ASSERT_NEAR(out[k], want, 1.0) << int(a[k]) << " - " << int(b[k]);
  }
}

TEST(SubS16, UsesLeftShift15AndSaturates) {
  const microaot_add_params_q p = sub_params(3, 0.5f, 0, 0.25f, 0, 0.5f, 0, 15, -32768, 32767);
  const std::vector<int16_t> a = {1000, -32768, 32767}, b = {4, 32767, -32768};
  std::vector<int16_t> out(3);
  microaot_sub_s16(&p, a.data(), b.data(), out.data());
  EXPECT_EQ(out, (std::vector<int16_t>{998, -32768, 32767}));  // a - b / 2 in the output scale
}

TEST(AddSubS32, WrapAroundThenClamp) {
  microaot_binary_params_s32 p = {};
  set_walk(p, 3);
  p.activation_min = INT32_MIN;
  p.activation_max = INT32_MAX;
  const std::vector<int32_t> a = {INT32_MAX, INT32_MIN, -7}, b = {1, 1, 12};
  std::vector<int32_t> out(3);
  microaot_add_s32(&p, a.data(), b.data(), out.data());
  EXPECT_EQ(out, (std::vector<int32_t>{INT32_MIN, INT32_MIN + 1, 5}));
  microaot_sub_s32(&p, a.data(), b.data(), out.data());
  EXPECT_EQ(out, (std::vector<int32_t>{INT32_MAX - 1, INT32_MAX, -19}));
  p.activation_min = 0;  // RELU6
  p.activation_max = 6;
  microaot_sub_s32(&p, a.data(), b.data(), out.data());
  EXPECT_EQ(out, (std::vector<int32_t>{6, 6, 0}));
}

TEST(SubF32, SubtractsAndClampsWithBroadcast) {
  // [2, 2] - [2]: input 2 re-read for each row.
  const std::vector<float> a = {-1.0f, 0.5f, 7.0f, 2.0f}, b = {0.25f, 3.0f};
  const int32_t shape[2] = {2, 2}, strides1[2] = {2, 1}, strides2[2] = {0, 1};
  microaot_binary_params_f32 p = {};
  set_walk(p, 4, 2, shape, strides1, strides2);
  p.activation_min = 0.0f;
  p.activation_max = 6.0f;
  std::vector<float> out(4);
  microaot_sub_f32(&p, a.data(), b.data(), out.data());
  EXPECT_EQ(out, (std::vector<float>{0.0f, 0.0f, 6.0f, 0.0f}));  // -1.25, -2.5, 6.75, -1
  p.activation_min = -FLT_MAX;
  p.activation_max = FLT_MAX;
  microaot_sub_f32(&p, a.data(), b.data(), out.data());
  EXPECT_EQ(out, (std::vector<float>{-1.25f, -2.5f, 6.75f, -1.0f}));
}

}  // namespace
