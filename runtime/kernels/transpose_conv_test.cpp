// Unit tests of the TRANSPOSE_CONV kernels: hand-computed cases (overlapping taps, strides, padding that cuts
// outputs, offsets and requantization), then randomized comparisons with a scatter reference written here as
// TFLite's reference describes the operator (every input spreads over the output, products summed in a
// scratch array, requantized after), which shares no code with the kernels' gather.
#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cstdint>
#include <random>
#include <vector>

#include "conv_geometry_test_util.h"
#include "microaot/kernels/transpose_conv.h"
#include "requantize_reference.h"

namespace {

using requantize_reference::requantize_s32;
using requantize_reference::requantize_s64;

// Input [batches, in_h, in_w, in_c], filter [out_c, filter_h, filter_w, in_c], output [batches, out_h, out_w,
// out_c]; input (y, x) reaches output (y * stride - pad + tap).
struct Geometry {
  int batches, in_h, in_w, in_c, filter_h, filter_w, out_h, out_w, out_c, stride_h, stride_w, pad_h, pad_w;
  bool has_bias;
};

template <typename Params>
Params params_of(const Geometry& g) {
  Params p{};
  p.batches = g.batches, p.input_height = g.in_h, p.input_width = g.in_w, p.input_depth = g.in_c;
  p.filter_height = g.filter_h, p.filter_width = g.filter_w;
  p.output_height = g.out_h, p.output_width = g.out_w, p.output_depth = g.out_c;
  p.stride_height = g.stride_h, p.stride_width = g.stride_w, p.pad_height = g.pad_h, p.pad_width = g.pad_w;
  return p;
}

size_t input_size(const Geometry& g) { return static_cast<size_t>(g.batches) * g.in_h * g.in_w * g.in_c; }
size_t filter_size(const Geometry& g) { return static_cast<size_t>(g.out_c) * g.filter_h * g.filter_w * g.in_c; }
size_t output_size(const Geometry& g) { return static_cast<size_t>(g.batches) * g.out_h * g.out_w * g.out_c; }

// The scatter: sums[output] += product(input index, filter index) for every input and tap landing inside.
template <typename Acc, typename Product>
std::vector<Acc> scatter(const Geometry& g, Product product) {
  std::vector<Acc> sums(output_size(g), Acc{0});
  for (int b = 0; b < g.batches; ++b)
    for (int y = 0; y < g.in_h; ++y)
      for (int x = 0; x < g.in_w; ++x)
        for (int ic = 0; ic < g.in_c; ++ic)
          for (int fy = 0; fy < g.filter_h; ++fy)
            for (int fx = 0; fx < g.filter_w; ++fx)
              for (int oc = 0; oc < g.out_c; ++oc) {
                const int oy = y * g.stride_h - g.pad_h + fy, ox = x * g.stride_w - g.pad_w + fx;
                if (oy < 0 || oy >= g.out_h || ox < 0 || ox >= g.out_w) continue;
                const size_t in = ((static_cast<size_t>(b) * g.in_h + y) * g.in_w + x) * g.in_c + ic;
                const size_t w = ((static_cast<size_t>(oc) * g.filter_h + fy) * g.filter_w + fx) * g.in_c + ic;
                sums[((static_cast<size_t>(b) * g.out_h + oy) * g.out_w + ox) * g.out_c + oc] += product(in, w);
              }
  return sums;
}

// ---------------------------------------------------------------- float

std::vector<float> run_f32(const Geometry& g, const std::vector<float>& input, const std::vector<float>& filter,
                           const std::vector<float>& bias, float lo = -FLT_MAX, float hi = FLT_MAX) {
  auto p = params_of<microaot_transpose_conv_params_f32>(g);
  p.activation_min = lo, p.activation_max = hi;
  std::vector<float> out(output_size(g), 12345.0f);
  microaot_transpose_conv_f32(&p, input.data(), filter.data(), g.has_bias ? bias.data() : nullptr, out.data());
  return out;
}

TEST(TransposeConvF32, Stride2SpreadsEachInputOverItsBlock) {
  // 2x2 input, 2x2 all-ones filter, stride 2: each input fills its own 2x2 block of the 4x4 output.
  const Geometry g{1, 2, 2, 1, 2, 2, 4, 4, 1, 2, 2, 0, 0, false};
  EXPECT_EQ(run_f32(g, {1, 2, 3, 4}, {1, 1, 1, 1}, {}),
            (std::vector<float>{1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4}));
}

TEST(TransposeConvF32, OverlappingTapsAddUp) {
  // Row [1, 2], filter [1, 10, 100], stride 1: out[x] = sum of in[i] * f[x - i].
  const Geometry g{1, 1, 2, 1, 1, 3, 1, 4, 1, 1, 1, 0, 0, false};
  EXPECT_EQ(run_f32(g, {1, 2}, {1, 10, 100}, {}), (std::vector<float>{1, 12, 120, 200}));
}

TEST(TransposeConvF32, PaddingCutsLeadingOutputsAndBiasAndClampApply) {
  // Stride 2, padding 1: input i reaches x = 2i - 1 + tap. i=0 -> 10 at 0, 100 at 1; i=1 -> 2 at 1, 20 at 2.
  Geometry g{1, 1, 2, 1, 1, 3, 1, 3, 1, 1, 2, 0, 1, false};
  EXPECT_EQ(run_f32(g, {1, 2}, {1, 10, 100}, {}), (std::vector<float>{10, 102, 20}));
  g.has_bias = true;
  EXPECT_EQ(run_f32(g, {1, 2}, {1, 10, 100}, {-15.0f}, 0.0f, 50.0f), (std::vector<float>{0, 50, 5}));
}

TEST(TransposeConvF32, ChannelsAndBatches) {
  // 2 input channels, 2 output channels, 1x1 filter: a per-pixel matrix product; batch 2 reads its own pixel.
  const Geometry g{2, 1, 1, 2, 1, 1, 1, 1, 2, 1, 1, 0, 0, true};
  const std::vector<float> filter = {1, 2, 3, 4};  // out 0: (1, 2), out 1: (3, 4)
  EXPECT_EQ(run_f32(g, {1, 1, 2, -1}, filter, {0.5f, 0}), (std::vector<float>{3.5f, 7, 0.5f, 2}));
}

// ---------------------------------------------------------------- integers

struct Quant {
  int32_t input_zp, output_zp, act_min, act_max;
  std::vector<int32_t> multiplier, shift;
};

template <typename T, typename Bias, typename Kernel>
std::vector<T> run_q(const Geometry& g, const Quant& q, const std::vector<T>& input,
                     const std::vector<int8_t>& filter, const std::vector<Bias>& bias, Kernel kernel) {
  auto p = params_of<microaot_transpose_conv_params_q>(g);
  p.input_offset = -q.input_zp, p.output_offset = q.output_zp;
  p.activation_min = q.act_min, p.activation_max = q.act_max;
  p.output_multiplier = q.multiplier.data(), p.output_shift = q.shift.data();
  std::vector<T> out(output_size(g), static_cast<T>(0x55));
  kernel(&p, input.data(), filter.data(), g.has_bias ? bias.data() : nullptr, out.data());
  return out;
}

TEST(TransposeConvS8, HandComputedOffsetsBiasAndRescale) {
  // Input zero point -1: q [3, 5] is 4, 6. Filter [1, 2, -1], stride 1: sums 4, 14, 8, -6; + bias 10;
  // x0.5 -> 7, 12, 9, 2; + output zero point 3.
  const Geometry g{1, 1, 2, 1, 1, 3, 1, 4, 1, 1, 1, 0, 0, true};
  const Quant q{-1, 3, -128, 127, {1 << 30}, {0}};
  EXPECT_EQ((run_q<int8_t, int32_t>(g, q, {3, 5}, {1, 2, -1}, {10}, microaot_transpose_conv_s8)),
            (std::vector<int8_t>{10, 15, 12, 5}));
  // Clamped to [11, 14] (a fused activation's range).
  const Quant clamp{-1, 3, 11, 14, {1 << 30}, {0}};
  EXPECT_EQ((run_q<int8_t, int32_t>(g, clamp, {3, 5}, {1, 2, -1}, {10}, microaot_transpose_conv_s8)),
            (std::vector<int8_t>{11, 14, 12, 11}));
}

TEST(TransposeConvS16, HandComputedSymmetric64BitSums) {
  // The same sums without offsets: 4, 14, 8, -6 + 10 -> x0.5 with the 16x8 rounding -> 7, 12, 9, 2.
  const Geometry g{1, 1, 2, 1, 1, 3, 1, 4, 1, 1, 1, 0, 0, true};
  const Quant q{0, 0, INT16_MIN, INT16_MAX, {1 << 30}, {0}};
  EXPECT_EQ((run_q<int16_t, int64_t>(g, q, {4, 6}, {1, 2, -1}, {10}, microaot_transpose_conv_s16)),
            (std::vector<int16_t>{7, 12, 9, 2}));
  // A large bias only a 64-bit sum holds: (2^40 + 14) * 2^-30 rounds to 1024.
  const Quant tiny{0, 0, INT16_MIN, INT16_MAX, {1 << 30}, {-29}};
  EXPECT_EQ((run_q<int16_t, int64_t>(g, tiny, {4, 6}, {1, 2, -1}, {int64_t{1} << 40}, microaot_transpose_conv_s16)),
            (std::vector<int16_t>{1024, 1024, 1024, 1024}));
}

// ---------------------------------------------------------------- randomized against the scatter

// A geometry with strides 1-3, filters 1-4, and output sizes near, below and above the usual ones, with a
// padding below the filter size.
Geometry random_geometry(std::mt19937& rng) {
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  Geometry g{};
  g.batches = pick(1, 2), g.in_h = pick(1, 4), g.in_w = pick(1, 4), g.in_c = pick(1, 3);
  g.filter_h = pick(1, 4), g.filter_w = pick(1, 4), g.out_c = pick(1, 3);
  g.stride_h = pick(1, 3), g.stride_w = pick(1, 3);
  g.out_h = std::max(1, g.in_h * g.stride_h + pick(-2, 2)), g.out_w = std::max(1, g.in_w * g.stride_w + pick(-2, 2));
  g.pad_h = pick(0, g.filter_h - 1), g.pad_w = pick(0, g.filter_w - 1);
  g.has_bias = pick(0, 1) == 1;
  return g;
}

TEST(TransposeConvF32, RandomAgreesBitForBitWithTheScatter) {
  std::mt19937 rng(7);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  for (int trial = 0; trial < 300; ++trial) {
    const Geometry g = random_geometry(rng);
    std::vector<float> input(input_size(g)), filter(filter_size(g)), bias(static_cast<size_t>(g.out_c));
    for (float& x : input) x = normal(rng);
    for (float& x : filter) x = normal(rng);
    for (float& x : bias) x = normal(rng);
    std::vector<float> want = scatter<float>(g, [&](size_t i, size_t w) { return input[i] * filter[w]; });
    for (size_t o = 0; o < want.size(); ++o) want[o] = std::max(want[o] + (g.has_bias ? bias[o % g.out_c] : 0), -1.0f);
    ASSERT_EQ(run_f32(g, input, filter, bias, -1.0f, FLT_MAX), want) << "trial " << trial;
  }
}

TEST(TransposeConvS8, RandomAgreesWithTheScatter) {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 300; ++trial) {
    const Geometry g = random_geometry(rng);
    const auto input = random_ints<int8_t>(rng, input_size(g), -128, 127);
    const auto filter = random_ints<int8_t>(rng, filter_size(g), -127, 127);
    const auto bias = random_ints<int32_t>(rng, static_cast<size_t>(g.out_c), -5000, 5000);
    const Quant q{random_ints<int32_t>(rng, 1, -128, 127)[0], random_ints<int32_t>(rng, 1, -128, 127)[0], -100, 120,
                  random_ints<int32_t>(rng, static_cast<size_t>(g.out_c), 1 << 30, INT32_MAX),
                  random_ints<int32_t>(rng, static_cast<size_t>(g.out_c), -12, -6)};
    const std::vector<int32_t> sums =
        scatter<int32_t>(g, [&](size_t i, size_t w) { return (input[i] - q.input_zp) * filter[w]; });
    std::vector<int8_t> want;
    for (size_t o = 0; o < sums.size(); ++o) {
      const int c = static_cast<int>(o % g.out_c);
      const int32_t acc = sums[o] + (g.has_bias ? bias[c] : 0);
      want.push_back(static_cast<int8_t>(
          std::clamp(requantize_s32(acc, q.multiplier[c], q.shift[c]) + q.output_zp, q.act_min, q.act_max)));
    }
    ASSERT_EQ((run_q<int8_t, int32_t>(g, q, input, filter, bias, microaot_transpose_conv_s8)), want)
        << "trial " << trial;
  }
}

