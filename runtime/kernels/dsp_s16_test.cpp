// The DSP 16x8 kernels (int16 activations, int8 weights: runtime/kernels/dsp/conv_2d_s16.c,
// depthwise_conv_2d_s16.c, fully_connected_s16.c, linked under microaot_dsp_* names) against the portable ones:
// random layers (strides, dilations, padding, odd channel counts, 1x1 and k x k filters, grouped ones for the
// fallback, with and without a bias, clamps), windows and rows beyond the stack buffers (reduced in pieces),
// FULLY_CONNECTED zero points, depthwise multipliers and filters past the fast path's taps, multipliers that keep
// most outputs inside the int16 range (a saturated output would hide a wrong sum), and extreme inputs whose sums
// leave int32 (the int64 chunks).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "conv_geometry_test_util.h"
#include "random_conv_geometry_test_util.h"
#include "microaot/fit/dsp_s16.h"
#include "microaot/kernels/conv.h"
#include "microaot/kernels/fully_connected.h"
#include "multiplier_test_util.h"

extern "C" {
void microaot_dsp_conv_2d_s16(const microaot_conv_2d_params_q* params, const int16_t* input, const int8_t* filter,
                              const int64_t* bias, int16_t* output);
void microaot_dsp_conv_2d_s16_overlap(const microaot_conv_2d_params_q* params, const int16_t* input,
                                      const int8_t* filter, const int64_t* bias, int16_t* output, void* scratch);
void microaot_dsp_depthwise_conv_2d_s16(const microaot_depthwise_conv_2d_params_q* params, const int16_t* input,
                                        const int8_t* filter, const int64_t* bias, int16_t* output);
void microaot_dsp_depthwise_conv_2d_s16_overlap(const microaot_depthwise_conv_2d_params_q* params,
                                                const int16_t* input, const int8_t* filter, const int64_t* bias,
                                                int16_t* output, void* scratch);
void microaot_dsp_fully_connected_s16(const microaot_fully_connected_params_q* params, const int16_t* input,
                                      const int8_t* weights, const int64_t* bias, int16_t* output);
}

