// L2_NORMALIZATION kernels: float rows against double and the 1e-6 floor of the norm; int8 rows against the
// real quotient in TFLite's fixed 1/128 output quantization, the fixed-point 1/sqrt against 1/sqrt in double,
// and the all-zero row (a sum of squares of 0 treated as 1, as TFLM does).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "microaot/kernels/l2_normalization.h"

namespace {

TEST(L2NormalizationF32, RowsMatchDoubleAndTheNormHasAFloor) {
  const std::vector<float> in = {3.0f, 4.0f, 0.0f, 1.0f, -2.0f, 2.0f, 1e-8f, 0.0f, 0.0f};
  const microaot_l2_normalization_params_f32 p = {3, 3};
  std::vector<float> out(in.size());
  microaot_l2_normalization_f32(&p, in.data(), out.data());
  for (int row = 0; row < 2; ++row) {
    double sum = 0;
    for (int c = 0; c < 3; ++c) sum += double{in[static_cast<size_t>(row * 3 + c)]} * in[static_cast<size_t>(row * 3 + c)];
    for (int c = 0; c < 3; ++c) {
      EXPECT_NEAR(out[static_cast<size_t>(row * 3 + c)], in[static_cast<size_t>(row * 3 + c)] / std::sqrt(sum), 1e-6);
    }
  }
  EXPECT_FLOAT_EQ(out[6], 1e-8f / 1e-6f);  // norm 1e-8 raised to 1e-6
}

TEST(L2NormalizationS8, InverseSqrtFollowsDouble) {
  for (const int32_t x : {2, 3, 17, 1000, 65025, 1 << 20, 123456789, INT32_MAX}) {
    const microaot_inv_sqrt r = microaot_inv_sqrt_of(x);
    const double value = r.multiplier * std::ldexp(1.0, r.shift - 31);
    EXPECT_NEAR(value * std::sqrt(static_cast<double>(x)), 1.0, 1e-5) << x;
  }
  const microaot_inv_sqrt one = microaot_inv_sqrt_of(1);
  EXPECT_EQ(one.multiplier, INT32_MAX);
  EXPECT_EQ(one.shift, 0);
}

TEST(L2NormalizationS8, RowsFollowTheRealQuotientInOneOver128) {
  const int32_t zp = -5, depth = 7;
  std::vector<int8_t> in;
  for (int k = 0; k < 4 * depth; ++k) in.push_back(static_cast<int8_t>((k * 71 + 13) % 256 - 128));
  const microaot_l2_normalization_params_s8 p = {4, depth, -zp};
  std::vector<int8_t> out(in.size());
  microaot_l2_normalization_s8(&p, in.data(), out.data());
  for (int row = 0; row < 4; ++row) {
    double sum = 0;
    for (int c = 0; c < depth; ++c) sum += std::pow(in[static_cast<size_t>(row * depth + c)] - zp, 2);
    for (int c = 0; c < depth; ++c) {
      const double real = (in[static_cast<size_t>(row * depth + c)] - zp) / std::sqrt(sum);
      const double want = std::clamp(std::round(real * 128), -128.0, 127.0);
      EXPECT_NEAR(out[static_cast<size_t>(row * depth + c)], want, 1.0) << row << "," << c;
    }
  }
}

TEST(L2NormalizationS8, RowAtTheZeroPointStaysZero) {
  const std::vector<int8_t> in = {12, 12, 12};
  const microaot_l2_normalization_params_s8 p = {1, 3, -12};
  std::vector<int8_t> out(3, 99);
  microaot_l2_normalization_s8(&p, in.data(), out.data());
  EXPECT_EQ(out, (std::vector<int8_t>{0, 0, 0}));
}

}  // namespace
