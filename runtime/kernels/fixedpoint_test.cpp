// microaot_sat_rounding_doubling_high_mul against TFLM's definition (the product plus a sign-dependent nudge,
// divided by 2^31 with truncation towards zero), which the kernel computes as one arithmetic shift.
#include "microaot/fixedpoint.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <vector>

namespace {

int32_t tflm_high_mul(int32_t a, int32_t b) {
  if (a == b && a == std::numeric_limits<int32_t>::min()) return std::numeric_limits<int32_t>::max();
  const int64_t product = static_cast<int64_t>(a) * b;
  const int64_t nudge = product >= 0 ? (1 << 30) : (1 - (1 << 30));
  return static_cast<int32_t>((product + nudge) / (int64_t{1} << 31));
}

TEST(FixedPoint, HighMulIsTflmsNudgedDivision) {
  const int32_t lo = std::numeric_limits<int32_t>::min(), hi = std::numeric_limits<int32_t>::max();
  std::vector<int32_t> edges = {lo, lo + 1, -(1 << 30) - 1, -(1 << 30), -(1 << 30) + 1, -65536, -3, -2, -1, 0, 1, 2,
                                3, 65535, (1 << 30) - 1, 1 << 30, (1 << 30) + 1, hi - 1, hi};
  for (int32_t a : edges) {
    for (int32_t b : edges) {
      EXPECT_EQ(microaot_sat_rounding_doubling_high_mul(a, b), tflm_high_mul(a, b)) << a << " " << b;
    }
  }
  std::mt19937 rng(7);
  std::uniform_int_distribution<int32_t> any(lo, hi), small(-70000, 70000);
  for (int k = 0; k < 200000; ++k) {
    const int32_t a = k % 2 == 0 ? any(rng) : small(rng), b = any(rng);
    ASSERT_EQ(microaot_sat_rounding_doubling_high_mul(a, b), tflm_high_mul(a, b)) << a << " " << b;
  }
}

}  // namespace
