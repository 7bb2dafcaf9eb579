// Unit tests of the CONV_2D / DEPTHWISE_CONV_2D kernels: hand-computed cases, then randomized comparisons
// against a reference written here from TFLite's documented arithmetic. The reference pads the input
// explicitly with the zero point (the kernels skip out-of-image taps instead) and rounds with its own
// formulas, so the two share no code.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <vector>

#include "microaot/kernels/conv.h"
#include "conv_geometry_test_util.h"
#include "dw_ring_args_test_util.h"
#include "requantize_reference.h"

namespace {

using requantize_reference::requantize_s32;
using requantize_reference::requantize_s64;

// ---------------------------------------------------------------- geometry

struct Case {
  int batches, in_h, in_w, in_c;
  int filter_h, filter_w;
  int filter_c;  // conv: filter depth (in_c / groups); depthwise: depth multiplier
  int out_c;
  int stride_h, stride_w, dilation_h, dilation_w;
  bool same;
  bool has_bias;
  // derived by finish()
  int out_h = 0, out_w = 0, pad_h = 0, pad_w = 0;
};

void axis(bool same, int in, int filter, int stride, int dilation, int& out, int& pad) {
  const int extent = (filter - 1) * dilation + 1;
  out = same ? (in + stride - 1) / stride : (in - extent) / stride + 1;
  pad = same ? std::max(0, ((out - 1) * stride + extent - in) / 2) : 0;
}

Case finish(Case k) {
  axis(k.same, k.in_h, k.filter_h, k.stride_h, k.dilation_h, k.out_h, k.pad_h);
  axis(k.same, k.in_w, k.filter_w, k.stride_w, k.dilation_w, k.out_w, k.pad_w);
  return k;
}

// The input surrounded by `fill` so that every tap of every output lands inside the array.
template <typename T>
struct Padded {
  int h, w, c;
  std::vector<T> data;
  T at(int b, int y, int x, int ch) const { return data[((static_cast<size_t>(b) * h + y) * w + x) * c + ch]; }
};

template <typename T>
Padded<T> pad_input(const Case& k, const std::vector<T>& input, T fill) {
  Padded<T> p;
  p.h = std::max(k.pad_h + k.in_h, (k.out_h - 1) * k.stride_h + (k.filter_h - 1) * k.dilation_h + 1);
  p.w = std::max(k.pad_w + k.in_w, (k.out_w - 1) * k.stride_w + (k.filter_w - 1) * k.dilation_w + 1);
  p.c = k.in_c;
  p.data.assign(static_cast<size_t>(k.batches) * p.h * p.w * p.c, fill);
  for (int b = 0; b < k.batches; ++b)
    for (int y = 0; y < k.in_h; ++y)
      for (int x = 0; x < k.in_w; ++x)
        for (int ch = 0; ch < k.in_c; ++ch)
          p.data[((static_cast<size_t>(b) * p.h + y + k.pad_h) * p.w + x + k.pad_w) * p.c + ch] =
              input[((static_cast<size_t>(b) * k.in_h + y) * k.in_w + x) * k.in_c + ch];
  return p;
}

// Sum over taps of f(input value, filter index) for one output (conv or depthwise addressing).
template <typename T, typename Acc, typename F>
Acc ref_taps(const Case& k, bool depthwise, const Padded<T>& p, int b, int oy, int ox, int oc, F f) {
  Acc acc = 0;
  for (int fy = 0; fy < k.filter_h; ++fy) {
    for (int fx = 0; fx < k.filter_w; ++fx) {
      const int y = oy * k.stride_h + fy * k.dilation_h, x = ox * k.stride_w + fx * k.dilation_w;
      if (depthwise) {
        acc += f(p.at(b, y, x, oc / k.filter_c), (fy * k.filter_w + fx) * k.out_c + oc);
        continue;
      }
      const int group = oc / (k.out_c / (k.in_c / k.filter_c));
      for (int ci = 0; ci < k.filter_c; ++ci) {
        acc += f(p.at(b, y, x, group * k.filter_c + ci), ((oc * k.filter_h + fy) * k.filter_w + fx) * k.filter_c + ci);
      }
    }
  }
  return acc;
}

size_t output_size(const Case& k) { return static_cast<size_t>(k.batches) * k.out_h * k.out_w * k.out_c; }
size_t input_size(const Case& k) { return static_cast<size_t>(k.batches) * k.in_h * k.in_w * k.in_c; }
size_t filter_size(const Case& k, bool depthwise) {
  return static_cast<size_t>(k.filter_h) * k.filter_w * (depthwise ? k.out_c : k.out_c * k.filter_c);
}

// ---------------------------------------------------------------- int8

struct QuantS8 {
  int32_t input_zp, output_zp, act_min, act_max;
  std::vector<int32_t> multiplier, shift;
};

std::vector<int8_t> ref_s8(const Case& k, bool depthwise, const QuantS8& q, const std::vector<int8_t>& input,
                           const std::vector<int8_t>& filter, const std::vector<int32_t>& bias) {
  const Padded<int8_t> p = pad_input(k, input, static_cast<int8_t>(q.input_zp));
  std::vector<int8_t> out;
  for (int b = 0; b < k.batches; ++b)
    for (int oy = 0; oy < k.out_h; ++oy)
      for (int ox = 0; ox < k.out_w; ++ox)
        for (int oc = 0; oc < k.out_c; ++oc) {
          int32_t acc = ref_taps<int8_t, int32_t>(k, depthwise, p, b, oy, ox, oc, [&](int8_t v, int w) {
            return (v - q.input_zp) * filter[w];
          });
          if (k.has_bias) acc += bias[oc];
          const int32_t value = requantize_s32(acc, q.multiplier[oc], q.shift[oc]) + q.output_zp;
          out.push_back(static_cast<int8_t>(std::min(std::max(value, q.act_min), q.act_max)));
        }
  return out;
}

template <typename P>
void fill_quant(P& params, const QuantS8& q) {
  params.input_offset = -q.input_zp, params.output_offset = q.output_zp;
  params.activation_min = q.act_min, params.activation_max = q.act_max;
  params.output_multiplier = q.multiplier.data(), params.output_shift = q.shift.data();
}

// Runs an integer conv kernel or, for depthwise, the depthwise one (nullptr where there is none).
template <typename T, typename Bias>
std::vector<T> run_q(const Case& k, bool depthwise, const QuantS8& q, const std::vector<T>& input,
                     const std::vector<int8_t>& filter, const std::vector<Bias>& bias,
                     void (*conv)(const microaot_conv_2d_params_q*, const T*, const int8_t*, const Bias*, T*),
                     void (*depthwise_conv)(const microaot_depthwise_conv_2d_params_q*, const T*, const int8_t*,
                                            const Bias*, T*)) {
  std::vector<T> out(output_size(k), static_cast<T>(0x55));
  const Bias* bias_ptr = k.has_bias ? bias.data() : nullptr;
  if (depthwise) {
    microaot_depthwise_conv_2d_params_q params{};
    set_conv_window(params, k);
    fill_quant(params, q);
    params.depth_multiplier = k.filter_c;
    depthwise_conv(&params, input.data(), filter.data(), bias_ptr, out.data());
  } else {
    microaot_conv_2d_params_q params{};
    set_conv_window(params, k);
    fill_quant(params, q);
    params.filter_depth = k.filter_c;
    conv(&params, input.data(), filter.data(), bias_ptr, out.data());
  }
  return out;
}

std::vector<int8_t> run_s8(const Case& k, bool depthwise, const QuantS8& q, const std::vector<int8_t>& input,
                           const std::vector<int8_t>& filter, const std::vector<int32_t>& bias) {
  return run_q(k, depthwise, q, input, filter, bias, microaot_conv_2d_s8, microaot_depthwise_conv_2d_s8);
}

// ---------------------------------------------------------------- hand-computed cases

Case tiny_case() { return finish({1, 3, 3, 1, 2, 2, 1, 1, 1, 1, 1, 1, false, false}); }

TEST(ConvS8, HandComputedTwoRoundings) {
  const Case k = tiny_case();
  const std::vector<int8_t> input = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  const std::vector<int8_t> filter = {1, 2, 3, 4};
  // x0.5: sums 37, 47, 67, 77 -> 18.5, 23.5, 33.5, 38.5 round half up in the high multiply.
  QuantS8 half{0, 0, -128, 127, {1 << 30}, {0}};
  EXPECT_EQ(run_s8(k, false, half, input, filter, {}), (std::vector<int8_t>{19, 24, 34, 39}));
  // x0.25: 37 -> high multiply 19 -> shift rounds 9.5 away from zero -> 10 (a single rounding would give 9);
  // likewise 77 -> 39 -> 20 (19.25 exactly).
  QuantS8 quarter{0, 0, -128, 127, {1 << 30}, {-1}};
  EXPECT_EQ(run_s8(k, false, quarter, input, filter, {}), (std::vector<int8_t>{10, 12, 17, 20}));
  // Negative values: -37 * 0.25 = -9.25 -> -9.
  const std::vector<int8_t> negative = {-1, -2, -3, -4, -5, -6, -7, -8, -9};
  EXPECT_EQ(run_s8(k, false, quarter, negative, filter, {}), (std::vector<int8_t>{-9, -12, -17, -19}));
}

TEST(ConvS8, OffsetsBiasAndClamp) {
  Case k = tiny_case();
  k.has_bias = true;
  // Input zero point 3: the values below are real 1..9 again; bias 3, output zero point -10, clamp at 30.
  const std::vector<int8_t> input = {4, 5, 6, 7, 8, 9, 10, 11, 12};
  const std::vector<int8_t> filter = {1, 2, 3, 4};
  QuantS8 q{3, -10, -128, 30, {1 << 30}, {0}};
  // (37+3)/2-10 = 10, (47+3)/2-10 = 15, (67+3)/2-10 = 25, (77+3)/2-10 = 30 -> clamp 30.
  EXPECT_EQ(run_s8(k, false, q, input, filter, {3}), (std::vector<int8_t>{10, 15, 25, 30}));
}

TEST(ConvS8, SamePaddingSkipsTapsOutsideTheImage) {
  // 1x2x2x1 input, 3x3 all-ones filter, SAME: every output sums the whole image (4 taps inside).
  const Case k = finish({1, 2, 2, 1, 3, 3, 1, 1, 1, 1, 1, 1, true, false});
  ASSERT_EQ(k.pad_h, 1);
  const std::vector<int8_t> input = {-100, -99, -98, -97};  // zero point -100: real 0, 1, 2, 3
  const std::vector<int8_t> filter(9, 1);
  QuantS8 q{-100, 0, -128, 127, {1 << 30}, {1}};  // x1.0 as multiplier 0.5 with a left shift of 1
  EXPECT_EQ(run_s8(k, false, q, input, filter, {}), (std::vector<int8_t>{6, 6, 6, 6}));
}

TEST(DepthwiseConvS8, HandComputedDepthMultiplier) {
  // 1x2x2x2 input, 1x1x2x4 filter (multiplier 2), VALID -> 1x2x1x4; per-channel multipliers.
  Case k = finish({1, 2, 2, 2, 1, 2, 2, 4, 1, 1, 1, 1, false, true});
  const std::vector<int8_t> input = {1, 10, 2, 20, 3, 30, 4, 40};  // (y, x, c)
  const std::vector<int8_t> filter = {1, 2, 3, 4, 5, 6, 7, 8};      // (x, oc)
  QuantS8 q{0, 0, -128, 127, {1 << 30, 1 << 30, 1 << 30, 1 << 30}, {1, 1, 0, -1}};  // x1, x1, x0.5, x0.25
  // oc0 = in c0: 1*1 + 2*5 = 11; oc1: 1*2 + 2*6 = 14; oc2 = in c1: 10*3 + 20*7 = 170; oc3: 10*4 + 20*8 = 200.
  // + bias {1, -4, 2, -1}, then scale: 12, 10, 86, 49.75 -> 50.
  const std::vector<int8_t> expect_row0 = {12, 10, 86, 50};
  const std::vector<int8_t> got = run_s8(k, true, q, input, filter, {1, -4, 2, -1});
  EXPECT_EQ(std::vector<int8_t>(got.begin(), got.begin() + 4), expect_row0);
  // Row 1: oc0: 3 + 20 = 23 -> 24; oc1: 6 + 24 = 30 -> 26; oc2: 90 + 280 = 370 -> 186 -> clamp 127;
  // oc3: 120 + 320 = 440 - 1 = 439 -> 109.75 -> 110.
  EXPECT_EQ(std::vector<int8_t>(got.begin() + 4, got.end()), (std::vector<int8_t>{24, 26, 127, 110}));
}

// ---------------------------------------------------------------- randomized comparisons

struct Named {
  const char* name;
  Case k;
};

// conv: filter_c is the filter depth; depthwise: filter_c is the depth multiplier.
const Named kConvCases[] = {
    {"valid_3x3", {1, 5, 5, 3, 3, 3, 3, 4, 1, 1, 1, 1, false, true}},
    {"same_stride2", {1, 9, 9, 4, 3, 3, 4, 6, 2, 2, 1, 1, true, true}},
    {"valid_stride2", {1, 9, 9, 4, 3, 3, 4, 6, 2, 2, 1, 1, false, true}},
    {"same_dilation2", {1, 10, 10, 2, 3, 3, 2, 4, 1, 1, 2, 2, true, true}},
    {"batch2_1x1_nobias", {2, 5, 7, 3, 1, 1, 3, 5, 1, 1, 1, 1, false, false}},
    {"tall_filter_stride2_same", {1, 13, 10, 1, 5, 4, 1, 8, 2, 2, 1, 1, true, true}},
    {"mixed_stride_dilation", {2, 8, 9, 3, 3, 2, 3, 5, 1, 2, 2, 1, true, true}},
    {"filter_larger_than_input", {1, 3, 3, 2, 5, 5, 2, 3, 1, 1, 1, 1, true, true}},
    {"grouped_2", {1, 6, 6, 4, 3, 3, 2, 6, 1, 1, 1, 1, true, true}},
    {"grouped_depthwise_like", {1, 5, 5, 3, 3, 3, 1, 3, 2, 1, 1, 1, true, false}},
};

const Named kDepthwiseCases[] = {
    {"m1_same", {1, 8, 8, 4, 3, 3, 1, 4, 1, 1, 1, 1, true, true}},
    {"m8_from_1", {1, 10, 10, 1, 3, 3, 8, 8, 1, 1, 1, 1, true, true}},
    {"m3_dilation2", {1, 10, 10, 2, 3, 3, 3, 6, 1, 1, 2, 2, true, true}},
    {"m2_stride2_valid", {1, 9, 9, 3, 3, 3, 2, 6, 2, 2, 1, 1, false, true}},
    {"batch2_nobias", {2, 6, 5, 3, 2, 3, 1, 3, 1, 2, 1, 1, true, false}},
    {"filter_larger_than_input", {1, 2, 3, 2, 5, 3, 2, 4, 1, 1, 1, 2, true, true}},
};

QuantS8 random_quant(std::mt19937& rng, int channels, int min_shift, int max_shift) {
  QuantS8 q;
  q.input_zp = std::uniform_int_distribution<int>(-128, 127)(rng);
  q.output_zp = std::uniform_int_distribution<int>(-60, 60)(rng);
  q.act_min = std::uniform_int_distribution<int>(-128, -20)(rng);
  q.act_max = std::uniform_int_distribution<int>(20, 127)(rng);
  q.multiplier = random_ints<int32_t>(rng, channels, 1 << 30, INT32_MAX);
  q.shift = random_ints<int32_t>(rng, channels, min_shift, max_shift);
  return q;
}

void compare_s8(const Named& c, bool depthwise, unsigned seed, int min_shift, int max_shift) {
  SCOPED_TRACE(c.name);
  const Case k = finish(c.k);
  std::mt19937 rng(seed);
  const QuantS8 q = random_quant(rng, k.out_c, min_shift, max_shift);
  const auto input = random_ints<int8_t>(rng, input_size(k), -128, 127);
  const auto filter = random_ints<int8_t>(rng, filter_size(k, depthwise), -127, 127);
  const auto bias = random_ints<int32_t>(rng, k.out_c, -5000, 5000);
  EXPECT_EQ(run_s8(k, depthwise, q, input, filter, bias), ref_s8(k, depthwise, q, input, filter, bias));
}

TEST(ConvS8, MatchesReferenceArithmetic) {
  for (const Named& c : kConvCases) {
    for (unsigned seed = 1; seed <= 3; ++seed) compare_s8(c, false, seed, -12, -5);
  }
}

TEST(ConvS8, LeftShiftsMatchReference) {
  // Small filters keep acc * 2^shift inside int32, as real models with multipliers above 1 do.
  const Named c = {"left_shift", {1, 4, 4, 2, 1, 1, 2, 3, 1, 1, 1, 1, false, false}};
  for (unsigned seed = 1; seed <= 5; ++seed) compare_s8(c, false, seed, 0, 2);
}

TEST(DepthwiseConvS8, MatchesReferenceArithmetic) {
  for (const Named& c : kDepthwiseCases) {
    for (unsigned seed = 1; seed <= 3; ++seed) compare_s8(c, true, seed, -10, -3);
  }
}

// The portable ring kernel, its requantization passed as the compiler passes it (the params' arrays NULL):
// status OK (checked here).
void ring_s8(const microaot_depthwise_conv_2d_params_q* p, const int8_t* input, const int8_t* filter,
             const int32_t* bias, int8_t* output) {
  const DwRingArgs ring(*p);
  EXPECT_EQ(microaot_depthwise_conv_2d_s8_ring(&ring.params, input, filter, bias, ring.requant.data(), output),
            MICROAOT_STATUS_OK);
}

// The portable ring kernel computes with its requantization argument (the reference's results); without it,
// NULL_POINTER and nothing written.
TEST(DepthwiseConvS8Ring, PortableTakesTheRequantizationAsAnArgument) {
  const Case k = finish(kDepthwiseCases[0].k);  // m1_same: 3x3, stride 1, depth multiplier 1, depth 4
  std::mt19937 rng(5);
  const QuantS8 q = random_quant(rng, k.out_c, -10, -3);
  const auto input = random_ints<int8_t>(rng, input_size(k), -128, 127);
  const auto filter = random_ints<int8_t>(rng, filter_size(k, true), -127, 127);
  const auto bias = random_ints<int32_t>(rng, k.out_c, -5000, 5000);
  EXPECT_EQ((run_q<int8_t, int32_t>(k, true, q, input, filter, bias, nullptr, ring_s8)),
            ref_s8(k, true, q, input, filter, bias));
  const std::vector<int8_t> untouched(output_size(k), 0x55);
  std::vector<int8_t> out = untouched;
  microaot_depthwise_conv_2d_params_q params{};
  set_conv_window(params, k);
  EXPECT_EQ(microaot_depthwise_conv_2d_s8_ring(&params, input.data(), filter.data(), bias.data(), nullptr,
                                               out.data()),
            MICROAOT_STATUS_NULL_POINTER);
  EXPECT_EQ(out, untouched);
}

// ---------------------------------------------------------------- int16 (16x8)

// int16 tensors are symmetric: QuantS8 with both zero points 0 and an int16 clamp range. Bias int64_t: the
// 64-bit kernels; int32_t: the _bias32 flavor (32-bit sums and requantization).
template <typename Bias>
std::vector<int16_t> ref_s16(const Case& k, bool depthwise, const QuantS8& q, const std::vector<int16_t>& input,
                             const std::vector<int8_t>& filter, const std::vector<Bias>& bias) {
  const Padded<int16_t> p = pad_input(k, input, int16_t{0});
  std::vector<int16_t> out;
  for (int b = 0; b < k.batches; ++b)
    for (int oy = 0; oy < k.out_h; ++oy)
      for (int ox = 0; ox < k.out_w; ++ox)
        for (int oc = 0; oc < k.out_c; ++oc) {
          int64_t acc = ref_taps<int16_t, int64_t>(k, depthwise, p, b, oy, ox, oc,
                                                   [&](int16_t v, int w) { return int64_t{v} * filter[w]; });
          if (k.has_bias) acc += bias[oc];
          const int32_t value = sizeof(Bias) == 8 ? requantize_s64(acc, q.multiplier[oc], q.shift[oc])
                                                  : requantize_s32(static_cast<int32_t>(acc), q.multiplier[oc],
                                                                   q.shift[oc]);
          out.push_back(static_cast<int16_t>(std::min(std::max(value, q.act_min), q.act_max)));
        }
  return out;
}

template <typename Bias>
std::vector<int16_t> run_s16(const Case& k, bool depthwise, const QuantS8& q, const std::vector<int16_t>& input,
                             const std::vector<int8_t>& filter, const std::vector<Bias>& bias) {
  if constexpr (sizeof(Bias) == 8) {
    return run_q(k, depthwise, q, input, filter, bias, microaot_conv_2d_s16, microaot_depthwise_conv_2d_s16);
  } else {
    return run_q<int16_t, Bias>(k, depthwise, q, input, filter, bias, microaot_conv_2d_s16_bias32, nullptr);
  }
}

const std::vector<int16_t> kThousands = {1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000, 9000};

TEST(ConvS16, SixteenBitMultiplier) {
  // Sums 37000, 47000, 67000, 77000. The multiplier 2^30 + 2^15 - 1 is 0.50001525 in 32 bits, but its top 16
  // bits (rounded) are exactly 0.5 for the 64-bit requantization: 18500 ... against 18501 ... with int32
  // (the last two clamp at 32767).
  const Case k = tiny_case();
  const std::vector<int8_t> filter = {1, 2, 3, 4};
  const QuantS8 q{0, 0, INT16_MIN, INT16_MAX, {(1 << 30) + (1 << 15) - 1}, {0}};
  EXPECT_EQ(run_s16<int64_t>(k, false, q, kThousands, filter, {}), (std::vector<int16_t>{18500, 23500, 32767, 32767}));
  EXPECT_EQ(run_s16<int32_t>(k, false, q, kThousands, filter, {}), (std::vector<int16_t>{18501, 23501, 32767, 32767}));
}

TEST(ConvS16, OneRoundingHalfUp) {
  // (-37000 + 64) / 16 = -2308.5: one rounding, half up, gives -2308, where the 32-bit path rounds the tie
  // away from zero (-2309); likewise -2933.5. The other two (-4183.5, -4808.5) clamp at -4000.
  Case k = tiny_case();
  k.has_bias = true;
  std::vector<int16_t> negative;
  for (int16_t v : kThousands) negative.push_back(static_cast<int16_t>(-v));
  const std::vector<int8_t> filter = {1, 2, 3, 4};
  const QuantS8 q{0, 0, -4000, INT16_MAX, {1 << 30}, {-3}};
  EXPECT_EQ(run_s16<int64_t>(k, false, q, negative, filter, {64}), (std::vector<int16_t>{-2308, -2933, -4000, -4000}));
  EXPECT_EQ(run_s16<int32_t>(k, false, q, negative, filter, {64}), (std::vector<int16_t>{-2309, -2934, -4000, -4000}));
}

TEST(DepthwiseConvS16, HandComputedDepthMultiplier) {
  // As the int8 case with inputs x1000: oc0 = 11000 + 1 -> x1 = 11001; oc1 = 14000 - 4 -> 13996; oc2 = 170000
  // + 2 -> x0.5 = 85001 and oc3 = 200000 - 1 -> x0.25 = 49999.75 both clamp at 32767.
  Case k = finish({1, 2, 2, 2, 1, 2, 2, 4, 1, 1, 1, 1, false, true});
  const std::vector<int16_t> input = {1000, 10000, 2000, 20000, 3000, 30000, 4000, 32000};
  const std::vector<int8_t> filter = {1, 2, 3, 4, 5, 6, 7, 8};
  const QuantS8 q{0, 0, INT16_MIN, INT16_MAX, {1 << 30, 1 << 30, 1 << 30, 1 << 30}, {1, 1, 0, -1}};
  const std::vector<int16_t> got = run_s16<int64_t>(k, true, q, input, filter, {1, -4, 2, -1});
  EXPECT_EQ(std::vector<int16_t>(got.begin(), got.begin() + 4), (std::vector<int16_t>{11001, 13996, 32767, 32767}));
}

QuantS8 random_quant_s16(std::mt19937& rng, int channels, int min_shift, int max_shift) {
  QuantS8 q = random_quant(rng, channels, min_shift, max_shift);
  q.input_zp = q.output_zp = 0;
  q.act_min = std::uniform_int_distribution<int>(INT16_MIN, -2000)(rng);
  q.act_max = std::uniform_int_distribution<int>(2000, INT16_MAX)(rng);
  return q;
}

template <typename Bias>
void compare_s16(const Named& c, bool depthwise, unsigned seed, int min_shift, int max_shift) {
  SCOPED_TRACE(c.name);
  const Case k = finish(c.k);
  std::mt19937 rng(seed);
  const QuantS8 q = random_quant_s16(rng, k.out_c, min_shift, max_shift);
  const auto input = random_ints<int16_t>(rng, input_size(k), INT16_MIN, INT16_MAX);
  const auto filter = random_ints<int8_t>(rng, filter_size(k, depthwise), -127, 127);
  const auto bias = random_ints<Bias>(rng, k.out_c, -2000000, 2000000);
  EXPECT_EQ(run_s16(k, depthwise, q, input, filter, bias), ref_s16(k, depthwise, q, input, filter, bias));
}

TEST(ConvS16, MatchesReferenceArithmetic) {
  for (const Named& c : kConvCases) {
    for (unsigned seed = 1; seed <= 3; ++seed) {
      compare_s16<int64_t>(c, false, seed, -17, -8);
      compare_s16<int32_t>(c, false, seed, -17, -8);
    }
  }
}

TEST(DepthwiseConvS16, MatchesReferenceArithmetic) {
  for (const Named& c : kDepthwiseCases) {
    for (unsigned seed = 1; seed <= 3; ++seed) compare_s16<int64_t>(c, true, seed, -14, -6);
  }
}

// ---------------------------------------------------------------- float32

std::vector<float> ref_f32(const Case& k, bool depthwise, float act_min, float act_max, const std::vector<float>& input,
                           const std::vector<float>& filter, const std::vector<float>& bias) {
  const Padded<float> p = pad_input(k, input, 0.0f);
  std::vector<float> out;
  for (int b = 0; b < k.batches; ++b)
    for (int oy = 0; oy < k.out_h; ++oy)
      for (int ox = 0; ox < k.out_w; ++ox)
        for (int oc = 0; oc < k.out_c; ++oc) {
          double total = ref_taps<float, double>(k, depthwise, p, b, oy, ox, oc,
                                                 [&](float v, int w) { return double{v} * filter[w]; });
          if (k.has_bias) total += bias[oc];
          out.push_back(static_cast<float>(std::min(std::max(total, double{act_min}), double{act_max})));
        }
  return out;
}

std::vector<float> run_f32(const Case& k, bool depthwise, float act_min, float act_max, const std::vector<float>& input,
                           const std::vector<float>& filter, const std::vector<float>& bias) {
  std::vector<float> out(output_size(k), -12345.0f);
  const float* bias_ptr = k.has_bias ? bias.data() : nullptr;
  if (depthwise) {
    microaot_depthwise_conv_2d_params_f32 params{};
    set_conv_window(params, k);
    params.depth_multiplier = k.filter_c;
    params.activation_min = act_min, params.activation_max = act_max;
    microaot_depthwise_conv_2d_f32(&params, input.data(), filter.data(), bias_ptr, out.data());
  } else {
    microaot_conv_2d_params_f32 params{};
    set_conv_window(params, k);
    params.filter_depth = k.filter_c;
    params.activation_min = act_min, params.activation_max = act_max;
    microaot_conv_2d_f32(&params, input.data(), filter.data(), bias_ptr, out.data());
  }
  return out;
}

std::vector<float> random_floats(std::mt19937& rng, size_t n) {
  std::normal_distribution<float> dist(0.0f, 1.0f);
  std::vector<float> v(n);
  for (float& x : v) x = dist(rng);
  return v;
}

void compare_f32(const Named& c, bool depthwise, unsigned seed) {
  SCOPED_TRACE(c.name);
  const Case k = finish(c.k);
  std::mt19937 rng(seed);
  const auto input = random_floats(rng, input_size(k));
  const auto filter = random_floats(rng, filter_size(k, depthwise));
  const auto bias = random_floats(rng, k.out_c);
  const float act_min = seed == 1 ? -3.0e38f : 0.0f, act_max = seed == 1 ? 3.0e38f : 1.5f;
  const auto got = run_f32(k, depthwise, act_min, act_max, input, filter, bias);
  const auto want = ref_f32(k, depthwise, act_min, act_max, input, filter, bias);
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-5 + 1e-5 * std::fabs(want[i])) << i;
}

