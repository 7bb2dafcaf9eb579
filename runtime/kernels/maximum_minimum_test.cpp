// MAXIMUM and MINIMUM kernels: every type, a broadcast, and NaN (the comparison fails, so input 2 wins).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "binary_kernel_test_util.h"
#include "microaot/kernels/maximum_minimum.h"

namespace {

using binary_test::set_walk;

TEST(MaximumMinimum, IntegerTypesWithBroadcast) {
  // [2, 3] against [3].
  const int32_t shape[2] = {2, 3}, strides1[2] = {3, 1}, strides2[2] = {0, 1};
  microaot_binary_params p = {};
  set_walk(p, 6, 2, shape, strides1, strides2);
  const std::vector<int8_t> a8 = {-128, 0, 127, 5, -5, 1}, b8 = {-1, 0, 1};
  std::vector<int8_t> o8(6);
  microaot_maximum_s8(&p, a8.data(), b8.data(), o8.data());
  EXPECT_EQ(o8, (std::vector<int8_t>{-1, 0, 127, 5, 0, 1}));
  microaot_minimum_s8(&p, a8.data(), b8.data(), o8.data());
  EXPECT_EQ(o8, (std::vector<int8_t>{-128, 0, 1, -1, -5, 1}));
  const std::vector<int16_t> a16 = {-32768, 300, 32767, 0, 0, 0}, b16 = {0, 301, -1};
  std::vector<int16_t> o16(6);
  microaot_maximum_s16(&p, a16.data(), b16.data(), o16.data());
  EXPECT_EQ(o16, (std::vector<int16_t>{0, 301, 32767, 0, 301, 0}));
  const std::vector<int32_t> a32 = {INT32_MIN, 7, 9, 8, -2, 0}, b32 = {INT32_MAX, 7, -9};
  std::vector<int32_t> o32(6);
  microaot_minimum_s32(&p, a32.data(), b32.data(), o32.data());
  EXPECT_EQ(o32, (std::vector<int32_t>{INT32_MIN, 7, -9, 8, -2, -9}));
  const std::vector<int64_t> a64 = {INT64_MIN, 1LL << 40, 0, 3, 4, 5}, b64 = {INT64_MAX, 1LL << 41, -1};
  std::vector<int64_t> o64(6);
  microaot_maximum_s64(&p, a64.data(), b64.data(), o64.data());
  EXPECT_EQ(o64, (std::vector<int64_t>{INT64_MAX, 1LL << 41, 0, INT64_MAX, 1LL << 41, 5}));
  microaot_minimum_s64(&p, a64.data(), b64.data(), o64.data());
  EXPECT_EQ(o64, (std::vector<int64_t>{INT64_MIN, 1LL << 40, -1, 3, 4, -1}));
}

TEST(MaximumMinimum, FloatNanPicksInputTwo) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  microaot_binary_params p = {};
  set_walk(p, 3);
  const std::vector<float> a = {nan, 1.0f, -0.5f}, b = {1.0f, nan, 2.5f};
  std::vector<float> out(3);
  microaot_maximum_f32(&p, a.data(), b.data(), out.data());
  EXPECT_EQ(out[0], 1.0f);
  EXPECT_TRUE(std::isnan(out[1]));
  EXPECT_EQ(out[2], 2.5f);
  microaot_minimum_f32(&p, a.data(), b.data(), out.data());
  EXPECT_EQ(out[0], 1.0f);
  EXPECT_TRUE(std::isnan(out[1]));
  EXPECT_EQ(out[2], -0.5f);
}

}  // namespace
