// FULLY_CONNECTED kernels against hand-computed cases and an independent int64 model of TFLite Micro's
// reference arithmetic (accumulate, requantization, offset, clamp).
#include "microaot/kernels/fully_connected.h"
#include "requantize_reference.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <random>
#include <vector>

namespace {

using requantize_reference::requantize_s32;
using requantize_reference::requantize_s64;

// An integer case: T the activation type (int8, int16), Bias int32 or int64 (the 16x8 kernel).
template <typename T, typename Bias>
struct QCase {
  int batches, depth, units;
  int32_t input_offset, filter_offset, output_offset, act_min, act_max;
  std::vector<int32_t> multiplier, shift;
  std::vector<T> input;
  std::vector<int8_t> weights;
  std::vector<Bias> bias;  // empty = no bias
};
using S8Case = QCase<int8_t, int32_t>;
using S16Case = QCase<int16_t, int64_t>;
using S16Bias32Case = QCase<int16_t, int32_t>;

template <typename T, typename Bias>
int64_t reference_sum(const QCase<T, Bias>& c, int b, int u) {
  int64_t acc = c.bias.empty() ? 0 : c.bias[u];
  for (int d = 0; d < c.depth; ++d) {
    acc += int64_t{c.weights[u * c.depth + d] + c.filter_offset} * (c.input[b * c.depth + d] + c.input_offset);
  }
  return acc;
}

// 64-bit sums requantize as TFLite's 16x8 kernels do; 32-bit ones (int8, int16 with an int32 bias) with the
// two roundings.
template <typename T, typename Bias>
std::vector<T> reference(const QCase<T, Bias>& c) {
  std::vector<T> out(static_cast<size_t>(c.batches * c.units));
  for (int b = 0; b < c.batches; ++b) {
    for (int u = 0; u < c.units; ++u) {
      const int64_t acc = reference_sum(c, b, u);
      int32_t v = sizeof(Bias) == 8 ? requantize_s64(acc, c.multiplier[u], c.shift[u])
                                    : requantize_s32(static_cast<int32_t>(acc), c.multiplier[u], c.shift[u]);
      v += c.output_offset;
      v = v < c.act_min ? c.act_min : (v > c.act_max ? c.act_max : v);
      out[b * c.units + u] = static_cast<T>(v);
    }
  }
  return out;
}

void call_kernel(const microaot_fully_connected_params_q& p, const S8Case& c, int8_t* out) {
  microaot_fully_connected_s8(&p, c.input.data(), c.weights.data(), c.bias.empty() ? nullptr : c.bias.data(), out);
}
void call_kernel(const microaot_fully_connected_params_q& p, const S16Case& c, int16_t* out) {
  microaot_fully_connected_s16(&p, c.input.data(), c.weights.data(), c.bias.empty() ? nullptr : c.bias.data(), out);
}
void call_kernel(const microaot_fully_connected_params_q& p, const S16Bias32Case& c, int16_t* out) {
  microaot_fully_connected_s16_bias32(&p, c.input.data(), c.weights.data(), c.bias.empty() ? nullptr : c.bias.data(),
                                      out);
}

template <typename T, typename Bias>
std::vector<T> run(const QCase<T, Bias>& c) {
  microaot_fully_connected_params_q p{};
  p.batches = c.batches;
  p.input_depth = c.depth;
  p.output_depth = c.units;
  p.input_offset = c.input_offset;
  p.filter_offset = c.filter_offset;
  p.output_offset = c.output_offset;
  p.activation_min = c.act_min;
  p.activation_max = c.act_max;
  p.output_multiplier = c.multiplier.data();
  p.output_shift = c.shift.data();
  std::vector<T> out(static_cast<size_t>(c.batches * c.units), 99);
  call_kernel(p, c, out.data());
  return out;
}
std::vector<int8_t> run_s8(const S8Case& c) { return run(c); }

TEST(FullyConnectedS8, HandComputedHalfScale) {
  // multiplier 2^30 with shift 0 is exactly 0.5; acc of unit 0 = (1+1)*(3-1) + (2+1)*(5-1) + 10 = 26 -> 13.
  S8Case c{1, 2, 2, -1, 1, 3, -128, 127, {1 << 30, 1 << 30}, {0, 0}, {3, 5}, {1, 2, -4, 0}, {10, -3}};
  // unit 1: (-4+1)*2 + (0+1)*4 - 3 = -5 -> -2.5; the high multiply rounds a negative tie toward zero
  // (gemmlowp's nudge) -> -2, +3 = 1.
  EXPECT_EQ(run_s8(c), (std::vector<int8_t>{16, 1}));
}

TEST(FullyConnectedS8, RightShiftRoundsTiesAwayFromZero) {
  // 0.5 * 2^-1 = 0.25: acc -6 -> high multiply -3 exactly -> -1.5 -> -2; acc 6 -> 1.5 -> 2.
  S8Case c{2, 1, 1, 0, 0, 0, -128, 127, {1 << 30}, {-1}, {-6, 6}, {1}, {}};
  EXPECT_EQ(run_s8(c), (std::vector<int8_t>{-2, 2}));
}

TEST(FullyConnectedS8, NoBiasAndClamp) {
  // acc = 100*100 = 10000, times 2^30 * 2^(1-31) = 1 -> 10000 + 0, clamped to [-5, 7].
  S8Case c{2, 1, 1, 0, 0, 0, -5, 7, {1 << 30}, {1}, {100, -100}, {100}, {}};
  EXPECT_EQ(run_s8(c), (std::vector<int8_t>{7, -5}));
}

TEST(FullyConnectedS8, PerUnitMultipliersAreUsed) {
  // Same weights for both units; only the multiplier differs (0.5 vs 0.25).
  S8Case c{1, 1, 2, 0, 0, 0, -128, 127, {1 << 30, 1 << 30}, {0, -1}, {40}, {1, 1}, {}};
  EXPECT_EQ(run_s8(c), (std::vector<int8_t>{20, 10}));
}

// A multiplier/shift pair for `real` (frexp mantissa scaled to 31 bits), independent of the compiler's.
void pick_multiplier(double real, int32_t* multiplier, int32_t* shift) {
  int exponent = 0;
  const double mantissa = std::frexp(real, &exponent);
  int64_t fixed = std::llround(mantissa * 2147483648.0);
  if (fixed == (int64_t{1} << 31)) fixed /= 2, ++exponent;
  *multiplier = static_cast<int32_t>(fixed);
  *shift = exponent;
}

// A random case: inputs over T's range, weights, optional bias, offsets (int16: zero points 0 unless
// `offsets`), and per-unit multipliers that put each unit's largest sum near +-(20..200) * out_range / 256.
template <typename T, typename Bias>
QCase<T, Bias> random_case(std::mt19937& rng, int trial, int out_range, bool offsets) {
  auto uniform = [&rng](int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng); };
  const int64_t lo = std::numeric_limits<T>::min(), hi = std::numeric_limits<T>::max();
  QCase<T, Bias> c{};
  c.batches = static_cast<int>(uniform(1, 4));
  c.depth = static_cast<int>(uniform(1, 70));
  c.units = static_cast<int>(uniform(1, 9));
  c.input_offset = offsets ? static_cast<int32_t>(uniform(-hi, -lo)) : 0;
  c.filter_offset = trial % 3 == 0 ? static_cast<int32_t>(uniform(-20, 20)) : 0;
  c.output_offset = offsets ? static_cast<int32_t>(uniform(lo, hi)) : 0;
  c.act_min = static_cast<int32_t>(trial % 2 ? lo : uniform(lo, 0));
  c.act_max = static_cast<int32_t>(trial % 2 ? hi : uniform(c.act_min, hi));
  for (int i = 0; i < c.batches * c.depth; ++i) c.input.push_back(static_cast<T>(uniform(lo, hi)));
  for (int i = 0; i < c.units * c.depth; ++i) c.weights.push_back(static_cast<int8_t>(uniform(-127, 127)));
  for (int u = 0; u < c.units; ++u) c.bias.push_back(static_cast<Bias>(uniform(-300 * hi, 300 * hi)));
  if (trial % 4 == 0) c.bias.clear();
  for (int u = 0; u < c.units; ++u) {
    // int16: multipliers below 2^7, the most the 16x8 requantization shifts left (the compiler's limit).
    int64_t largest = sizeof(T) == 2 ? 512 : 1;
    for (int b = 0; b < c.batches; ++b) largest = std::max<int64_t>(largest, std::llabs(reference_sum(c, b, u)));
    c.multiplier.push_back(0);
    c.shift.push_back(0);
    const double target = static_cast<double>(uniform(20, 200)) * out_range / 256.0;
    pick_multiplier(target / static_cast<double>(largest), &c.multiplier.back(), &c.shift.back());
  }
  return c;
}

