// Comparison kernels: int8 compared on the common scale (not as raw values), agreement with the real-valued
// comparison over every pair of int8 values, the other types' raw values, bool truth values and a broadcast.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "binary_kernel_test_util.h"
#include "microaot/kernels/comparisons.h"

namespace {

using binary_test::quantize;
using binary_test::set_walk;

// TFLM's ComparisonsPrepare for int8: each scale as a multiplier, left shift 8; a flat walk of n elements.
microaot_comparison_params_s8 comparison_params(int32_t n, float s1, int32_t z1, float s2, int32_t z2) {
  const auto m1 = quantize(s1), m2 = quantize(s2);
  microaot_comparison_params_s8 p = {};
  binary_test::set_walk(p, n);
  binary_test::set_input_rescale(p, z1, m1, z2, m2, 8);
  return p;
}

TEST(ComparisonsS8, CompareRealValuesNotRawOnes) {
  // a in 0.1 steps, b in 0.05 steps around zero point 4: 10 -> 1.0 == 24 -> 1.0; 10 -> 1.0 < 26 -> 1.1.
  const microaot_comparison_params_s8 p = comparison_params(3, 0.1f, 0, 0.05f, 4);
  const std::vector<int8_t> a = {10, 10, -3}, b = {24, 26, 4};
  std::vector<uint8_t> out(3);
  microaot_equal_s8(&p, a.data(), b.data(), out.data());
  EXPECT_EQ(out, (std::vector<uint8_t>{1, 0, 0}));
  microaot_not_equal_s8(&p, a.data(), b.data(), out.data());
  EXPECT_EQ(out, (std::vector<uint8_t>{0, 1, 1}));
  microaot_less_s8(&p, a.data(), b.data(), out.data());
  EXPECT_EQ(out, (std::vector<uint8_t>{0, 1, 1}));
  microaot_less_equal_s8(&p, a.data(), b.data(), out.data());
  EXPECT_EQ(out, (std::vector<uint8_t>{1, 1, 1}));
  microaot_greater_s8(&p, a.data(), b.data(), out.data());
  EXPECT_EQ(out, (std::vector<uint8_t>{0, 0, 0}));
  microaot_greater_equal_s8(&p, a.data(), b.data(), out.data());
  EXPECT_EQ(out, (std::vector<uint8_t>{1, 0, 0}));
}

TEST(ComparisonsS8, AgreeWithTheRealComparisonOverAllPairs) {
  const float s1 = 0.037f, s2 = 0.0213f;
  const int32_t z1 = -9, z2 = 17;
  std::vector<int8_t> a, b;
  for (int i = -128; i < 128; ++i) {
    for (int j = -128; j < 128; ++j) {
      a.push_back(static_cast<int8_t>(i));
      b.push_back(static_cast<int8_t>(j));
    }
  }
  const microaot_comparison_params_s8 p = comparison_params(static_cast<int32_t>(a.size()), s1, z1, s2, z2);
  std::vector<uint8_t> less(a.size()), greater(a.size());
  microaot_less_s8(&p, a.data(), b.data(), less.data());
  microaot_greater_s8(&p, a.data(), b.data(), greater.data());
  for (size_t k = 0; k < a.size(); ++k) {
    const double x = s1 * (a[k] - z1), y = s2 * (b[k] - z2);
    // Closer than the rescale resolves (real values in steps of 1/256, rounded twice): TFLM may call them equal.
    if (std::fabs(x - y) < 2.0 / 256) continue;
    ASSERT_EQ(less[k], x < y ? 1 : 0) << int(a[k]) << " < " << int(b[k]);
    ASSERT_EQ(greater[k], x > y ? 1 : 0) << int(a[k]) << " > " << int(b[k]);
  }
}

TEST(Comparisons, OtherTypesCompareTheirValuesWithBroadcast) {
  // [2, 2] against [2].
  const int32_t shape[2] = {2, 2}, strides1[2] = {2, 1}, strides2[2] = {0, 1};
  microaot_binary_params p = {};
  set_walk(p, 4, 2, shape, strides1, strides2);
  std::vector<uint8_t> out(4);
  const std::vector<float> af = {1.0f, -0.0f, 3.0f, 0.25f}, bf = {3.0f, 0.0f};
  microaot_less_equal_f32(&p, af.data(), bf.data(), out.data());
  EXPECT_EQ(out, (std::vector<uint8_t>{1, 1, 1, 0}));
  microaot_equal_f32(&p, af.data(), bf.data(), out.data());
  EXPECT_EQ(out, (std::vector<uint8_t>{0, 1, 1, 0}));  // -0 == 0
  const std::vector<int32_t> a32 = {INT32_MIN, 5, 7, INT32_MAX}, b32 = {7, 5};
  microaot_greater_s32(&p, a32.data(), b32.data(), out.data());
  EXPECT_EQ(out, (std::vector<uint8_t>{0, 0, 0, 1}));
  const std::vector<int64_t> a64 = {1LL << 40, 2, -1, 3}, b64 = {(1LL << 40) + 1, 2};
  microaot_greater_equal_s64(&p, a64.data(), b64.data(), out.data());
  EXPECT_EQ(out, (std::vector<uint8_t>{0, 1, 0, 1}));
  microaot_not_equal_s64(&p, a64.data(), b64.data(), out.data());
  EXPECT_EQ(out, (std::vector<uint8_t>{1, 0, 1, 1}));
}

TEST(Comparisons, BoolComparesTruthValues) {
  microaot_binary_params p = {};
  set_walk(p, 4);
  const std::vector<uint8_t> a = {0, 1, 2, 0}, b = {0, 2, 0, 1};
  std::vector<uint8_t> out(4);
  microaot_equal_bool(&p, a.data(), b.data(), out.data());
  EXPECT_EQ(out, (std::vector<uint8_t>{1, 1, 0, 0}));
  microaot_not_equal_bool(&p, a.data(), b.data(), out.data());
  EXPECT_EQ(out, (std::vector<uint8_t>{0, 0, 1, 1}));
}

}  // namespace
