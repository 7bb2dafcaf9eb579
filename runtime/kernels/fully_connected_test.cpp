// FULLY_CONNECTED kernels against hand-computed cases and an independent int64 model of TFLite Micro's
// reference arithmetic (accumulate, double-rounding requantization, offset, clamp).
#include "microaot/kernels/fully_connected.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace {

// gemmlowp's SaturatingRoundingDoublingHighMul, written from its definition: round(a*b / 2^31) with
// ties away from zero for positive products and toward zero for negative ones.
int32_t ref_high_mul(int32_t a, int32_t b) {
  if (a == INT32_MIN && b == INT32_MIN) return INT32_MAX;
  const int64_t p = static_cast<int64_t>(a) * b;
  const int64_t half = int64_t{1} << 30;
  const int64_t q = p >= 0 ? (p + half) >> 31 : -((-p + half - 1) >> 31);
  return static_cast<int32_t>(q);
}

// x / 2^e rounded to nearest, ties away from zero.
int32_t ref_round_shift(int32_t x, int e) {
  if (e == 0) return x;
  const int64_t half = int64_t{1} << (e - 1);
  const int64_t v = x;
  return static_cast<int32_t>(v >= 0 ? (v + half) >> e : -((-v + half) >> e));
}

int32_t ref_requantize(int32_t acc, int32_t multiplier, int shift) {
  const int left = shift > 0 ? shift : 0;
  const auto shifted = static_cast<int32_t>(static_cast<uint32_t>(acc) << left);
  return ref_round_shift(ref_high_mul(shifted, multiplier), shift > 0 ? 0 : -shift);
}

struct S8Case {
  int batches, depth, units;
  int32_t input_offset, filter_offset, output_offset, act_min, act_max;
  std::vector<int32_t> multiplier, shift;
  std::vector<int8_t> input, weights;
  std::vector<int32_t> bias;  // empty = no bias
};

std::vector<int8_t> reference_s8(const S8Case& c) {
  std::vector<int8_t> out(static_cast<size_t>(c.batches * c.units));
  for (int b = 0; b < c.batches; ++b) {
    for (int u = 0; u < c.units; ++u) {
      int64_t acc = c.bias.empty() ? 0 : c.bias[u];
      for (int d = 0; d < c.depth; ++d) {
        acc += int64_t{c.weights[u * c.depth + d] + c.filter_offset} * (c.input[b * c.depth + d] + c.input_offset);
      }
      int32_t v = ref_requantize(static_cast<int32_t>(acc), c.multiplier[u], c.shift[u]) + c.output_offset;
      v = v < c.act_min ? c.act_min : (v > c.act_max ? c.act_max : v);
      out[b * c.units + u] = static_cast<int8_t>(v);
    }
  }
  return out;
}

std::vector<int8_t> run_s8(const S8Case& c) {
  microaot_fully_connected_params_s8 p{};
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
  std::vector<int8_t> out(static_cast<size_t>(c.batches * c.units), 99);
  microaot_fully_connected_s8(&p, c.input.data(), c.weights.data(), c.bias.empty() ? nullptr : c.bias.data(),
                              out.data());
  return out;
}

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

TEST(FullyConnectedS8, MatchesReferenceOnRandomCases) {
  std::mt19937 rng(1234);
  auto uniform = [&rng](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  for (int trial = 0; trial < 300; ++trial) {
    S8Case c{};
    c.batches = uniform(1, 4);
    c.depth = uniform(1, 70);
    c.units = uniform(1, 9);
    c.input_offset = uniform(-127, 128);
    c.filter_offset = trial % 3 == 0 ? uniform(-20, 20) : 0;
    c.output_offset = uniform(-128, 127);
    c.act_min = trial % 2 ? -128 : uniform(-128, 0);
    c.act_max = trial % 2 ? 127 : uniform(c.act_min, 127);
    for (int i = 0; i < c.batches * c.depth; ++i) c.input.push_back(static_cast<int8_t>(uniform(-128, 127)));
    for (int i = 0; i < c.units * c.depth; ++i) c.weights.push_back(static_cast<int8_t>(uniform(-127, 127)));
    for (int u = 0; u < c.units; ++u) c.bias.push_back(uniform(-40000, 40000));
    if (trial % 4 == 0) c.bias.clear();
    // Scale each unit so its largest accumulator lands near +-100: outputs span the range, few clamp.
    for (int u = 0; u < c.units; ++u) {
      int64_t largest = 1;
      for (int b = 0; b < c.batches; ++b) {
        int64_t acc = c.bias.empty() ? 0 : c.bias[u];
        for (int d = 0; d < c.depth; ++d) {
          acc += int64_t{c.weights[u * c.depth + d] + c.filter_offset} * (c.input[b * c.depth + d] + c.input_offset);
        }
        largest = std::max(largest, acc < 0 ? -acc : acc);
      }
      c.multiplier.push_back(0);
      c.shift.push_back(0);
      pick_multiplier(uniform(20, 200) / static_cast<double>(largest), &c.multiplier.back(), &c.shift.back());
    }
    ASSERT_EQ(run_s8(c), reference_s8(c)) << "trial " << trial;
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

}  // namespace