TEST(TransposeConvS16, RandomAgreesWithTheScatter) {
  std::mt19937 rng(13);
  for (int trial = 0; trial < 300; ++trial) {
    const Geometry g = random_geometry(rng);
    const auto input = random_ints<int16_t>(rng, input_size(g), INT16_MIN, INT16_MAX);
    const auto filter = random_ints<int8_t>(rng, filter_size(g), -127, 127);
    std::vector<int64_t> bias;
    for (int c = 0; c < g.out_c; ++c) bias.push_back(int64_t{random_ints<int32_t>(rng, 1, -100000, 100000)[0]} * 4096);
    const Quant q{0, 0, -30000, 30000, random_ints<int32_t>(rng, static_cast<size_t>(g.out_c), 1 << 30, INT32_MAX),
                  random_ints<int32_t>(rng, static_cast<size_t>(g.out_c), -20, -12)};
    const std::vector<int64_t> sums =
        scatter<int64_t>(g, [&](size_t i, size_t w) { return int64_t{input[i]} * filter[w]; });
    std::vector<int16_t> want;
    for (size_t o = 0; o < sums.size(); ++o) {
      const int c = static_cast<int>(o % g.out_c);
      const int64_t acc = sums[o] + (g.has_bias ? bias[c] : 0);
      const int32_t value = requantize_s64(acc, q.multiplier[c], q.shift[c]);
      want.push_back(static_cast<int16_t>(std::clamp(value, q.act_min, q.act_max)));
    }
    ASSERT_EQ((run_q<int16_t, int64_t>(g, q, input, filter, bias, microaot_transpose_conv_s16)), want)
        << "trial " << trial;
  }
}

}  // namespace
