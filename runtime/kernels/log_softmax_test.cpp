// LOG_SOFTMAX kernels: float rows against double, the int8 kernel against the real function (with TFLM's
// Prepare-time constants computed here), the row maximum at 127 and the floor at -128.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "microaot/kernels/log_softmax.h"
#include "unary_test_util.h"

namespace {

std::vector<double> log_softmax(const std::vector<double>& row) {
  const double max = *std::max_element(row.begin(), row.end());
  double sum = 0;
  for (double x : row) sum += std::exp(x - max);
  std::vector<double> out;
  for (double x : row) out.push_back(x - max - std::log(sum));
  return out;
}

TEST(LogSoftmaxF32, RowsMatchDouble) {
  const std::vector<float> in = {1.0f, 2.0f, 3.0f, -50.0f, 0.0f, 0.0f};
  const microaot_log_softmax_params_f32 p = {2, 3};
  std::vector<float> out(6);
  microaot_log_softmax_f32(&p, in.data(), out.data());
  for (int row = 0; row < 2; ++row) {
    const std::vector<double> want = log_softmax({in[row * 3], in[row * 3 + 1], in[row * 3 + 2]});
    for (int c = 0; c < 3; ++c) EXPECT_NEAR(out[row * 3 + c], want[c], 1e-5) << row << "," << c;
  }
}

// TFLM's constants for input scale `scale`: differences in Q5.26, the reverse multiplier and the radius.
microaot_log_softmax_params_s8 params_s8(int32_t outer, int32_t depth, double scale) {
  const unary_test::Multiplier in = unary_test::quantize(scale * (1 << 26));
  const unary_test::Multiplier reverse = unary_test::quantize(std::ldexp(1.0, 31 - in.shift) / in.mantissa);
  const int32_t diff_min = -static_cast<int32_t>(std::floor(31.0 * (1 << 26) / std::ldexp(1.0, in.shift)));
  return {outer, depth, in.mantissa, in.shift, reverse.mantissa, reverse.shift, diff_min};
}

TEST(LogSoftmaxS8, FollowsTheRealFunction) {
  const double scale = 0.1;
  const int32_t depth = 16, outer = 8;
  std::vector<int8_t> in;
  for (int k = 0; k < depth * outer; ++k) in.push_back(static_cast<int8_t>((k * 37 + k / depth * 11) % 256 - 128));
  const microaot_log_softmax_params_s8 p = params_s8(outer, depth, scale);
  std::vector<int8_t> out(in.size());
  microaot_log_softmax_s8(&p, in.data(), out.data());
  for (int row = 0; row < outer; ++row) {
    std::vector<double> real;
    for (int c = 0; c < depth; ++c) real.push_back(scale * in[row * depth + c]);
    const std::vector<double> want = log_softmax(real);
    for (int c = 0; c < depth; ++c) {
      const double q = std::clamp(std::round(want[c] / (16.0 / 256)) + 127, -128.0, 127.0);
      ASSERT_NEAR(out[row * depth + c], q, 1.0) << row << "," << c;
    }
  }
}

TEST(LogSoftmaxS8, OneElementRowsAreZero) {
  const microaot_log_softmax_params_s8 p = params_s8(3, 1, 0.05);
  const std::vector<int8_t> in = {-128, 0, 127};
  std::vector<int8_t> out(3);
  microaot_log_softmax_s8(&p, in.data(), out.data());
  EXPECT_EQ(out, (std::vector<int8_t>{127, 127, 127}));  // log(1) = 0 is the top of the output range
}

}  // namespace
