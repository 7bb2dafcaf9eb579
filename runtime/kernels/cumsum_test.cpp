// CUMSUM kernels: float against direct loops for every exclusive / reverse mix along a middle axis, int8
// against the real running sum (TFLM's Prepare-time constants computed here), including TFLM's start at the
// transformed raw 0, which shifts every output by one (0 - zero point) term.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "microaot/kernels/cumsum.h"
#include "multiplier_test_util.h"

namespace {

// [2, 3, 2] along axis 1: out[o][d][i] sums in[o][d'][i] over d' before (exclusive) or up to d, from the
// end when reversed.
template <typename T, typename Value>
std::vector<double> reference(const std::vector<T>& in, bool exclusive, bool reverse, Value value) {
  std::vector<double> out(in.size());
  for (int o = 0; o < 2; ++o) {
    for (int i = 0; i < 2; ++i) {
      for (int d = 0; d < 3; ++d) {
        double sum = 0;
        for (int e = 0; e < 3; ++e) {
          const bool before = reverse ? e > d : e < d;
          if (before || (!exclusive && e == d)) sum += value(in[static_cast<size_t>(o * 6 + e * 2 + i)]);
        }
        out[static_cast<size_t>(o * 6 + d * 2 + i)] = sum;
      }
    }
  }
  return out;
}

TEST(CumsumF32, EveryDirectionAndExclusiveness) {
  const std::vector<float> in = {1, 2, 3, 4, 5, 6, -1, -2, -3, -4, 0.5f, 0.25f};
  for (const int exclusive : {0, 1}) {
    for (const int reverse : {0, 1}) {
      const microaot_cumsum_params_f32 p = {2, 3, 2, exclusive, reverse};
      std::vector<float> out(in.size());
      microaot_cumsum_f32(&p, in.data(), out.data());
      const std::vector<double> want = reference(in, exclusive, reverse, [](float x) { return double{x}; });
      for (size_t k = 0; k < in.size(); ++k) EXPECT_NEAR(out[k], want[k], 1e-6) << exclusive << reverse << k;
    }
  }
}

// TFLM's constants: inputs to half the input scale after a left shift of 20, the output rescale from there.
microaot_cumsum_params_s8 params_s8(int exclusive, int reverse, double in_scale, int32_t in_zp, double out_scale,
                                    int32_t out_zp) {
  const multiplier_test::Multiplier in = multiplier_test::quantize(0.5);
  const multiplier_test::Multiplier out = multiplier_test::quantize(2 * in_scale / (std::ldexp(1.0, 20) * out_scale));
  return {2, 3, 2, exclusive, reverse, -in_zp, 20, in.mantissa, in.shift, out.mantissa, out.shift, out_zp};
}

TEST(CumsumS8, FollowsTheRealSumPlusTFLMsStartTerm) {
  const std::vector<int8_t> in = {-128, 127, 3, -7, 40, 41, 0, 1, -60, 90, 11, -11};
  for (const int zp : {0, 9}) {
    for (const int exclusive : {0, 1}) {
      const microaot_cumsum_params_s8 p = params_s8(exclusive, 1, 0.05, zp, 0.1, -4);
      std::vector<int8_t> out(in.size());
      microaot_cumsum_s8(&p, in.data(), out.data());
      const std::vector<double> real = reference(in, exclusive, true, [&](int8_t q) { return 0.05 * (q - zp); });
      for (size_t k = 0; k < in.size(); ++k) {
        // TFLM's sum starts from the raw 0 transformed like an input: (0 - zp) * input scale.
        const double with_start = real[k] + 0.05 * (0 - zp);
        const double want = std::clamp(std::round(with_start / 0.1) - 4, -128.0, 127.0);
        EXPECT_NEAR(out[k], want, 1.0) << zp << exclusive << k;
      }
    }
  }
}

TEST(CumsumS8, ExclusiveFirstOutputIsTheStart) {
  // With zero point 0 the start is exactly 0, so the first exclusive output is the output zero point.
  const std::vector<int8_t> in = {100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100};
  const microaot_cumsum_params_s8 p = params_s8(1, 0, 0.5, 0, 0.5, 7);
  std::vector<int8_t> out(in.size());
  microaot_cumsum_s8(&p, in.data(), out.data());
  EXPECT_EQ(out[0], 7);
  EXPECT_EQ(out[2], 107);  // one input of 100 at the same scale
  EXPECT_EQ(out[4], 127);  // 200 + 7 saturates
}

}  // namespace