TEST(FullyConnectedS8, MatchesReferenceOnRandomCases) {
  std::mt19937 rng(1234);
  for (int trial = 0; trial < 300; ++trial) {
    const S8Case c = random_case<int8_t, int32_t>(rng, trial, 256, true);
    ASSERT_EQ(run(c), reference(c)) << "trial " << trial;
  }
}

TEST(FullyConnectedS16, HandComputedOneRounding) {
  // multiplier 2^30, shift -1: x0.25. Sums 3*1000 + 5*2 + 6 = 3016 -> 754, and 3*-1000 + 5*-4 + 6 = -3014
  // -> -753.5, which the 16x8 requantization rounds half up to -753 (the 32-bit one away from zero: -754).
  const S16Case c{2, 2, 1, 0, 0, 0, INT16_MIN, INT16_MAX, {1 << 30}, {-1}, {1000, 2, -1000, -4}, {3, 5}, {6}};
  EXPECT_EQ(run(c), (std::vector<int16_t>{754, -753}));
  const S16Bias32Case c32{2, 2, 1, 0, 0, 0, INT16_MIN, INT16_MAX, {1 << 30}, {-1}, {1000, 2, -1000, -4}, {3, 5}, {6}};
  EXPECT_EQ(run(c32), (std::vector<int16_t>{754, -754}));
}

