// SOFTMAX kernels: the fixed-point exp / reciprocal against double precision and hand-derived values,
// the int8 kernels against hand-computed rows, a float softmax, and an independent C++ restatement of
// TFLM's reference arithmetic (gemmlowp fixed point written from its definitions, in int64).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "microaot/fixedpoint_exp.h"
#include "microaot/kernels/softmax.h"

namespace {

constexpr double kQ31 = 2147483648.0;

// ---- Independent reference: gemmlowp semantics restated with int64 arithmetic. ----
namespace ref {

// round(a * b / 2^31); ties away from zero when positive, toward zero when negative (VQRDMULH).
int32_t high_mul(int32_t a, int32_t b) {
  if (a == INT32_MIN && b == INT32_MIN) return INT32_MAX;
  const int64_t p = static_cast<int64_t>(a) * b;
  if (p >= 0) return static_cast<int32_t>((p + (int64_t{1} << 30)) >> 31);
  return static_cast<int32_t>(-((-p + (int64_t{1} << 30) - 1) >> 31));
}
// x / 2^e rounded to nearest, ties away from zero.
int32_t div_pot(int32_t x, int e) {
  if (e == 0) return x;
  const int64_t half = int64_t{1} << (e - 1);
  const int64_t v = x;
  return static_cast<int32_t>(v >= 0 ? (v + half) >> e : -((-v + half) >> e));
}
// x * 2^e saturated to int32.
int32_t mul_pot_sat(int32_t x, int e) {
  const int64_t v = static_cast<int64_t>(x) * (int64_t{1} << e);
  return static_cast<int32_t>(std::clamp<int64_t>(v, INT32_MIN, INT32_MAX));
}
// Changes a raw value from `from` to `to` integer bits (gemmlowp's Rescale).
int32_t rescale(int32_t x, int from, int to) { return from >= to ? mul_pot_sat(x, from - to) : div_pot(x, to - from); }

int32_t exp_quarter(int32_t a) {  // exp on [-1/4, 0), Q0.31
  const int32_t c = 1895147668, third = 715827883;
  const int32_t x = a + (1 << 28);
  const int32_t x2 = high_mul(x, x), x3 = high_mul(x2, x), x4 = high_mul(x2, x2);
  const int32_t poly = div_pot(high_mul(div_pot(x4, 2) + x3, third) + x2, 1);
  return c + high_mul(c, x + poly);
}
int32_t exp_neg(int32_t a, int ib) {  // exp(a), a <= 0 in Q(ib), result Q0.31
  const int fb = 31 - ib;
  const int32_t quarter = 1 << (fb - 2);
  const int32_t rest = (a & (quarter - 1)) - quarter;
  int32_t r = exp_quarter(rescale(rest, ib, 0));
  const int32_t rem = rest - a;
  const int32_t mult[7] = {1672461947, 1302514674, 790015084, 290630308, 39332535, 720401, 242};
  for (int k = -2; k <= 4; ++k) {
    if (ib > k && ((rem >> (fb + k)) & 1)) r = high_mul(r, mult[k + 2]);
  }
  if (ib > 5 && a < -(1 << (36 - ib))) r = 0;
  return a == 0 ? INT32_MAX : r;
}
int32_t one_over_one_plus(int32_t a) {  // Q0.31 in, Q0.31 out
  const int32_t half_den = static_cast<int32_t>((int64_t{a} + INT32_MAX + (int64_t{a} + INT32_MAX >= 0 ? 1 : -1)) / 2);
  int32_t x = 1515870810 + high_mul(half_den, -1010580540);  // Q2.29
  for (int i = 0; i < 3; ++i) x = x + rescale(high_mul(x, (1 << 29) - high_mul(half_den, x)), 4, 2);
  return rescale(x, 1, 0);
}

// TFLM's reference_ops::Softmax<int8_t, OutT> for one row; out_bits 8 or 16.
std::vector<int32_t> softmax_row(const std::vector<int8_t>& in, int32_t mult, int shift, int32_t diff_min,
                                 int out_bits) {
  const int32_t max = *std::max_element(in.begin(), in.end());
  const auto scaled_exp = [&](int32_t diff) { return exp_neg(high_mul(diff * (1 << shift), mult), 5); };
  int32_t sum = 0;  // Q12.19
  for (int8_t v : in) {
    if (v - max >= diff_min) sum += rescale(scaled_exp(v - max), 0, 12);
  }
  int headroom = 0;
  while (!((static_cast<uint32_t>(sum) << headroom) & 0x80000000u)) ++headroom;
  const int32_t frac = static_cast<int32_t>((static_cast<uint32_t>(sum) << headroom) - 0x80000000u);
  const int32_t recip = one_over_one_plus(frac);
  const int exponent = (12 - headroom) + 31 - out_bits;
  const int32_t lo = -(1 << (out_bits - 1)), hi = (1 << (out_bits - 1)) - 1;
  std::vector<int32_t> out;
  for (int8_t v : in) {
    if (v - max < diff_min) {
      out.push_back(lo);
    } else {
      out.push_back(std::clamp(div_pot(high_mul(recip, scaled_exp(v - max)), exponent) + lo, lo, hi));
    }
  }
  return out;
}

}  // namespace ref

// The params TFLM derives from beta and the input scale (double math, as PreprocessSoftmaxScaling).
microaot_softmax_params_s8 make_params(int32_t outer, int32_t depth, float beta, float input_scale) {
  const double real = std::min(static_cast<double>(beta) * input_scale * (1 << 26), (1LL << 31) - 1.0);
  int exponent = 0;
  const double fraction = std::frexp(real, &exponent);
  int64_t mantissa = std::llround(fraction * kQ31);
  if (mantissa == (1LL << 31)) {
    mantissa /= 2;
    ++exponent;
  }
  const int32_t radius = static_cast<int32_t>(std::floor(31.0 * (1 << 26) / std::ldexp(1.0, exponent)));
  return {outer, depth, static_cast<int32_t>(mantissa), exponent, -radius};
}

TEST(FixedPointExp, ZeroIsOneAndMinusThirtyTwoIsZero) {
  EXPECT_EQ(microaot_exp_on_negative_values(0, 5), INT32_MAX);
  EXPECT_EQ(microaot_exp_on_negative_values(INT32_MIN, 5), 0);  // exp(-32) ~ 1.3e-14 < 2^-31
}

TEST(FixedPointExp, MultiplesOfOneQuarterUseTheBarrelConstants) {
  // exp(-k/4) for k = 1, 2, 4, 8: the series at -1/4 times exact constant products.
  for (int k : {1, 2, 4, 8, 16, 64, 127}) {
    const int32_t a = -k * (1 << 24);
    EXPECT_NEAR(microaot_exp_on_negative_values(a, 5) / kQ31, std::exp(-k / 4.0), 5e-7) << k;
  }
}

TEST(FixedPointExp, MatchesDoubleExpAcrossQ5_26) {
  for (int64_t a = 0; a >= INT32_MIN; a -= 104729) {
    const double x = static_cast<double>(a) / (1 << 26);
    ASSERT_NEAR(microaot_exp_on_negative_values(static_cast<int32_t>(a), 5) / kQ31, std::exp(x), 5e-7) << a;
  }
}

TEST(FixedPointExp, MatchesReferenceIncludingOtherIntegerBits) {
  std::mt19937 rng(7);
  for (int ib : {0, 1, 3, 5, 8, 12}) {
    for (int i = 0; i < 20000; ++i) {
      const int32_t a = -static_cast<int32_t>(rng() & 0x7fffffff);
      ASSERT_EQ(microaot_exp_on_negative_values(a, ib), ref::exp_neg(a, ib)) << a << " ib " << ib;
    }
    // Around every multiple of 1/4 (where the split changes) and near 0.
    const int32_t quarter = 1 << (31 - ib - 2);
    for (int64_t m = 0; m >= INT32_MIN; m -= quarter) {
      for (int d = -2; d <= 2; ++d) {
        const int64_t a = m + d;
        if (a > 0 || a < INT32_MIN) continue;
        const int32_t v = static_cast<int32_t>(a);
        ASSERT_EQ(microaot_exp_on_negative_values(v, ib), ref::exp_neg(v, ib)) << v << " ib " << ib;
      }
    }
  }
}

TEST(FixedPointExp, OneOverOnePlusXMatchesDoubleAndReference) {
  EXPECT_EQ(microaot_one_over_one_plus_x_for_x_in_0_1(0), INT32_MAX);
  for (int64_t x = 0; x <= INT32_MAX; x += 7919 * 13) {
    const int32_t got = microaot_one_over_one_plus_x_for_x_in_0_1(static_cast<int32_t>(x));
    ASSERT_NEAR(got / kQ31, 1.0 / (1.0 + x / kQ31), 1e-8) << x;
    ASSERT_EQ(got, ref::one_over_one_plus(static_cast<int32_t>(x))) << x;
  }
}

TEST(FixedPointExp, ReciprocalNormalizesThePowerOfTwo) {
  int bits = -1;
  // 1.0 in Q12.19: no bits over the unit, 1/(1+0).
  EXPECT_EQ(microaot_reciprocal(1 << 19, 12, &bits), INT32_MAX);
  EXPECT_EQ(bits, 0);
  // 3.0 = 2^1 * 1.5 -> 1/1.5
  EXPECT_NEAR(microaot_reciprocal(3 << 19, 12, &bits) / kQ31, 2.0 / 3.0, 1e-8);
  EXPECT_EQ(bits, 1);
  // 1000.0 = 2^9 * 1.953125
  EXPECT_NEAR(microaot_reciprocal(1000 << 19, 12, &bits) / kQ31, 1.0 / 1.953125, 1e-8);
  EXPECT_EQ(bits, 9);
}

std::vector<int8_t> run_s8(const microaot_softmax_params_s8& p, const std::vector<int8_t>& in) {
  std::vector<int8_t> out(in.size());
  microaot_softmax_s8(&p, in.data(), out.data());
  return out;
}

TEST(SoftmaxS8, EqualInputsShareTheUnitEvenly) {
  const microaot_softmax_params_s8 one = make_params(1, 1, 1.0f, 0.1f);
  EXPECT_EQ(run_s8(one, {5}), std::vector<int8_t>{127});  // 1.0 -> 256 - 128, clamped
  const microaot_softmax_params_s8 two = make_params(1, 2, 1.0f, 0.1f);
  EXPECT_EQ(run_s8(two, {-3, -3}), (std::vector<int8_t>{0, 0}));  // 0.5 -> 128 - 128
  const microaot_softmax_params_s8 four = make_params(2, 4, 1.0f, 0.1f);
  EXPECT_EQ(run_s8(four, {9, 9, 9, 9, -128, -128, -128, -128}), std::vector<int8_t>(8, -64));  // 0.25 * 256
}

TEST(SoftmaxS8, DifferencesBelowDiffMinGiveTheMinimum) {
  // scale 1/16: multiplier 2^30, shift 23, diff_min = -floor(31 * 2^26 / 2^23) = -248.
  const microaot_softmax_params_s8 p = make_params(1, 3, 1.0f, 1.0f / 16);
  ASSERT_EQ(p.input_left_shift, 23);
  ASSERT_EQ(p.diff_min, -248);
  // 127 - (-128) = 255 < 248 is cut off; 0 is 127 below: exp(-7.9) ~ 0.00037 -> 0.09 -> -128 too.
  const std::vector<int8_t> out = run_s8(p, {127, -128, 0});
  EXPECT_EQ(out, (std::vector<int8_t>{127, -128, -128}));
}

TEST(SoftmaxS8, TwoElementsFollowTheLogistic) {
  // scale 1/16, inputs 16 apart: exp(-1) / (1 + exp(-1)) = 0.2689 -> 68.8 -> -59; 0.7311 -> 187.2 -> 59.
  const microaot_softmax_params_s8 p = make_params(1, 2, 1.0f, 1.0f / 16);
  EXPECT_EQ(run_s8(p, {20, 4}), (std::vector<int8_t>{59, -59}));
}

TEST(SoftmaxS8, MatchesReferenceAndFloatOnRandomRows) {
  std::mt19937 rng(11);
  const float scales[] = {0.0245f, 0.0355f, 0.0595f, 0.2f, 1.0f / 16};
  const float betas[] = {1.0f, 0.5f, 2.0f};
  for (float scale : scales) {
    for (float beta : betas) {
      for (int depth : {1, 3, 10, 64, 1000}) {
        const microaot_softmax_params_s8 p = make_params(2, depth, beta, scale);
        std::vector<int8_t> in(2 * depth);
        std::normal_distribution<float> dist(0.0f, 24.0f);
        for (int8_t& v : in) v = static_cast<int8_t>(std::clamp(std::lround(dist(rng)), -128L, 127L));
        const std::vector<int8_t> out8 = run_s8(p, in);
        std::vector<int16_t> out16(in.size());
        microaot_softmax_s8_s16(&p, in.data(), out16.data());
        for (int row = 0; row < 2; ++row) {
          const std::vector<int8_t> r(in.begin() + row * depth, in.begin() + (row + 1) * depth);
          const auto want = [&](int bits) {
            return ref::softmax_row(r, p.input_multiplier, p.input_left_shift, p.diff_min, bits);
          };
          const std::vector<int32_t> want8 = want(8), want16 = want(16);
          double sum = 0;
          const int32_t max = *std::max_element(r.begin(), r.end());
          for (int8_t v : r) sum += std::exp(beta * scale * (v - max));
          for (int c = 0; c < depth; ++c) {
            ASSERT_EQ(out8[row * depth + c], want8[c]) << "scale " << scale << " beta " << beta << " c " << c;
            ASSERT_EQ(out16[row * depth + c], want16[c]) << "scale " << scale << " beta " << beta << " c " << c;
            const double real = std::exp(beta * scale * (r[c] - max)) / sum;
            EXPECT_NEAR(out8[row * depth + c], std::min(127.0, real * 256 - 128), 1.0);
            EXPECT_NEAR(out16[row * depth + c], std::min(32767.0, real * 65536 - 32768), 2.0);
          }
        }
      }
    }
  }
}

// The kernels' arithmetic before the sum pass kept its exps: each element's exp computed in both passes by the
// general path (no shortcut at diff 0), outputs below diff_min set to the minimum.
std::vector<int32_t> exp_per_pass_row(const microaot_softmax_params_s8& p, const int8_t* in, int out_bits) {
  const int32_t max = *std::max_element(in, in + p.depth);
  const auto exp = [&](int32_t diff) {
    return diff < p.diff_min ? 0 : microaot_softmax_exp_of_diff(diff, p.input_multiplier, p.input_left_shift);
  };
  int32_t sum = 0;
  for (int c = 0; c < p.depth; ++c) sum += microaot_rounding_divide_by_pot(exp(in[c] - max), 12);
  int bits_over_unit = 0;
  const int32_t reciprocal = microaot_reciprocal(sum, 12, &bits_over_unit);
  const int exponent = std::clamp(bits_over_unit + 31 - out_bits, 0, 31);
  const int32_t lo = -(1 << (out_bits - 1)), hi = (1 << (out_bits - 1)) - 1;
  std::vector<int32_t> out;
  for (int c = 0; c < p.depth; ++c) {
    const int32_t scaled = microaot_sat_rounding_doubling_high_mul(reciprocal, exp(in[c] - max));
    const int32_t value = microaot_rounding_divide_by_pot(scaled, exponent);
    out.push_back(in[c] - max < p.diff_min ? lo : std::clamp(value + lo, lo, hi));
  }
  return out;
}

// Rows of 1..80 elements (across the kernels' kept exps) in three rows per call, with the params TFLM's
// Prepare makes from a random beta and input scale, inputs spread wide enough to cross diff_min.
TEST(SoftmaxS8, KeptExpsMatchTheExpPerPassOnRowsOfEveryLength) {
  std::mt19937 rng(23);
  std::uniform_real_distribution<float> log_scale(std::log(1e-3f), std::log(0.5f)), log_beta(std::log(0.25f), 0.0f);
  for (int32_t depth = 1; depth <= 80; ++depth) {
    const microaot_softmax_params_s8 p = make_params(3, depth, std::exp(log_beta(rng)), std::exp(log_scale(rng)));
    std::vector<int32_t> table;
    for (int32_t k = 0; k < 256; ++k) table.push_back(microaot_softmax_s8_exp(&p, -k));
    const microaot_softmax_table_params_s8 tp = {p.outer_size, p.depth, p.input_multiplier, p.input_left_shift,
                                                 p.diff_min, table.data()};
    std::uniform_int_distribution<int> value(-128, 127), spread(0, 255);
    const int width = spread(rng);
    std::vector<int8_t> in(3 * depth);
    for (int8_t& v : in) v = static_cast<int8_t>(std::clamp(value(rng), -128, -128 + width));
    std::vector<int8_t> out8(in.size()), out_table(in.size());
    std::vector<int16_t> out16(in.size());
    microaot_softmax_s8(&p, in.data(), out8.data());
    microaot_softmax_s8_table(&tp, in.data(), out_table.data());
    microaot_softmax_s8_s16(&p, in.data(), out16.data());
    for (int32_t row = 0; row < 3; ++row) {
      const std::vector<int32_t> want8 = exp_per_pass_row(p, &in[row * depth], 8);
      const std::vector<int32_t> want16 = exp_per_pass_row(p, &in[row * depth], 16);
      for (int32_t c = 0; c < depth; ++c) {
        const int32_t i = row * depth + c;
        ASSERT_EQ(out8[i], want8[c]) << "depth " << depth << " row " << row << " c " << c;
        ASSERT_EQ(out_table[i], want8[c]) << "depth " << depth << " row " << row << " c " << c;
        ASSERT_EQ(out16[i], want16[c]) << "depth " << depth << " row " << row << " c " << c;
      }
    }
  }
}

TEST(SoftmaxS8S16, EqualPairIsHalf) {
  const microaot_softmax_params_s8 p = make_params(1, 2, 1.0f, 0.05f);
  const std::vector<int8_t> in = {7, 7};
  std::vector<int16_t> out(2);
  microaot_softmax_s8_s16(&p, in.data(), out.data());
  EXPECT_EQ(out, (std::vector<int16_t>{0, 0}));  // 0.5 * 65536 - 32768
  const std::vector<int8_t> single = {-100};
  const microaot_softmax_params_s8 q = make_params(1, 1, 1.0f, 0.05f);
  microaot_softmax_s8_s16(&q, single.data(), out.data());
  EXPECT_EQ(out[0], 32767);
}

TEST(SoftmaxS8, CappedMultiplierKeepsOnlyTheMaximum) {
  // beta * scale = 64 caps the real multiplier at 2^31 - 1: shift 31, diff_min 0.
  const microaot_softmax_params_s8 p = make_params(1, 4, 64.0f, 1.0f);
  ASSERT_EQ(p.input_left_shift, 31);
  ASSERT_EQ(p.diff_min, 0);
  EXPECT_EQ(run_s8(p, {3, 2, 3, -7}), (std::vector<int8_t>{0, -128, 0, -128}));
}

// Plain sampled tables (without TFLM's midpoint bias, which moves entries by at most one step).
std::vector<int16_t> sampled_lut(double (*func)(double), double lo, double hi) {
  std::vector<int16_t> lut;
  for (int i = 0; i <= 512; ++i) {
    lut.push_back(static_cast<int16_t>(std::min(32767.0, std::round(func(lo + (hi - lo) * i / 512) * 32768))));
  }
  return lut;
}
double exp_d(double x) { return std::exp(x); }
double one_over_one_plus_d(double x) { return 1.0 / (1.0 + x); }

// input_scale * beta / (10 / 65535) as Q31 mantissa and exponent.
microaot_softmax_params_s16 make_params_s16(int32_t outer, int32_t depth, double scale_beta, const int16_t* exp_lut,
                                            const int16_t* recip_lut) {
  int exponent = 0;
  const double fraction = std::frexp(scale_beta / (10.0 / 65535.0), &exponent);
  return {outer, depth, static_cast<int32_t>(std::llround(fraction * kQ31)), exponent, exp_lut, recip_lut};
}

TEST(SoftmaxS16, TableInterpolationAndNormalization) {
  const std::vector<int16_t> exp_lut = sampled_lut(exp_d, -10.0, 0.0);
  const std::vector<int16_t> recip_lut = sampled_lut(one_over_one_plus_d, 0.0, 1.0);
  // Equal pair: exp(0) = 32767/32768 each; the sum normalizes to exactly 1 -> 1/(1+1) = 16384 entry;
  // 32767 * 16384 / 2^15 rounded = 16384 (0.5).
  std::vector<int16_t> out(2);
  const std::vector<int16_t> pair = {1234, 1234};
  const microaot_softmax_params_s16 p = make_params_s16(1, 2, 3e-4, exp_lut.data(), recip_lut.data());
  microaot_softmax_s16(&p, pair.data(), out.data());
  EXPECT_EQ(out, (std::vector<int16_t>{16384, 16384}));
}

TEST(SoftmaxS16, MatchesDoubleSoftmaxOnRandomRows) {
  const std::vector<int16_t> exp_lut = sampled_lut(exp_d, -10.0, 0.0);
  const std::vector<int16_t> recip_lut = sampled_lut(one_over_one_plus_d, 0.0, 1.0);
  std::mt19937 rng(5);
  std::normal_distribution<double> dist(0.0, 3072.0);
  for (double scale_beta : {1.87e-4, 3.5e-4, 2.3e-4, 7.7e-4}) {
    for (int depth : {2, 7, 16, 1000}) {
      std::vector<int16_t> in(depth), out(depth);
      for (int16_t& v : in) v = static_cast<int16_t>(std::clamp(std::lround(dist(rng)), -32768L, 32767L));
      const microaot_softmax_params_s16 p = make_params_s16(1, depth, scale_beta, exp_lut.data(), recip_lut.data());
      microaot_softmax_s16(&p, in.data(), out.data());
      const int32_t max = *std::max_element(in.begin(), in.end());
      double sum = 0;
      for (int16_t v : in) sum += std::max(std::exp(scale_beta * (v - max)), 0.0);
      for (int c = 0; c < depth; ++c) {
        // The tables cut exp off below -10 and interpolate linearly: ~1e-3 relative plus a few steps.
        const double real = std::exp(scale_beta * (in[c] - max)) / sum * 32768;
        ASSERT_NEAR(out[c], std::min(real, 32767.0), 4.0 + 2e-3 * real) << scale_beta << " " << depth << " " << c;
      }
    }
  }
}

TEST(SoftmaxF32, MatchesDoubleSoftmaxPerRow) {
  const std::vector<float> in = {1.0f, 2.0f, 3.0f, -1.0f, -1.0f, -1.0f};
  std::vector<float> out(6);
  const microaot_softmax_params_f32 p = {2, 3, 0.5f};
  microaot_softmax_f32(&p, in.data(), out.data());
  const double e0 = std::exp(-1.0), e1 = std::exp(-0.5);
  const double s = e0 + e1 + 1.0;
  EXPECT_NEAR(out[0], e0 / s, 1e-7);
  EXPECT_NEAR(out[1], e1 / s, 1e-7);
  EXPECT_NEAR(out[2], 1.0 / s, 1e-7);
  for (int c = 3; c < 6; ++c) EXPECT_FLOAT_EQ(out[c], 1.0f / 3.0f);
}

TEST(SoftmaxF32, LargeInputsDoNotOverflow) {
  const std::vector<float> in = {1000.0f, 999.0f};
  std::vector<float> out(2);
  const microaot_softmax_params_f32 p = {1, 2, 1.0f};
  microaot_softmax_f32(&p, in.data(), out.data());
  EXPECT_NEAR(out[0], 1.0 / (1.0 + std::exp(-1.0)), 1e-6);
  EXPECT_NEAR(out[1], std::exp(-1.0) / (1.0 + std::exp(-1.0)), 1e-6);
}

}  // namespace