TEST(ConvF32, HandComputed) {
  Case k = tiny_case();
  k.has_bias = true;
  const std::vector<float> input = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  const std::vector<float> filter = {0.5f, 1, -1, 2};  // 0.5*a + b - d + 2*e
  // (0,0): 0.5 + 2 - 4 + 10 = 8.5, + bias 0.25 = 8.75; (0,1): 1 + 3 - 5 + 12 = 11 -> 11.25;
  // (1,0): 2 + 5 - 7 + 16 = 16 -> 16.25; (1,1): 2.5 + 6 - 8 + 18 = 18.5 -> 18.75; both clamped at 12.
  EXPECT_EQ(run_f32(k, false, 0.0f, 12.0f, input, filter, {0.25f}), (std::vector<float>{8.75f, 11.25f, 12.0f, 12.0f}));
}

TEST(ConvF32, MatchesReference) {
  for (const Named& c : kConvCases) {
    for (unsigned seed = 1; seed <= 2; ++seed) compare_f32(c, false, seed);
  }
}

TEST(DepthwiseConvF32, MatchesReference) {
  for (const Named& c : kDepthwiseCases) {
    for (unsigned seed = 1; seed <= 2; ++seed) compare_f32(c, true, seed);
  }
}

// ---------------------------------------------------------------- hybrid (float32 activations, int8 weights)