TEST(FullyConnectedS16, MatchesReferenceOnRandomCases) {
  std::mt19937 rng(4321);
  for (int trial = 0; trial < 200; ++trial) {
    const S16Case c = random_case<int16_t, int64_t>(rng, trial, 65536, trial % 5 == 0);
    ASSERT_EQ(run(c), reference(c)) << "trial " << trial;
    const S16Bias32Case c32 = random_case<int16_t, int32_t>(rng, trial, 65536, trial % 5 == 0);
    ASSERT_EQ(run(c32), reference(c32)) << "trial " << trial;
  }
}

std::vector<float> run_f32(int batches, int depth, int units, const std::vector<float>& in, const std::vector<float>& w,
                           const float* bias, float lo, float hi) {
  microaot_fully_connected_params_f32 p{batches, depth, units, lo, hi};
  std::vector<float> out(static_cast<size_t>(batches * units), -1.0f);
  microaot_fully_connected_f32(&p, in.data(), w.data(), bias, out.data());
  return out;
}

TEST(FullyConnectedF32, HandComputed) {
  const std::vector<float> in = {1.0f, 2.0f, -1.0f, 0.5f};  // 2 batches of depth 2
  const std::vector<float> w = {0.5f, -1.0f, 2.0f, 4.0f};   // 2 units
  const float bias[] = {0.25f, -1.0f};
  EXPECT_EQ(run_f32(2, 2, 2, in, w, bias, -100.0f, 100.0f), (std::vector<float>{-1.25f, 9.0f, -0.75f, -1.0f}));
  EXPECT_EQ(run_f32(2, 2, 2, in, w, nullptr, 0.0f, 6.0f), (std::vector<float>{0.0f, 6.0f, 0.0f, 0.0f}));
}

