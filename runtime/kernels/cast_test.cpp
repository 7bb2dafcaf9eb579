// CAST kernels: conversions by value, the wrap-around of narrowing integer conversions, float truncation
// toward zero and its out-of-range result, bool, and the byte copy in place.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "microaot/kernels/cast.h"

namespace {

TEST(Cast, WideningKeepsTheValue) {
  const std::vector<int8_t> in = {-128, -1, 0, 127};
  const microaot_unary_params p = {4};
  std::vector<int32_t> s32(4);
  microaot_cast_s8_s32(&p, in.data(), s32.data());
  EXPECT_EQ(s32, (std::vector<int32_t>{-128, -1, 0, 127}));
  std::vector<float> f32(4);
  microaot_cast_s8_f32(&p, in.data(), f32.data());
  EXPECT_EQ(f32, (std::vector<float>{-128.0f, -1.0f, 0.0f, 127.0f}));
}

TEST(Cast, NarrowingKeepsTheLowBits) {
  const std::vector<int32_t> in = {300, -129, 65535, -32769};
  const microaot_unary_params p = {4};
  std::vector<int8_t> s8(4);
  microaot_cast_s32_s8(&p, in.data(), s8.data());
  EXPECT_EQ(s8, (std::vector<int8_t>{44, 127, -1, -1}));
  std::vector<int16_t> s16(4);
  microaot_cast_s32_s16(&p, in.data(), s16.data());
  EXPECT_EQ(s16, (std::vector<int16_t>{300, -129, -1, 32767}));
}

TEST(Cast, FloatTruncatesTowardZero) {
  const std::vector<float> in = {2.9f, -2.9f, 1e10f, std::numeric_limits<float>::quiet_NaN(), 200.5f};
  const microaot_unary_params p = {5};
  std::vector<int32_t> s32(5);
  microaot_cast_f32_s32(&p, in.data(), s32.data());
  EXPECT_EQ(s32, (std::vector<int32_t>{2, -2, INT32_MIN, INT32_MIN, 200}));
  std::vector<int8_t> s8(5);
  microaot_cast_f32_s8(&p, in.data(), s8.data());
  EXPECT_EQ(s8, (std::vector<int8_t>{2, -2, 0, 0, -56}));  // 200 wraps to -56
}

TEST(Cast, BoolIsZeroOrOne) {
  const std::vector<uint8_t> in = {0, 1, 1};
  const microaot_unary_params p = {3};
  std::vector<float> out(3);
  microaot_cast_bool_f32(&p, in.data(), out.data());
  EXPECT_EQ(out, (std::vector<float>{0.0f, 1.0f, 1.0f}));
}

TEST(Copy, CopiesBytesForwardSoAnEarlierOutputMayOverlap) {
  std::vector<uint8_t> bytes = {0, 0, 1, 2, 3, 4};
  const microaot_copy_params p = {4};
  microaot_copy(&p, bytes.data() + 2, bytes.data());
  EXPECT_EQ(bytes, (std::vector<uint8_t>{1, 2, 3, 4, 3, 4}));
}

}  // namespace