std::vector<float> run_hybrid(const Case& k, bool depthwise, float act_min, float act_max,
                              const std::vector<float>& input, const std::vector<int8_t>& filter,
                              const std::vector<float>& scales, const std::vector<float>& bias) {
  std::vector<float> out(output_size(k), -12345.0f);
  const float* bias_ptr = k.has_bias ? bias.data() : nullptr;
  if (depthwise) {
    microaot_depthwise_conv_2d_params_hybrid params{};
    set_conv_window(params, k);
    params.depth_multiplier = k.filter_c;
    params.activation_min = act_min, params.activation_max = act_max, params.filter_scale = scales.data();
    microaot_depthwise_conv_2d_f32_s8w(&params, input.data(), filter.data(), bias_ptr, out.data());
  } else {
    microaot_conv_2d_params_hybrid params{};
    set_conv_window(params, k);
    params.filter_depth = k.filter_c;
    params.activation_min = act_min, params.activation_max = act_max, params.filter_scale = scales.data();
    microaot_conv_2d_f32_s8w(&params, input.data(), filter.data(), bias_ptr, out.data());
  }
  return out;
}

// Filter element i times its output channel's scale (OHWI: channel-major; 1HWC: channel-minor).
std::vector<float> dequantize(const Case& k, bool depthwise, const std::vector<int8_t>& filter,
                              const std::vector<float>& scales) {
  const size_t per_channel = filter.size() / static_cast<size_t>(k.out_c);
  std::vector<float> result(filter.size());
  for (size_t i = 0; i < filter.size(); ++i) {
    result[i] = filter[i] * scales[depthwise ? i % static_cast<size_t>(k.out_c) : i / per_channel];
  }
  return result;
}