TEST(FullyConnectedF32, MatchesSameOrderReference) {
  std::mt19937 rng(77);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  const int batches = 3, depth = 37, units = 5;
  std::vector<float> in(batches * depth), w(units * depth), bias(units);
  for (float& v : in) v = normal(rng);
  for (float& v : w) v = normal(rng);
  for (float& v : bias) v = normal(rng);
  const std::vector<float> got = run_f32(batches, depth, units, in, w, bias.data(), -1.5f, 1.5f);
  for (int b = 0; b < batches; ++b) {
    for (int u = 0; u < units; ++u) {
      float total = 0.0f;
      for (int d = 0; d < depth; ++d) total += in[b * depth + d] * w[u * depth + d];
      total += bias[u];
      const float want = total < -1.5f ? -1.5f : (total > 1.5f ? 1.5f : total);
      EXPECT_FLOAT_EQ(got[b * units + u], want) << b << "," << u;
    }
  }
}

// ---------------------------------------------------------------- hybrid (float32 activations, int8 weights)

std::vector<float> run_hybrid(int batches, int depth, int units, const std::vector<float>& in,
                              const std::vector<int8_t>& w, const std::vector<float>& scales, const float* bias,
                              float lo, float hi) {
  microaot_fully_connected_params_hybrid p{batches, depth, units, lo, hi, scales.data()};
  std::vector<float> out(static_cast<size_t>(batches * units), -1.0f);
  microaot_fully_connected_f32_s8w(&p, in.data(), w.data(), bias, out.data());
  return out;
}

TEST(FullyConnectedHybrid, HandComputedScaleBeforeBias) {
  // The weights of FullyConnectedF32.HandComputed as int8 with per-unit scales 0.5 and 0.25.
  const std::vector<float> in = {1.0f, 2.0f, -1.0f, 0.5f};
  const std::vector<int8_t> w = {1, -2, 8, 16};
  const float bias[] = {0.25f, -1.0f};
  EXPECT_EQ(run_hybrid(2, 2, 2, in, w, {0.5f, 0.25f}, bias, -100.0f, 100.0f),
            (std::vector<float>{-1.25f, 9.0f, -0.75f, -1.0f}));
  EXPECT_EQ(run_hybrid(2, 2, 2, in, w, {0.5f, 0.25f}, nullptr, 0.0f, 6.0f),
            (std::vector<float>{0.0f, 6.0f, 0.0f, 0.0f}));
}

// The float kernel on the dequantized weights (w_q * scale of the unit) is the yardstick: the same model up
// to the order of float roundings.
TEST(FullyConnectedHybrid, MatchesTheFloatKernelOnDequantizedWeights) {
  std::mt19937 rng(91);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::uniform_int_distribution<int> weight(-127, 127);
  std::uniform_real_distribution<float> scale(0.002f, 0.02f);
  const int batches = 4, depth = 53, units = 7;
  std::vector<float> in(batches * depth), bias(units), scales(units), dequantized(units * depth);
  std::vector<int8_t> w(units * depth);
  for (float& v : in) v = normal(rng);
  for (float& v : bias) v = normal(rng);
  for (float& v : scales) v = scale(rng);
  for (size_t i = 0; i < w.size(); ++i) {
    w[i] = static_cast<int8_t>(weight(rng));
    dequantized[i] = w[i] * scales[i / depth];
  }
  const std::vector<float> got = run_hybrid(batches, depth, units, in, w, scales, bias.data(), -2.0f, 2.0f);
  const std::vector<float> want = run_f32(batches, depth, units, in, dequantized, bias.data(), -2.0f, 2.0f);
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-5 + 1e-5 * std::fabs(want[i])) << i;
}

}  // namespace