namespace {

int draw(std::mt19937& rng, int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }

// The layer's data: inputs over the whole int16 range, or (extreme) every input -32768 and every weight -128 (one
// in 64 of them 127), whose sums of more than 520 products leave int32.
struct Data {
  std::vector<int16_t> input;
  std::vector<int8_t> weights;
  std::vector<int64_t> bias;
};

Data random_data(std::mt19937& rng, size_t inputs, size_t weights, int channels, bool extreme) {
  Data d{random_ints<int16_t>(rng, inputs, -32768, 32767), random_ints<int8_t>(rng, weights, -128, 127),
         random_ints<int64_t>(rng, static_cast<size_t>(channels), -4000000, 4000000)};
  if (extreme) {
    for (int16_t& x : d.input) x = -32768;
    for (int8_t& w : d.weights) w = draw(rng, 0, 63) == 0 ? 127 : -128;
  }
  return d;
}

// Per-channel multipliers scaling a typical sum of `terms` products to a few thousand (extreme: the largest
// sum, terms * 2^22, to ~20000).
template <typename Params>
void set_requantization(Params& p, std::mt19937& rng, int channels, int terms, bool extreme,
                        std::vector<int32_t>& multiplier, std::vector<int32_t>& shift) {
  const double typical = extreme ? terms * 4194304.0 : 32768.0 * 74.0 * std::sqrt(static_cast<double>(terms));
  multiplier.clear(), shift.clear();
  for (int c = 0; c < channels; ++c) {
    const multiplier_test::Multiplier m = multiplier_test::quantize(draw(rng, 1000, 20000) / typical);
    multiplier.push_back(m.mantissa);
    shift.push_back(m.shift);
  }
  p.output_multiplier = multiplier.data(), p.output_shift = shift.data();
  p.output_offset = 0;
  const int clamp = draw(rng, 0, 2);  // none, ReLU, ReLU6-like
  p.activation_min = clamp == 0 ? -32768 : 0, p.activation_max = clamp == 2 ? 6000 : 32767;
}

// Outputs that are neither clamp bound: the comparison must see enough of them to mean something.
int unclamped(const std::vector<int16_t>& out, int lo, int hi) {
  int n = 0;
  for (int16_t v : out) n += v != lo && v != hi;
  return n;
}

struct Counts {
  int compared = 0, inside = 0, fast = 0;
};

using conv_test::Geometry;
using conv_test::random_geometry;

// One conv layer: plain and overlap DSP variants must give the portable elements.
void expect_same_conv(microaot_conv_2d_params_q p, const Geometry& g, std::mt19937& rng, int i, bool extreme,
                      Counts& counts) {
  const int window = g.filter_h * g.filter_w * p.filter_depth;
  std::vector<int32_t> multiplier, shift;
  set_requantization(p, rng, g.out_c, window, extreme, multiplier, shift);
  const Data d = random_data(rng, static_cast<size_t>(g.batches * g.in_h * g.in_w * g.in_c),
                             static_cast<size_t>(g.out_c * window), g.out_c, extreme);
  const size_t n = static_cast<size_t>(g.batches * g.out_h * g.out_w * g.out_c);
  std::vector<int16_t> expected(n), got(n), got_overlap(n), scratch(static_cast<size_t>(g.out_w * g.out_c));
  const int64_t* bias = i % 4 == 0 ? nullptr : d.bias.data();
  microaot_conv_2d_s16(&p, d.input.data(), d.weights.data(), bias, expected.data());
  microaot_dsp_conv_2d_s16(&p, d.input.data(), d.weights.data(), bias, got.data());
  microaot_dsp_conv_2d_s16_overlap(&p, d.input.data(), d.weights.data(), bias, got_overlap.data(), scratch.data());
  EXPECT_EQ(got, expected) << "case " << i;
  EXPECT_EQ(got_overlap, expected) << "case " << i;
  counts.compared += static_cast<int>(n);
  counts.inside += unclamped(expected, p.activation_min, p.activation_max);
  counts.fast += microaot_fit_conv_2d_s16_dsp(&p);
}

TEST(DspConv2dS16, MatchesPortableOnRandomLayers) {
  std::mt19937 rng(16);
  Counts counts;
  const int cases = 400;
  for (int i = 0; i < cases; ++i) {
    Geometry g = random_geometry(rng, i % 3 == 0 ? 1 : 5);
    const int groups = i % 9 == 0 && g.in_c % 2 == 0 ? 2 : 1;  // grouped: the portable fallback
    g.out_c = groups * draw(rng, 1, 9);
    if (i % 5 == 0) g.in_c = 2 * groups * draw(rng, 20, 70);  // windows past a chunk (508) and past the columns
    microaot_conv_2d_params_q p{};
    set_conv_window(p, g);
    p.filter_depth = g.in_c / groups;
    expect_same_conv(p, g, rng, i, i % 7 == 3, counts);
    ASSERT_FALSE(HasFailure());
  }
  EXPECT_GT(counts.inside, counts.compared / 2);
  EXPECT_GT(counts.fast, cases * 3 / 4);
  EXPECT_LT(counts.fast, cases);
}

// Windows of 561 to 576 elements (past one int32 chunk, inside the buffer) with the largest products: every
// sum leaves int32, so only the int64 chunk sums give the portable elements.
TEST(DspConv2dS16, SumsBeyondInt32OnTheFastPath) {
  std::mt19937 rng(17);
  Counts counts;
  const Geometry layers[] = {{1, 4, 4, 64, 3, 3, 4, 4, 5, 1, 1, 1, 1, 1, 1},
                             {2, 3, 5, 285, 1, 2, 3, 4, 3, 1, 1, 1, 1, 0, 0},
                             {1, 2, 2, 576, 1, 1, 2, 2, 4, 1, 1, 1, 1, 0, 0}};
  int i = 1;
  for (const Geometry& g : layers) {
    microaot_conv_2d_params_q p{};
    set_conv_window(p, g);
    p.filter_depth = g.in_c;
    ASSERT_TRUE(microaot_fit_conv_2d_s16_dsp(&p));
    ASSERT_GT(g.filter_h * g.filter_w * g.in_c, 560);
    expect_same_conv(p, g, rng, i++, true, counts);
  }
  EXPECT_GT(counts.inside, counts.compared / 2);
}

// Windows of 577 to 5,000 elements, beyond the columns (pieces of 320, the last one shorter), k x k and 1x1
// (read in place), padded edges, strides and dilations, odd pixel counts (a lone last pixel), 1 to 70 channels
// (blocks of 32 channels' sums, odd counts); half of them with the largest products, whose every sum leaves int32.
TEST(DspConv2dS16, WideWindowsInPiecesMatchPortable) {
  std::mt19937 rng(19);
  Counts counts;
  const int cases = 60;
  for (int i = 0; i < cases; ++i) {
    Geometry g = random_geometry(rng, 3);
    if (i % 4 == 0) {  // 1x1 without padding: the pixel itself
      g.filter_h = g.filter_w = 1, g.pad_h = g.pad_w = 0;
      g.out_h = conv_test::out_size(g.in_h, 0, 1, g.dilation_h, g.stride_h);
      g.out_w = conv_test::out_size(g.in_w, 0, 1, g.dilation_w, g.stride_w);
    }
    const int taps = g.filter_h * g.filter_w;
    g.in_c = (draw(rng, 577, 5000) + taps - 1) / taps;
    g.out_c = draw(rng, 1, 70);
    microaot_conv_2d_params_q p{};
    set_conv_window(p, g);
    p.filter_depth = g.in_c;
    ASSERT_GT(taps * g.in_c, 576);
    ASSERT_LE(taps * g.in_c, 5000);
    expect_same_conv(p, g, rng, i, i % 2 == 1, counts);
    ASSERT_FALSE(HasFailure());
  }
  EXPECT_GT(counts.inside, counts.compared / 2);
  EXPECT_EQ(counts.fast, cases);
}

// One depthwise layer: plain and overlap DSP variants must give the portable elements. Some cases draw shifts at
// the fast path's ends (-17, -1) and past them (the fallback), an output offset, or biases near 2^40.
void expect_same_depthwise(microaot_depthwise_conv_2d_params_q p, const Geometry& g, std::mt19937& rng, int i,
                           bool extreme, Counts& counts) {
  const int taps = g.filter_h * g.filter_w;
  std::vector<int32_t> multiplier, shift;
  set_requantization(p, rng, g.out_c, taps, extreme, multiplier, shift);
  if (i % 11 == 7 || i % 11 == 8) {  // multipliers of 2^-18 to 2^-17 or 1/4 to 1/2 (some 2^-19 or 1/2: portable)
    const bool small = i % 11 == 7;
    for (int c = 0; c < g.out_c; ++c) {
      const double real = (small ? std::ldexp(1.0, -18) : 0.25) * draw(rng, 1000, 1999) / 1000.0;
      const multiplier_test::Multiplier m = multiplier_test::quantize(draw(rng, 0, 40) == 0 ? real / 2 : real);
      multiplier[static_cast<size_t>(c)] = m.mantissa, shift[static_cast<size_t>(c)] = m.shift;
    }
  }
  if (i % 13 == 4) p.output_offset = draw(rng, -300, 300);
  Data d = random_data(rng, static_cast<size_t>(g.batches * g.in_h * g.in_w * g.in_c),
                       static_cast<size_t>(g.out_c * taps), g.out_c, extreme);
  if (i % 17 == 9) {
    for (int64_t& b : d.bias) b = (b % 2 == 0 ? 1 : -1) * ((int64_t{1} << 40) + b);
  }
  const size_t n = static_cast<size_t>(g.batches * g.out_h * g.out_w * g.out_c);
  std::vector<int16_t> expected(n), got(n), got_overlap(n), scratch(static_cast<size_t>(g.out_w * g.out_c));
  const int64_t* bias = i % 4 == 0 ? nullptr : d.bias.data();
  microaot_depthwise_conv_2d_s16(&p, d.input.data(), d.weights.data(), bias, expected.data());
  microaot_dsp_depthwise_conv_2d_s16(&p, d.input.data(), d.weights.data(), bias, got.data());
  microaot_dsp_depthwise_conv_2d_s16_overlap(&p, d.input.data(), d.weights.data(), bias, got_overlap.data(),
                                             scratch.data());
  EXPECT_EQ(got, expected) << "case " << i;
  EXPECT_EQ(got_overlap, expected) << "case " << i;
  counts.compared += static_cast<int>(n);
  counts.inside += unclamped(expected, p.activation_min, p.activation_max);
  counts.fast += microaot_fit_depthwise_conv_2d_s16_dsp(&p);
}

// Filters up to 5x5 (3x3 without dilation in a third of the cases: the sliding pairs), strides and dilations of
// 1 and 2, padding, maps up to 20 wide (pairs of inner pixels and edges), 1 to 19 input channels (odd counts),
// depth multipliers 1 to 8, extreme inputs and weights; a few 12x11 filters (132 taps: the fallback).
TEST(DspDepthwiseConv2dS16, MatchesPortableOnRandomLayers) {
  std::mt19937 rng(19);
  Counts counts;
  const int cases = 600;
  for (int i = 0; i < cases; ++i) {
    Geometry g = random_geometry(rng, 5, i % 3 == 0);
    if (i % 2 == 0) {  // wider maps: more inner pixels in pairs
      g.in_w += draw(rng, 0, 14);
      g.out_w = conv_test::out_size(g.in_w, g.pad_w, g.filter_w, g.dilation_w, g.stride_w);
    }
    if (i % 50 == 49) {
      g.filter_h = 12, g.filter_w = 11, g.dilation_h = g.dilation_w = 1, g.pad_h = 6, g.pad_w = 5;
      g.in_h = g.in_w = 12;
      g.out_h = conv_test::out_size(g.in_h, g.pad_h, g.filter_h, 1, g.stride_h);
      g.out_w = conv_test::out_size(g.in_w, g.pad_w, g.filter_w, 1, g.stride_w);
    }
    microaot_depthwise_conv_2d_params_q p{};
    p.depth_multiplier = i % 2 == 0 ? 1 : draw(rng, 1, 8);
    g.out_c = g.in_c * p.depth_multiplier;
    set_conv_window(p, g);
    expect_same_depthwise(p, g, rng, i, i % 7 == 3, counts);
    ASSERT_FALSE(HasFailure());
  }
  EXPECT_GT(counts.inside, counts.compared / 2);
  EXPECT_GT(counts.fast, cases * 3 / 4);
  EXPECT_LT(counts.fast, cases);
}

// One fully-connected layer of `batches` rows of `depth` against `units` units, with zero-point offsets.
void expect_same_fc(int batches, int depth, int units, int input_offset, int filter_offset, std::mt19937& rng, int i,
                    bool extreme, Counts& counts) {
  microaot_fully_connected_params_q p{};
  p.batches = batches, p.input_depth = depth, p.output_depth = units;
  p.input_offset = input_offset, p.filter_offset = filter_offset;
  std::vector<int32_t> multiplier, shift;
  set_requantization(p, rng, units, depth, extreme, multiplier, shift);
  const Data d = random_data(rng, static_cast<size_t>(batches * depth), static_cast<size_t>(units * depth), units,
                             extreme);
  std::vector<int16_t> expected(static_cast<size_t>(batches * units)), got(expected.size());
  const int64_t* bias = i % 4 == 0 ? nullptr : d.bias.data();
  microaot_fully_connected_s16(&p, d.input.data(), d.weights.data(), bias, expected.data());
  microaot_dsp_fully_connected_s16(&p, d.input.data(), d.weights.data(), bias, got.data());
  EXPECT_EQ(got, expected) << "case " << i << ": " << batches << "x" << depth << " -> " << units << ", offsets "
                           << input_offset << ", " << filter_offset;
  counts.compared += static_cast<int>(expected.size());
  counts.inside += unclamped(expected, p.activation_min, p.activation_max);
}

// Zero-point offsets of a case: none mostly; else small ones and the extremes (input zero point -32768, weights'
// -128), whose products (up to 2^24) the kernel takes apart into the plain product and the offsets' terms.
void draw_offsets(std::mt19937& rng, int i, int& input_offset, int& filter_offset) {
  const int kind = i % 11;
  input_offset = kind == 5 ? 3 : kind == 7 ? -draw(rng, 1, 300) : kind == 9 ? 32768 : 0;
  filter_offset = kind == 7 ? draw(rng, -127, 128) : kind == 9 ? 128 : kind == 10 ? -5 : 0;
}

// Depths around the lane groups, the int32 chunk (508), the paired rows' buffer (512) and the rows' buffer (1024);
// odd unit counts; one to three rows; zero-point offsets.
TEST(DspFullyConnectedS16, MatchesPortableOnRandomLayers) {
  std::mt19937 rng(18);
  Counts counts;
  const int depths[] = {1, 3, 4, 7, 16, 33, 256, 507, 508, 509, 512, 513, 700, 1024, 1025, 1500};
  int i = 0;
  for (const int depth : depths) {
    for (int rep = 0; rep < 6; ++rep, ++i) {
      int input_offset, filter_offset;
      draw_offsets(rng, i, input_offset, filter_offset);
      const int units = draw(rng, 1, 9), rows = draw(rng, 1, 3);  // drawn in one order whatever the compiler
      expect_same_fc(rows, depth, units, input_offset, filter_offset, rng, i, rep == 5, counts);
      ASSERT_FALSE(HasFailure());
    }
  }
  EXPECT_GT(counts.inside, counts.compared / 2);
}

// Depths of 1,025 to 6,000 (pieces of 320, the last one shorter or whole), one to three rows (pairs and a lone row),
// 1 to 70 units (blocks of 32 units' sums, odd counts), zero-point offsets; half of them with the largest products,
// whose every sum leaves int32.
TEST(DspFullyConnectedS16, WideRowsInPiecesMatchPortable) {
  std::mt19937 rng(20);
  Counts counts;
  const int cases = 60;
  for (int i = 0; i < cases; ++i) {
    const int fixed[] = {1025, 1280, 1281, 1919, 2048, 6000};
    const int depth = i < 6 ? fixed[i] : draw(rng, 1025, 6000);
    int input_offset, filter_offset;
    draw_offsets(rng, i, input_offset, filter_offset);
    expect_same_fc(draw(rng, 1, 3), depth, draw(rng, 1, 70), input_offset, filter_offset, rng, i, i % 2 == 1, counts);
    ASSERT_FALSE(HasFailure());
  }
  EXPECT_GT(counts.inside, counts.compared / 2);
}

}  // namespace