// The hybrid kernel against the float kernel on the dequantized filter: the same model up to the order of
// float roundings, so within the float kernels' own tolerance.
void compare_hybrid(const Named& c, bool depthwise, unsigned seed) {
  SCOPED_TRACE(c.name);
  const Case k = finish(c.k);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> scale(0.002f, 0.02f);
  const auto input = random_floats(rng, input_size(k));
  const auto filter = random_ints<int8_t>(rng, filter_size(k, depthwise), -127, 127);
  const auto bias = random_floats(rng, k.out_c);
  std::vector<float> scales(static_cast<size_t>(k.out_c));
  for (float& s : scales) s = scale(rng);
  const float act_min = seed == 1 ? -3.0e38f : 0.0f, act_max = seed == 1 ? 3.0e38f : 1.5f;
  const auto got = run_hybrid(k, depthwise, act_min, act_max, input, filter, scales, bias);
  const auto want = run_f32(k, depthwise, act_min, act_max, input, dequantize(k, depthwise, filter, scales), bias);
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-5 + 1e-5 * std::fabs(want[i])) << i;
}

TEST(ConvHybrid, HandComputedScaleBeforeBias) {
  Case k = tiny_case();
  k.has_bias = true;
  const std::vector<float> input = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  const std::vector<int8_t> filter = {1, 2, -2, 4};  // ConvF32.HandComputed's {0.5, 1, -1, 2} at scale 0.5
  EXPECT_EQ(run_hybrid(k, false, 0.0f, 12.0f, input, filter, {0.5f}, {0.25f}),
            (std::vector<float>{8.75f, 11.25f, 12.0f, 12.0f}));
}

TEST(ConvHybrid, MatchesTheFloatKernelOnDequantizedWeights) {
  for (const Named& c : kConvCases) {
    for (unsigned seed = 1; seed <= 2; ++seed) compare_hybrid(c, false, seed);
  }
}

TEST(DepthwiseConvHybrid, MatchesTheFloatKernelOnDequantizedWeights) {
  for (const Named& c : kDepthwiseCases) {
    for (unsigned seed = 1; seed <= 2; ++seed) compare_hybrid(c, true, seed);
  }
}

}  // namespace
