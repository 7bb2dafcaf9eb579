// The DSP kernels (runtime/kernels/dsp/, linked under microaot_dsp_* names: runtime/CMakeLists.txt generates a
// renaming file per MICROAOT_KERNEL_ISA line) against the
// portable ones on random shapes, zero points and multipliers that keep outputs mostly inside the int8 range
// (saturated outputs would hide a wrong sum): byte for byte, plain and overlap variants, fast paths and
// fallbacks. On the host they run microaot/internal/dsp.h's C definitions of the instructions; the differential
// harness runs the real instructions on QEMU (tests/e2e/differential_qemu_test.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "binary_kernel_test_util.h"
#include "conv_geometry_test_util.h"
#include "random_conv_geometry_test_util.h"
#include "dw_group_words_test_util.h"
#include "dw_ring_args_test_util.h"
#include "microaot/fit/depthwise_conv_2d.h"
#include "microaot/internal/dsp_dot.h"
#include "microaot/kernels/add.h"
#include "microaot/kernels/conv.h"
#include "microaot/kernels/fully_connected.h"
#include "microaot/kernels/mul.h"

extern "C" {
void microaot_dsp_conv_2d_s8(const microaot_conv_2d_params_q* params, const int8_t* input, const int8_t* filter,
                             const int32_t* bias, int8_t* output);
void microaot_dsp_conv_2d_s8_overlap(const microaot_conv_2d_params_q* params, const int8_t* input,
                                     const int8_t* filter, const int32_t* bias, int8_t* output, void* scratch);
void microaot_dsp_depthwise_conv_2d_s8(const microaot_depthwise_conv_2d_params_q* params, const int8_t* input,
                                       const int8_t* filter, const int32_t* bias, int8_t* output);
void microaot_dsp_depthwise_conv_2d_s8_overlap(const microaot_depthwise_conv_2d_params_q* params,
                                               const int8_t* input, const int8_t* filter, const int32_t* bias,
                                               int8_t* output, void* scratch);
microaot_status microaot_dsp_depthwise_conv_2d_s8_ring(const microaot_depthwise_conv_2d_params_q* params,
                                                       const int8_t* input, const int8_t* filter, const int32_t* bias,
                                                       const int32_t* requant, int8_t* output);
microaot_status microaot_dsp_depthwise_conv_2d_s8_ring_overlap(const microaot_depthwise_conv_2d_params_q* params,
                                                               const int8_t* input, const int8_t* filter,
                                                               const int32_t* bias, const int32_t* requant,
                                                               int8_t* output, void* scratch);
microaot_status microaot_dsp_depthwise_conv_2d_s8_multiplier(const microaot_depthwise_conv_2d_params_q* params,
                                                             const int8_t* input, const int8_t* filter,
                                                             const int32_t* bias, int8_t* output);
microaot_status microaot_dsp_depthwise_conv_2d_s8_multiplier_overlap(
    const microaot_depthwise_conv_2d_params_q* params, const int8_t* input, const int8_t* filter, const int32_t* bias,
    int8_t* output, void* scratch);
microaot_status microaot_dsp_depthwise_conv_2d_s8_multiplier_strip(
    const microaot_depthwise_conv_2d_params_q* params, const int8_t* input, const int8_t* filter, const int32_t* bias,
    int8_t* output);
microaot_status microaot_dsp_depthwise_conv_2d_s8_multiplier_strip_overlap(
    const microaot_depthwise_conv_2d_params_q* params, const int8_t* input, const int8_t* filter, const int32_t* bias,
    int8_t* output, void* scratch);
microaot_status microaot_dsp_depthwise_conv_2d_s8_w16(const microaot_depthwise_conv_2d_params_q* params,
                                                      const int8_t* input, const int32_t* groups, int8_t* output);
microaot_status microaot_dsp_depthwise_conv_2d_s8_w16_overlap(const microaot_depthwise_conv_2d_params_q* params,
                                                              const int8_t* input, const int32_t* groups,
                                                              int8_t* output, void* scratch);
microaot_status microaot_dsp_depthwise_conv_2d_s8_ring_w16(const microaot_depthwise_conv_2d_params_q* params,
                                                           const int8_t* input, const int32_t* groups, int8_t* output);
microaot_status microaot_dsp_depthwise_conv_2d_s8_ring_w16_overlap(const microaot_depthwise_conv_2d_params_q* params,
                                                                   const int8_t* input, const int32_t* groups,
                                                                   int8_t* output, void* scratch);
microaot_status microaot_dsp_depthwise_conv_2d_s8_w8(const microaot_depthwise_conv_2d_params_q* params,
                                                     const int8_t* input, const int32_t* groups, int8_t* output);
microaot_status microaot_dsp_depthwise_conv_2d_s8_w8_overlap(const microaot_depthwise_conv_2d_params_q* params,
                                                             const int8_t* input, const int32_t* groups,
                                                             int8_t* output, void* scratch);
microaot_status microaot_dsp_depthwise_conv_2d_s8_ring_w8(const microaot_depthwise_conv_2d_params_q* params,
                                                          const int8_t* input, const int32_t* groups, int8_t* output);
microaot_status microaot_dsp_depthwise_conv_2d_s8_ring_w8_overlap(const microaot_depthwise_conv_2d_params_q* params,
                                                                  const int8_t* input, const int32_t* groups,
                                                                  int8_t* output, void* scratch);
void microaot_dsp_add_s8(const microaot_add_params_q* params, const int8_t* input1, const int8_t* input2,
                         int8_t* output);
void microaot_dsp_mul_s8(const microaot_mul_params_q* params, const int8_t* input1, const int8_t* input2,
                         int8_t* output);
void microaot_dsp_fully_connected_s8(const microaot_fully_connected_params_q* params, const int8_t* input,
                                     const int8_t* weights, const int32_t* bias, int8_t* output);
}

namespace {

int draw(std::mt19937& rng, int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }

using conv_test::Geometry;
using conv_test::out_size;
using conv_test::random_geometry;

// Per-channel multipliers scaling a sum of `terms` products of magnitude ~128 * 64 to a few tens.
struct Quantization {
  std::vector<int32_t> multiplier, shift;
  int32_t input_offset, output_offset;
};

Quantization random_quantization(std::mt19937& rng, int channels, int terms) {
  Quantization q{{}, {}, -draw(rng, -128, 127), draw(rng, -20, 20)};
  for (int c = 0; c < channels; ++c) {
    const double typical_sum = 128.0 * 64.0 * std::sqrt(static_cast<double>(terms > 0 ? terms : 1));
    const multiplier_test::Multiplier m = multiplier_test::quantize(draw(rng, 20, 60) / typical_sum);
    q.multiplier.push_back(m.mantissa);
    q.shift.push_back(m.shift);
  }
  return q;
}

template <typename Params>
void set_quantization(Params& p, const Quantization& q, std::mt19937& rng) {
  p.input_offset = q.input_offset, p.output_offset = q.output_offset;
  const bool relu = draw(rng, 0, 1) == 1;
  p.activation_min = relu ? q.output_offset : -128, p.activation_max = 127;
  p.output_multiplier = q.multiplier.data(), p.output_shift = q.shift.data();
}

// Outputs that are neither clamp bound: the comparison must see enough of them to mean something.
int unclamped(const std::vector<int8_t>& out) {
  int n = 0;
  for (int8_t v : out) n += v != -128 && v != 127;
  return n;
}

// The three functions of one convolution kernel: portable, DSP, DSP overlap variant.
template <typename Params>
struct ConvKernels {
  void (*portable)(const Params*, const int8_t*, const int8_t*, const int32_t*, int8_t*);
  void (*dsp)(const Params*, const int8_t*, const int8_t*, const int32_t*, int8_t*);
  void (*dsp_overlap)(const Params*, const int8_t*, const int8_t*, const int32_t*, int8_t*, void*);
};

// Outputs compared, and of those neither clamp bound.
struct Counts {
  int compared = 0, inside = 0;
};

// Random quantization (sums of `terms` products) and data for geometry g and params p (geometry set); the
// DSP variants must give the portable bytes. Case i has no bias every fourth time.
template <typename Params>
void expect_same_conv(const ConvKernels<Params>& k, Params p, const Geometry& g, int terms, size_t filter_size,
                      std::mt19937& rng, int i, Counts& counts) {
  const Quantization q = random_quantization(rng, g.out_c, terms);
  set_quantization(p, q, rng);
  const auto input = random_ints<int8_t>(rng, static_cast<size_t>(g.batches * g.in_h * g.in_w * g.in_c), -128, 127);
  const auto filter = random_ints<int8_t>(rng, filter_size, -127, 127);
  const auto bias = random_ints<int32_t>(rng, static_cast<size_t>(g.out_c), -5000, 5000);
  const size_t out_size = static_cast<size_t>(g.batches * g.out_h * g.out_w * g.out_c);
  std::vector<int8_t> expected(out_size), got(out_size), got_overlap(out_size);
  std::vector<int8_t> scratch(static_cast<size_t>(g.out_w * g.out_c));
  const int32_t* b = i % 4 == 0 ? nullptr : bias.data();
  k.portable(&p, input.data(), filter.data(), b, expected.data());
  k.dsp(&p, input.data(), filter.data(), b, got.data());
  k.dsp_overlap(&p, input.data(), filter.data(), b, got_overlap.data(), scratch.data());
  EXPECT_EQ(got, expected) << "case " << i;
  EXPECT_EQ(got_overlap, expected) << "case " << i;
  counts.compared += static_cast<int>(out_size);
  counts.inside += unclamped(expected);
}

TEST(DspRequantize, MatchesTheReferenceMultiplyByQuantizedMultiplier) {
  std::mt19937 rng(7);
  const int32_t edges[] = {0, 1, -1, 0x40000000, -0x40000000, INT32_MAX, INT32_MIN, 12345, -12345, 1 << 20};
  for (int i = 0; i < 200000; ++i) {
    const int32_t acc = i < 100 ? edges[i % 10] : static_cast<int32_t>(rng());
    const int32_t multiplier = i % 7 == 0 ? 0 : (1 << 30) + static_cast<int32_t>(rng() % (1u << 30));
    const int shift = draw(rng, -31, 7);
    ASSERT_EQ(microaot_dsp_requantize(acc, multiplier, shift),
              microaot_multiply_by_quantized_multiplier(acc, multiplier, shift))
        << acc << " " << multiplier << " " << shift;
  }
}

TEST(DspConv2dS8, MatchesPortableOnRandomShapes) {
  const ConvKernels<microaot_conv_2d_params_q> conv{microaot_conv_2d_s8, microaot_dsp_conv_2d_s8,
                                                    microaot_dsp_conv_2d_s8_overlap};
  std::mt19937 rng(11);
  Counts counts;
  for (int i = 0; i < 400; ++i) {
    Geometry g = random_geometry(rng, i % 3 == 0 ? 1 : 5);
    const int groups = i % 9 == 0 && g.in_c % 2 == 0 ? 2 : 1;  // grouped: the portable fallback
    g.out_c = groups * draw(rng, 1, 7);
    if (i % 5 == 0) g.in_c = 4 * draw(rng, 20, 40);  // windows beyond the im2col buffer for larger filters
    microaot_conv_2d_params_q p{};
    set_conv_window(p, g);
    p.filter_depth = g.in_c / groups;
    const int window = g.filter_h * g.filter_w * p.filter_depth;
    expect_same_conv(conv, p, g, window, static_cast<size_t>(g.out_c * window), rng, i, counts);
    ASSERT_FALSE(HasFailure());
  }
  EXPECT_GT(counts.inside, counts.compared / 2);
}

// `cases` random depthwise layers (filters up to 4x4, a 3x3 one every `square3`-th case), case i of depth
// multiplier multipliers[i % N] and at least `min_depth` output channels: kernels `k` must give the portable bytes.
template <size_t N>
void expect_depthwise_like_portable(const ConvKernels<microaot_depthwise_conv_2d_params_q>& k, unsigned seed,
                                    int cases, int square3, const int (&multipliers)[N], int min_depth) {
  std::mt19937 rng(seed);
  Counts counts;
  for (int i = 0; i < cases; ++i) {
    Geometry g = random_geometry(rng, 4, i % square3 == 0);
    microaot_depthwise_conv_2d_params_q p{};
    p.depth_multiplier = multipliers[static_cast<size_t>(i) % N];
    if (g.in_c * p.depth_multiplier < min_depth) g.in_c = (min_depth + p.depth_multiplier - 1) / p.depth_multiplier;
    g.out_c = g.in_c * p.depth_multiplier;
    set_conv_window(p, g);
    const int taps = g.filter_h * g.filter_w;
    expect_same_conv(k, p, g, taps, static_cast<size_t>(taps * g.out_c), rng, i, counts);
    ASSERT_FALSE(::testing::Test::HasFailure()) << "case " << i;
  }
  EXPECT_GT(counts.inside, counts.compared / 2);
}

TEST(DspDepthwiseConv2dS8, MatchesPortableOnRandomShapes) {
  const ConvKernels<microaot_depthwise_conv_2d_params_q> depthwise{
      microaot_depthwise_conv_2d_s8, microaot_dsp_depthwise_conv_2d_s8, microaot_dsp_depthwise_conv_2d_s8_overlap};
  const int multipliers[] = {2, 1, 1, 4, 1, 8};  // 2: the portable fallback; 4, 8: four channels read one input
  expect_depthwise_like_portable(depthwise, 13, 400, 2, multipliers, 0);
}

// A random layer of the DSP depthwise general path (the strip of dsp/depthwise_conv_2d_s8.c): filters 1x1 to 7x7
// but the 3x3 undilated ones, dilations and strides 1 to 3, "valid", TF's "same" or any padding, odd channel
// counts as often as not, some rows wider than one tile of the strip.
Geometry random_strip_geometry(std::mt19937& rng, int i, bool with_3x3 = false) {
  Geometry g{};
  g.batches = draw(rng, 1, 2);
  do {
    g.filter_h = draw(rng, 1, 7), g.filter_w = draw(rng, 1, 7);
    g.dilation_h = draw(rng, 1, 3), g.dilation_w = draw(rng, 1, 3);
  } while (!with_3x3 && g.filter_h == 3 && g.filter_w == 3 && g.dilation_h == 1 && g.dilation_w == 1);
  g.stride_h = draw(rng, 1, 3), g.stride_w = draw(rng, 1, 3);
  const int span_h = (g.filter_h - 1) * g.dilation_h + 1, span_w = (g.filter_w - 1) * g.dilation_w + 1;
  g.in_h = std::max(1, span_h + draw(rng, -3, 8));
  g.in_w = std::max(1, span_w + draw(rng, -3, i % 4 == 0 ? 70 : 10));
  g.in_c = i % 2 == 0 ? 2 * draw(rng, 0, 9) + 1 : 4 * draw(rng, 1, 5);
  g.out_c = g.in_c;
  const int padding = draw(rng, 0, 2);  // valid, same, any
  const auto same = [](int in, int stride, int span) {
    return std::max(0, ((in + stride - 1) / stride - 1) * stride + span - in) / 2;
  };
  g.pad_h = padding == 0 ? 0 : padding == 1 ? same(g.in_h, g.stride_h, span_h) : draw(rng, 0, span_h - 1);
  g.pad_w = padding == 0 ? 0 : padding == 1 ? same(g.in_w, g.stride_w, span_w) : draw(rng, 0, span_w - 1);
  if (g.in_h + 2 * g.pad_h < span_h) g.pad_h = (span_h - g.in_h + 1) / 2;  // at least one output
  if (g.in_w + 2 * g.pad_w < span_w) g.pad_w = (span_w - g.in_w + 1) / 2;
  g.out_h = out_size(g.in_h, g.pad_h, g.filter_h, g.dilation_h, g.stride_h);
  g.out_w = out_size(g.in_w, g.pad_w, g.filter_w, g.dilation_w, g.stride_w);
  return g;
}

// Layer p (geometry set) on `input` and `filter`, the DSP kernels against the portable one: plain, and overlap
// with output and input in one buffer a whole number of pixels apart (the channel groups outermost, each row
// through the scratch row) and not (whole rows).
void expect_same_depthwise_strip(const microaot_depthwise_conv_2d_params_q& p, const std::vector<int8_t>& input,
                                 const std::vector<int8_t>& filter, const int32_t* bias, int i, Counts& counts) {
  const size_t depth = static_cast<size_t>(p.output_depth);
  const size_t out_n = static_cast<size_t>(p.batches * p.output_height * p.output_width) * depth;
  std::vector<int8_t> expected(out_n), got(out_n), scratch(static_cast<size_t>(p.output_width) * depth);
  microaot_depthwise_conv_2d_s8(&p, input.data(), filter.data(), bias, expected.data());
  microaot_dsp_depthwise_conv_2d_s8(&p, input.data(), filter.data(), bias, got.data());
  EXPECT_EQ(got, expected) << "case " << i;
  for (size_t gap : {size_t{0}, size_t{1}}) {  // whole pixels apart, then not (for depth above 1)
    const size_t at = (input.size() + depth - 1) / depth * depth + gap;
    std::vector<int8_t> both(at + out_n);
    std::copy(input.begin(), input.end(), both.begin());
    microaot_dsp_depthwise_conv_2d_s8_overlap(&p, both.data(), filter.data(), bias, both.data() + at, scratch.data());
    EXPECT_EQ(std::vector<int8_t>(both.begin() + static_cast<ptrdiff_t>(at), both.end()), expected)
        << "case " << i << " gap " << gap;
  }
  counts.compared += static_cast<int>(out_n);
  counts.inside += unclamped(expected);
}

// The general path's strip on random layers (random_strip_geometry), every fifth with extreme data: inputs and
// weights at the int8 bounds only and the input offset at the DSP bounds (128, -127; -128, whose zero point
// would not fit a byte, takes the old path), the others mostly unclamped.
TEST(DspDepthwiseConv2dS8, MatchesPortableOnTheGeneralPathsStrip) {
  std::mt19937 rng(37);
  Counts counts, extreme_counts;
  for (int i = 0; i < 300; ++i) {
    const Geometry g = random_strip_geometry(rng, i);
    const bool extreme = i % 5 == 4;
    const int taps = g.filter_h * g.filter_w;
    microaot_depthwise_conv_2d_params_q p{};
    p.depth_multiplier = 1;
    set_conv_window(p, g);
    const Quantization q = random_quantization(rng, g.out_c, extreme ? 4 * taps : taps);
    set_quantization(p, q, rng);
    const size_t in_n = static_cast<size_t>(g.batches * g.in_h * g.in_w * g.in_c);
    auto input = random_ints<int8_t>(rng, in_n, -128, 127);
    auto filter = random_ints<int8_t>(rng, static_cast<size_t>(taps * g.out_c), -127, 127);
    if (extreme) {
      const int offsets[] = {128, -127, -128};
      p.input_offset = offsets[i / 5 % 3];
      for (int8_t& v : input) v = v < 0 ? -128 : 127;
      for (int8_t& v : filter) v = v < 0 ? -128 : 127;
    }
    const auto bias = random_ints<int32_t>(rng, static_cast<size_t>(g.out_c), -5000, 5000);
    expect_same_depthwise_strip(p, input, filter, i % 4 == 0 ? nullptr : bias.data(), i,
                                extreme ? extreme_counts : counts);
    ASSERT_FALSE(HasFailure()) << "case " << i << ": " << g.filter_h << "x" << g.filter_w << " dilation "
                               << g.dilation_h << "x" << g.dilation_w << " stride " << g.stride_h << "x"
                               << g.stride_w << " in " << g.in_h << "x" << g.in_w << "x" << g.in_c;
  }
  EXPECT_GT(counts.inside, counts.compared / 2);
}

// A 3x3 depthwise layer of depth multiplier 1 and geometry g (out_h, out_w filled in from the padding and
// stride), DSP plain and overlap against the portable kernel.
void expect_same_depthwise_3x3(Geometry g, std::mt19937& rng, int i, Counts& counts,
                               const ConvKernels<microaot_depthwise_conv_2d_params_q>& depthwise = {
                                   microaot_depthwise_conv_2d_s8, microaot_dsp_depthwise_conv_2d_s8,
                                   microaot_dsp_depthwise_conv_2d_s8_overlap}) {
  g.out_h = out_size(g.in_h, g.pad_h, 3, 1, g.stride_h), g.out_w = out_size(g.in_w, g.pad_w, 3, 1, g.stride_w);
  microaot_depthwise_conv_2d_params_q p{};
  p.depth_multiplier = 1;
  set_conv_window(p, g);
  expect_same_conv(depthwise, p, g, 9, static_cast<size_t>(9 * g.out_c), rng, i, counts);
}

// The 3x3 path's row and column kinds on every small image: widths and heights 1 to 5 (windows missing one
// or two columns or rows, or wholly inside), padding 0 to 2, strides 1 and 2, a whole channel group and a
// remainder; and the layers of KWS (25x5, 64 channels, "same" padding: two of five columns are edges) and
// micro_speech (depth multiplier 8).
TEST(DspDepthwiseConv2dS8, MatchesPortableOnEveryEdgeKindOfSmallImagesAndModelLayers) {
  const ConvKernels<microaot_depthwise_conv_2d_params_q> depthwise{
      microaot_depthwise_conv_2d_s8, microaot_dsp_depthwise_conv_2d_s8, microaot_dsp_depthwise_conv_2d_s8_overlap};
  std::mt19937 rng(29);
  Counts counts;
  int i = 0;
  for (int in_h = 1; in_h <= 5; ++in_h) {
    for (int in_w = 1; in_w <= 5; ++in_w) {
      for (int pad = 0; pad <= 2; ++pad) {
        for (int stride = 1; stride <= 2; ++stride) {
          if (in_h + 2 * pad < 3 || in_w + 2 * pad < 3) continue;  // no output
          expect_same_depthwise_3x3({1, in_h, in_w, 6, 3, 3, 0, 0, 6, stride, stride, 1, 1, pad, pad}, rng, ++i,
                                    counts);
          ASSERT_FALSE(HasFailure()) << in_h << "x" << in_w << " pad " << pad << " stride " << stride;
        }
      }
    }
  }
  expect_same_depthwise_3x3({1, 25, 5, 64, 3, 3, 25, 5, 64, 1, 1, 1, 1, 1, 1}, rng, 1, counts);  // KWS
  // micro_speech's layer: one input channel, depth multiplier 8, a 10x8 filter at stride 2, "same" padding.
  const Geometry speech{1, 49, 40, 1, 10, 8, 25, 20, 8, 2, 2, 1, 1, 4, 3};
  microaot_depthwise_conv_2d_params_q q{};
  q.depth_multiplier = 8;
  set_conv_window(q, speech);
  expect_same_conv(depthwise, q, speech, 80, static_cast<size_t>(80 * speech.out_c), rng, 1, counts);
  EXPECT_GT(counts.inside, counts.compared / 2);
}

// The widened ring of the 3x3 stride-1 path: rows wider than one tile of 12 output columns (several tiles; the
// overlap variant then takes the clipped path), "same" and "valid", two batches (the ring starts afresh
// with each image), a channel remainder, and at random a ReLU clamp (the SIMD clamp).
TEST(DspDepthwiseConv2dS8, MatchesPortableAcrossTheRingsTilesAndBatches) {
  std::mt19937 rng(31);
  Counts counts;
  int i = 0;
  for (const int in_w : {11, 12, 13, 14, 15, 26, 27}) {
    for (int pad = 0; pad <= 1; ++pad) {
      const int in_h = 3 + in_w % 3;
      expect_same_depthwise_3x3({2, in_h, in_w, 10, 3, 3, 0, 0, 10, 1, 1, 1, 1, pad, pad}, rng, ++i, counts);
      ASSERT_FALSE(HasFailure()) << in_h << "x" << in_w << " pad " << pad;
    }
  }
  EXPECT_GT(counts.inside, counts.compared / 2);
}

// The ring's own kernels on a layer they take, its requantization passed as the compiler passes it: the
// status must be OK (checked here), the bytes the caller's.
void ring_taking(const microaot_depthwise_conv_2d_params_q* p, const int8_t* input, const int8_t* filter,
                 const int32_t* bias, int8_t* output) {
  const DwRingArgs ring(*p);
  EXPECT_EQ(microaot_dsp_depthwise_conv_2d_s8_ring(&ring.params, input, filter, bias, ring.requant.data(), output),
            MICROAOT_STATUS_OK);
}
void ring_overlap_taking(const microaot_depthwise_conv_2d_params_q* p, const int8_t* input, const int8_t* filter,
                         const int32_t* bias, int8_t* output, void* scratch) {
  const DwRingArgs ring(*p);
  EXPECT_EQ(microaot_dsp_depthwise_conv_2d_s8_ring_overlap(&ring.params, input, filter, bias, ring.requant.data(),
                                                           output, scratch),
            MICROAOT_STATUS_OK);
}

// A 3x3 depth-multiplier-1 layer of geometry g with its output size as given (TF's "same" at stride 2 pads
// the bottom and right only), through `depthwise`; whether the small-map patch takes it.
bool expect_same_depthwise_sized(const Geometry& g, std::mt19937& rng, int i, Counts& counts,
                                 const ConvKernels<microaot_depthwise_conv_2d_params_q>& depthwise) {
  microaot_depthwise_conv_2d_params_q p{};
  p.depth_multiplier = 1;
  set_conv_window(p, g);
  expect_same_conv(depthwise, p, g, 9, static_cast<size_t>(9 * g.out_c), rng, i, counts);
  return microaot_fit_depthwise_patched(&p) != 0;
}

// The small-map patch (microaot_fit_depthwise_patched): VWW's last maps (6x6 to 3x3 at stride 2 with "same"
// padding below and right only, 3x3 and 6x6 at stride 1), the patch's bounds (padded inputs of 8 rows and 14
// columns) and one past each, two batches, clamps, a channel remainder; through the full kernel and, where the
// compiler gives the layer to it (stride 1, depth 4k, rows of 3 or more), the ring's own kernel.
TEST(DspDepthwiseConv2dS8, MatchesPortableOnSmallMapsThroughThePatch) {
  const ConvKernels<microaot_depthwise_conv_2d_params_q> full{
      microaot_depthwise_conv_2d_s8, microaot_dsp_depthwise_conv_2d_s8, microaot_dsp_depthwise_conv_2d_s8_overlap};
  const ConvKernels<microaot_depthwise_conv_2d_params_q> ring{microaot_depthwise_conv_2d_s8, ring_taking,
                                                              ring_overlap_taking};
  struct Shape {
    Geometry g;
    bool patched, ringed;
  };
  const Shape shapes[] = {
      {{1, 6, 6, 16, 3, 3, 3, 3, 16, 2, 2, 1, 1, 0, 0}, true, false},   // VWW step 23
      {{1, 3, 3, 16, 3, 3, 3, 3, 16, 1, 1, 1, 1, 1, 1}, true, true},    // VWW step 25
      {{2, 6, 6, 12, 3, 3, 6, 6, 12, 1, 1, 1, 1, 1, 1}, true, true},    // VWW's 6x6 maps, two images
      {{1, 6, 12, 8, 3, 3, 6, 12, 8, 1, 1, 1, 1, 1, 1}, true, true},    // 8 rows, 14 columns
      {{1, 7, 4, 8, 3, 3, 7, 4, 8, 1, 1, 1, 1, 1, 1}, false, true},     // 9 rows
      {{1, 4, 13, 8, 3, 3, 4, 13, 8, 1, 1, 1, 1, 1, 1}, false, true},   // 15 columns: the ring's tiles
      {{1, 7, 13, 10, 3, 3, 3, 6, 10, 2, 2, 1, 1, 0, 0}, true, false},  // stride 2, 7 rows, 13 columns, a remainder
      {{2, 5, 5, 6, 3, 3, 3, 3, 6, 2, 2, 1, 1, 1, 1}, true, false},     // stride 2 padded all round
      {{1, 1, 3, 5, 3, 3, 1, 3, 5, 1, 1, 1, 1, 1, 1}, true, false},     // one input row: a group and a remainder
  };
  std::mt19937 rng(41);
  Counts counts;
  int i = 0;
  for (const Shape& s : shapes) {
    EXPECT_EQ(expect_same_depthwise_sized(s.g, rng, ++i, counts, full), s.patched) << "shape " << i;
    if (s.ringed) expect_same_depthwise_sized(s.g, rng, i, counts, ring);
    ASSERT_FALSE(HasFailure()) << "shape " << i;
  }
  EXPECT_GT(counts.inside, counts.compared / 2);
}

// The unrolled windows at stride 2 on maps beyond the patch, TF's "same" padding: on an even side nothing above
// or left and one below or right (the last column's windows 3 rows of 2 taps, the last row's 2 of 3, the corner
// 2 of 2: the clipped windows' unrolled forms), on an odd side one all round (the tap-by-tap clipped path); a
// whole channel group and a remainder, the plain and the overlap variants, two images.
TEST(DspDepthwiseConv2dS8, MatchesPortableOnStride2SameEdgesBeyondThePatch) {
  const ConvKernels<microaot_depthwise_conv_2d_params_q> full{
      microaot_depthwise_conv_2d_s8, microaot_dsp_depthwise_conv_2d_s8, microaot_dsp_depthwise_conv_2d_s8_overlap};
  std::mt19937 rng(47);
  Counts counts;
  int i = 0;
  for (const int in_h : {10, 12, 15}) {
    for (const int in_w : {12, 14, 17}) {
      const int out_h = (in_h + 1) / 2, out_w = (in_w + 1) / 2;
      const int pad_h = ((out_h - 1) * 2 + 3 - in_h) / 2, pad_w = ((out_w - 1) * 2 + 3 - in_w) / 2;
      const Geometry g{2, in_h, in_w, 6, 3, 3, out_h, out_w, 6, 2, 2, 1, 1, pad_h, pad_w};
      EXPECT_FALSE(expect_same_depthwise_sized(g, rng, ++i, counts, full)) << "shape " << i;
      ASSERT_FALSE(HasFailure()) << in_h << "x" << in_w;
    }
  }
  EXPECT_GT(counts.inside, counts.compared / 2);
}

// depthwise_conv_2d_s8_w16 and _ring_w16 (the groups' constants from the compiler's words; `compact`: _w8 and
// _ring_w8 over the compact words), DSP and portable builds: the status must be OK (checked here), the bytes the
// caller's.
using DwWords = microaot_status (*)(const microaot_depthwise_conv_2d_params_q*, const int8_t*, const int32_t*, int8_t*);
using DwWordsOverlap = microaot_status (*)(const microaot_depthwise_conv_2d_params_q*, const int8_t*, const int32_t*,
                                           int8_t*, void*);
template <DwWords kernel, bool compact = false>
void words_taking(const microaot_depthwise_conv_2d_params_q* p, const int8_t* input, const int8_t* filter,
                  const int32_t* bias, int8_t* output) {
  const DwGroupWords w(*p, filter, bias, compact);
  EXPECT_EQ(kernel(&w.params, input, w.words.data(), output), MICROAOT_STATUS_OK);
}
template <DwWordsOverlap kernel, bool compact = false>
void words_overlap_taking(const microaot_depthwise_conv_2d_params_q* p, const int8_t* input, const int8_t* filter,
                          const int32_t* bias, int8_t* output, void* scratch) {
  const DwGroupWords w(*p, filter, bias, compact);
  EXPECT_EQ(kernel(&w.params, input, w.words.data(), output, scratch), MICROAOT_STATUS_OK);
}

// The layers depthwise_conv_2d_s8_w16 and _w8 take (3x3, depth multiplier 1, whole groups of 4) on each of the DSP
// kernel's paths: the small-map patch (VWW's 6x6 to 3x3 at stride 2, its 3x3 and 6x6 maps), the ring (KWS's
// layer, rows over one tile), the unrolled windows at stride 2 (VWW's 24x24 to 12x12, "same" below and right),
// two batches, and random 3x3 layers; DSP and portable builds of both forms against the portable kernel.
TEST(DspDepthwiseConv2dS8W16, MatchesPortableOnEveryPath) {
  using Kernels = ConvKernels<microaot_depthwise_conv_2d_params_q>;
  const Kernels dsp{microaot_depthwise_conv_2d_s8, words_taking<microaot_dsp_depthwise_conv_2d_s8_w16>,
                    words_overlap_taking<microaot_dsp_depthwise_conv_2d_s8_w16_overlap>};
  const Kernels portable{microaot_depthwise_conv_2d_s8, words_taking<microaot_depthwise_conv_2d_s8_w16>,
                         words_overlap_taking<microaot_depthwise_conv_2d_s8_w16_overlap>};
  const Kernels dsp_w8{microaot_depthwise_conv_2d_s8, words_taking<microaot_dsp_depthwise_conv_2d_s8_w8, true>,
                       words_overlap_taking<microaot_dsp_depthwise_conv_2d_s8_w8_overlap, true>};
  const Kernels portable_w8{microaot_depthwise_conv_2d_s8, words_taking<microaot_depthwise_conv_2d_s8_w8, true>,
                            words_overlap_taking<microaot_depthwise_conv_2d_s8_w8_overlap, true>};
  const Kernels* const forms[] = {&dsp, &portable, &dsp_w8, &portable_w8};
  const Geometry shapes[] = {
      {1, 6, 6, 16, 3, 3, 3, 3, 16, 2, 2, 1, 1, 0, 0},       // VWW step 23: the patch at stride 2
      {1, 3, 3, 16, 3, 3, 3, 3, 16, 1, 1, 1, 1, 1, 1},       // VWW step 25
      {2, 6, 6, 12, 3, 3, 6, 6, 12, 1, 1, 1, 1, 1, 1},       // VWW's 6x6 maps, two images
      {1, 25, 5, 64, 3, 3, 25, 5, 64, 1, 1, 1, 1, 1, 1},     // KWS: the ring
      {2, 4, 15, 8, 3, 3, 4, 15, 8, 1, 1, 1, 1, 1, 1},       // the ring's tiles (overlap: unrolled windows)
      {1, 24, 24, 8, 3, 3, 12, 12, 8, 2, 2, 1, 1, 0, 0},     // VWW step 7: unrolled windows at stride 2
      {2, 11, 9, 4, 3, 3, 6, 5, 4, 2, 2, 1, 1, 1, 1},        // stride 2 padded all round
  };
  std::mt19937 rng(43);
  Counts counts;
  int i = 0;
  for (const Geometry& g : shapes) {
    ++i;
    for (const Kernels* kernels : forms) expect_same_depthwise_sized(g, rng, i, counts, *kernels);
    ASSERT_FALSE(HasFailure()) << "shape " << i;
  }
  for (int k = 0; k < 80; ++k) {
    Geometry g = random_geometry(rng, 3, true);
    g.in_c = g.out_c = 4 * draw(rng, 1, 4);
    expect_same_depthwise_3x3(g, rng, ++i, counts, *forms[k % 4]);
    ASSERT_FALSE(HasFailure()) << "case " << i;
  }
  EXPECT_GT(counts.inside, counts.compared / 2);
}

// Outside its layers (a depth not a multiple of 4, a 5x5 or dilated filter, depth multiplier 2) both builds
// refuse, and a NULL words array, with the output unwritten; so do the compact form's (_w8) and the ring-alone
// builds' (_ring_w16, _ring_w8) DSP builds, and outside the ring (stride 2) too.
TEST(DspDepthwiseConv2dS8W16, RefusesOtherLayersWithoutWriting) {
  microaot_depthwise_conv_2d_params_q p{};
  set_conv_window(p, Geometry{1, 5, 5, 8, 3, 3, 5, 5, 8, 1, 1, 1, 1, 1, 1});
  p.depth_multiplier = 1;
  p.activation_min = -128, p.activation_max = 127;
  const std::vector<int32_t> words(2 * MICROAOT_DW_GROUP_WORDS, 0);
  const std::vector<int8_t> input(200, 1);
  std::vector<int8_t> out(200, 7), scratch(40);
  using Dw = microaot_depthwise_conv_2d_params_q;
  const std::vector<void (*)(Dw&)> changes = {[](Dw& q) { q.output_depth = q.input_depth = 6; },
                                              [](Dw& q) { q.filter_height = q.filter_width = 5; },
                                              [](Dw& q) { q.dilation_width = 2; },
                                              [](Dw& q) { q.depth_multiplier = 2; }};
  for (auto change : changes) {
    Dw q = p;
    change(q);
    EXPECT_EQ(microaot_dsp_depthwise_conv_2d_s8_w16(&q, input.data(), words.data(), out.data()),
              MICROAOT_STATUS_VALUE_OUT_OF_RANGE);
    EXPECT_EQ(microaot_depthwise_conv_2d_s8_w16(&q, input.data(), words.data(), out.data()),
              MICROAOT_STATUS_VALUE_OUT_OF_RANGE);
    EXPECT_EQ(microaot_dsp_depthwise_conv_2d_s8_w16_overlap(&q, input.data(), words.data(), out.data(), scratch.data()),
              MICROAOT_STATUS_VALUE_OUT_OF_RANGE);
    EXPECT_EQ(microaot_dsp_depthwise_conv_2d_s8_ring_w16(&q, input.data(), words.data(), out.data()),
              MICROAOT_STATUS_VALUE_OUT_OF_RANGE);
    EXPECT_EQ(microaot_dsp_depthwise_conv_2d_s8_w8(&q, input.data(), words.data(), out.data()),
              MICROAOT_STATUS_VALUE_OUT_OF_RANGE);
    EXPECT_EQ(microaot_depthwise_conv_2d_s8_w8(&q, input.data(), words.data(), out.data()),
              MICROAOT_STATUS_VALUE_OUT_OF_RANGE);
    EXPECT_EQ(microaot_dsp_depthwise_conv_2d_s8_w8_overlap(&q, input.data(), words.data(), out.data(), scratch.data()),
              MICROAOT_STATUS_VALUE_OUT_OF_RANGE);
    EXPECT_EQ(microaot_dsp_depthwise_conv_2d_s8_ring_w8(&q, input.data(), words.data(), out.data()),
              MICROAOT_STATUS_VALUE_OUT_OF_RANGE);
  }
  Dw strided = p;
  strided.stride_width = strided.stride_height = 2;
  EXPECT_EQ(microaot_dsp_depthwise_conv_2d_s8_ring_w16(&strided, input.data(), words.data(), out.data()),
            MICROAOT_STATUS_VALUE_OUT_OF_RANGE);
  EXPECT_EQ(microaot_dsp_depthwise_conv_2d_s8_ring_w16_overlap(&strided, input.data(), words.data(), out.data(),
                                                               scratch.data()),
            MICROAOT_STATUS_VALUE_OUT_OF_RANGE);
  EXPECT_EQ(microaot_dsp_depthwise_conv_2d_s8_ring_w8(&strided, input.data(), words.data(), out.data()),
            MICROAOT_STATUS_VALUE_OUT_OF_RANGE);
  EXPECT_EQ(microaot_dsp_depthwise_conv_2d_s8_ring_w16(&p, input.data(), nullptr, out.data()),
            MICROAOT_STATUS_NULL_POINTER);
  EXPECT_EQ(microaot_dsp_depthwise_conv_2d_s8_w8(&p, input.data(), nullptr, out.data()), MICROAOT_STATUS_NULL_POINTER);
  EXPECT_EQ(microaot_depthwise_conv_2d_s8_w8(&p, input.data(), nullptr, out.data()), MICROAOT_STATUS_NULL_POINTER);
  EXPECT_EQ(microaot_dsp_depthwise_conv_2d_s8_w16(&p, input.data(), nullptr, out.data()), MICROAOT_STATUS_NULL_POINTER);
  EXPECT_EQ(microaot_depthwise_conv_2d_s8_w16(&p, input.data(), nullptr, out.data()), MICROAOT_STATUS_NULL_POINTER);
  EXPECT_EQ(out, std::vector<int8_t>(200, 7));
}

// The ring's own kernel (depthwise_conv_2d_s8_ring) on the layers it takes: depth a multiple of 4, stride 1,
// rows of 3 to 12 pixels (KWS's, the ones the compiler gives it) and wider (several tiles; the overlap variant
// then goes row by row through the scratch row).
// The same layers through depthwise_conv_2d_s8_ring_w16 and _ring_w8 (the ring over the groups' words, widened or
// compact), DSP and portable builds.
TEST(DspDepthwiseConv2dS8Ring, MatchesPortableOnRingLayers) {
  using Kernels = ConvKernels<microaot_depthwise_conv_2d_params_q>;
  const Kernels ring{microaot_depthwise_conv_2d_s8, ring_taking, ring_overlap_taking};
  const Kernels ring_w16{microaot_depthwise_conv_2d_s8, words_taking<microaot_dsp_depthwise_conv_2d_s8_ring_w16>,
                         words_overlap_taking<microaot_dsp_depthwise_conv_2d_s8_ring_w16_overlap>};
  const Kernels ring_w16_portable{microaot_depthwise_conv_2d_s8, words_taking<microaot_depthwise_conv_2d_s8_ring_w16>,
                                  words_overlap_taking<microaot_depthwise_conv_2d_s8_ring_w16_overlap>};
  const Kernels ring_w8{microaot_depthwise_conv_2d_s8, words_taking<microaot_dsp_depthwise_conv_2d_s8_ring_w8, true>,
                        words_overlap_taking<microaot_dsp_depthwise_conv_2d_s8_ring_w8_overlap, true>};
  const Kernels ring_w8_portable{microaot_depthwise_conv_2d_s8,
                                 words_taking<microaot_depthwise_conv_2d_s8_ring_w8, true>,
                                 words_overlap_taking<microaot_depthwise_conv_2d_s8_ring_w8_overlap, true>};
  for (const Kernels* kernels : {&ring, &ring_w16, &ring_w16_portable, &ring_w8, &ring_w8_portable}) {
    std::mt19937 rng(37);
    Counts counts;
    int i = 0;
    expect_same_depthwise_3x3({1, 25, 5, 64, 3, 3, 25, 5, 64, 1, 1, 1, 1, 1, 1}, rng, ++i, counts, *kernels);  // KWS
    // padding wider than a tile: a tile's ring columns all padding, none widened
    expect_same_depthwise_3x3({1, 3, 2, 4, 3, 3, 0, 0, 4, 1, 1, 1, 1, 1, 15}, rng, ++i, counts, *kernels);
    for (const int in_w : {3, 5, 12, 13, 14, 27}) {
      for (int pad = 0; pad <= 1; ++pad) {
        if (in_w + 2 * pad - 2 < 3) continue;  // rows of 3 pixels at least (dw_ringed)
        expect_same_depthwise_3x3({2, 3 + in_w % 3, in_w, 8, 3, 3, 0, 0, 8, 1, 1, 1, 1, pad, pad}, rng, ++i, counts,
                                  *kernels);
        ASSERT_FALSE(HasFailure()) << in_w << " pad " << pad;
      }
    }
    EXPECT_GT(counts.inside, counts.compared / 2);
  }
}

// A layer its two kernels (plain, overlap) take as it is (`Layer::run`: both statuses, and whether either wrote a
// byte of its output): OK and written; after each change, both VALUE_OUT_OF_RANGE and nothing written.
template <typename Layer, size_t N>
void expect_refused_without_writing(const std::pair<const char*, void (*)(Layer&)> (&changes)[N]) {
  bool written = false;
  Layer inside;
  EXPECT_EQ(inside.run(&written), std::make_pair(MICROAOT_STATUS_OK, MICROAOT_STATUS_OK));
  EXPECT_TRUE(written);
  for (const auto& [what, change] : changes) {
    Layer layer;
    change(layer);
    const auto refused = std::make_pair(MICROAOT_STATUS_VALUE_OUT_OF_RANGE, MICROAOT_STATUS_VALUE_OUT_OF_RANGE);
    EXPECT_EQ(layer.run(&written), refused) << what;
    EXPECT_FALSE(written) << what;
  }
}

// The multiplier's own kernels on a layer they take: the status must be OK (checked here).
void multiplier_taking(const microaot_depthwise_conv_2d_params_q* p, const int8_t* input, const int8_t* filter,
                       const int32_t* bias, int8_t* output) {
  EXPECT_EQ(microaot_dsp_depthwise_conv_2d_s8_multiplier(p, input, filter, bias, output), MICROAOT_STATUS_OK);
}
void multiplier_overlap_taking(const microaot_depthwise_conv_2d_params_q* p, const int8_t* input,
                               const int8_t* filter, const int32_t* bias, int8_t* output, void* scratch) {
  EXPECT_EQ(microaot_dsp_depthwise_conv_2d_s8_multiplier_overlap(p, input, filter, bias, output, scratch),
            MICROAOT_STATUS_OK);
}

// depthwise_conv_2d_s8_multiplier on the layers it takes: depth multipliers 2 to 8 (a group of four channels
// reading one input channel, two, split anywhere; the last group overlapping the one before it), filters up to
// 4x4, dilations and strides 1 and 2, padding, odd widths, two batches.
TEST(DspDepthwiseConv2dS8Multiplier, MatchesPortableOnRandomShapes) {
  const ConvKernels<microaot_depthwise_conv_2d_params_q> kernels{
      microaot_depthwise_conv_2d_s8, multiplier_taking, multiplier_overlap_taking};
  const int multipliers[] = {2, 3, 4, 5, 8, 2, 3, 6};
  expect_depthwise_like_portable(kernels, 41, 300, 3, multipliers, 4);
}

// A depth-multiplier layer of geometry g (every channel's requantization 2^30 and a right shift of 10, constant
// data) for the refusal tests: run() gives the statuses of a kernel's plain and overlap forms on it, and whether
// either wrote a byte of its output (buffers of the params' sizes, which the tests' changes set).
struct MultiplierLayer {
  Geometry g;
  std::vector<int32_t> multiplier, shift;
  microaot_depthwise_conv_2d_params_q p{};
  MultiplierLayer(const Geometry& geometry, int depth_multiplier)
      : g(geometry), multiplier(static_cast<size_t>(g.out_c), 1 << 30), shift(static_cast<size_t>(g.out_c), -10) {
    set_conv_window(p, g);
    p.depth_multiplier = depth_multiplier;
    p.activation_min = -128, p.activation_max = 127;
  }
  template <typename Plain, typename Overlap>
  std::pair<microaot_status, microaot_status> run_with(Plain plain_kernel, Overlap overlap_kernel, bool* written) {
    p.output_multiplier = multiplier.data(), p.output_shift = shift.data();
    const std::vector<int8_t> input(static_cast<size_t>(p.input_height * p.input_width * p.input_depth), 7);
    const std::vector<int8_t> filter(static_cast<size_t>(p.filter_height * p.filter_width * p.output_depth), -5);
    const std::vector<int8_t> sentinel(static_cast<size_t>(p.output_height * p.output_width * p.output_depth), 0x5a);
    std::vector<int8_t> plain = sentinel, overlap = sentinel;
    std::vector<int8_t> scratch(static_cast<size_t>(p.output_width * p.output_depth));
    const microaot_status a = plain_kernel(&p, input.data(), filter.data(), nullptr, plain.data());
    const microaot_status b = overlap_kernel(&p, input.data(), filter.data(), nullptr, overlap.data(), scratch.data());
    *written = plain != sentinel || overlap != sentinel;
    return {a, b};
  }
};

// Outside its rule (microaot_fit_depthwise_multiplier and the DSP bounds) both kernels return
// VALUE_OUT_OF_RANGE and leave the output as it was; the layer before the change: OK, written.
TEST(DspDepthwiseConv2dS8Multiplier, RefusesLayersOutsideItsRuleWithoutWriting) {
  struct Layer : MultiplierLayer {
    Layer() : MultiplierLayer({1, 4, 5, 3, 3, 3, 4, 5, 6, 1, 1, 1, 1, 1, 1}, 2) {}
    std::pair<microaot_status, microaot_status> run(bool* written) {
      return run_with(microaot_dsp_depthwise_conv_2d_s8_multiplier,
                      microaot_dsp_depthwise_conv_2d_s8_multiplier_overlap, written);
    }
  };
  const std::pair<const char*, void (*)(Layer&)> changes[] = {
      {"depth multiplier 1", [](Layer& l) { l.p.depth_multiplier = 1, l.p.input_depth = 6; }},
      {"3 output channels", [](Layer& l) { l.p.input_depth = 1, l.p.output_depth = 3, l.p.depth_multiplier = 3; }},
      {"output depth not input depth * multiplier", [](Layer& l) { l.p.depth_multiplier = 3; }},
      {"left shift beyond int32", [](Layer& l) { l.shift[4] = 14; }},  // 9 taps * 2^15 * 2^15 >= 2^31
      {"input offset 129", [](Layer& l) { l.p.input_offset = 129; }},
  };
  expect_refused_without_writing(changes);
}

// Left shifts and shift 0, which the multiplier kernel alone takes, shifting the sums itself, and its pair path
// (taps in pairs, four to a word over one input channel): random shapes (filters up to 6x6, half of them over
// one input channel) and micro_speech's layer (depth multiplier 8, a 10x8 filter), shifts -3 to 3 per channel,
// sums small enough (inputs near the zero point, small weights) that the outputs seldom clamp.
TEST(DspDepthwiseConv2dS8Multiplier, MatchesPortableWithLeftShifts) {
  std::mt19937 rng(43);
  int compared = 0, inside = 0;
  for (int i = 0; i < 80; ++i) {
    Geometry g = i == 0 ? Geometry{1, 49, 40, 1, 10, 8, 25, 20, 8, 2, 2, 1, 1, 4, 3} : random_geometry(rng, 6);
    if (i % 2 == 1) {  // one input channel, no dilation along x: taps four to a word (widths 1 to 6: every remainder)
      g.in_c = 1, g.dilation_w = 1, g.pad_w = std::min(g.pad_w, g.filter_w - 1);
      g.out_w = out_size(g.in_w, g.pad_w, g.filter_w, 1, g.stride_w);
    }
    microaot_depthwise_conv_2d_params_q p{};
    p.depth_multiplier = i == 0 ? 8 : draw(rng, 2, 8);
    if (g.in_c * p.depth_multiplier < 4) g.in_c = (4 + p.depth_multiplier - 1) / p.depth_multiplier;
    g.out_c = g.in_c * p.depth_multiplier;
    set_conv_window(p, g);
    std::vector<int32_t> multiplier, shift;
    for (int c = 0; c < g.out_c; ++c) {
      multiplier.push_back((1 << 30) + static_cast<int32_t>(rng() % (1u << 30)));
      shift.push_back(draw(rng, -3, 3));
    }
    const int32_t zero_point = draw(rng, -120, 120);
    p.input_offset = -zero_point, p.output_offset = draw(rng, -20, 20);
    p.activation_min = i % 3 == 0 ? p.output_offset : -128, p.activation_max = 127;
    p.output_multiplier = multiplier.data(), p.output_shift = shift.data();
    const auto input = random_ints<int8_t>(rng, static_cast<size_t>(g.batches * g.in_h * g.in_w * g.in_c),
                                           zero_point - 4, zero_point + 4);
    const auto filter = random_ints<int8_t>(rng, static_cast<size_t>(g.filter_h * g.filter_w * g.out_c), -3, 3);
    const auto bias = random_ints<int32_t>(rng, static_cast<size_t>(g.out_c), -20, 20);
    const size_t out_size = static_cast<size_t>(g.batches * g.out_h * g.out_w * g.out_c);
    std::vector<int8_t> expected(out_size), got(out_size), got_overlap(out_size);
    std::vector<int8_t> scratch(static_cast<size_t>(g.out_w * g.out_c));
    const int32_t* b = i % 4 == 1 ? nullptr : bias.data();
    microaot_depthwise_conv_2d_s8(&p, input.data(), filter.data(), b, expected.data());
    multiplier_taking(&p, input.data(), filter.data(), b, got.data());
    multiplier_overlap_taking(&p, input.data(), filter.data(), b, got_overlap.data(), scratch.data());
    ASSERT_EQ(got, expected) << "case " << i;
    ASSERT_EQ(got_overlap, expected) << "case " << i;
    compared += static_cast<int>(out_size), inside += unclamped(expected);
  }
  EXPECT_GT(inside, compared / 2);
}

// depthwise_conv_2d_s8_multiplier_strip on the layers it takes (microaot_fit_depthwise_multiplier_strip_tile), the
// others depthwise_conv_2d_s8_multiplier, as the chooser gives them: random layers of random_strip_geometry (3x3
// undilated ones too; rows wider than a tile), depth multipliers 2 to 8 over 1 to 7 input channels (groups reading
// one input channel or two, split anywhere, the last group overlapping the one before), every fifth with extreme
// data: inputs and weights at the int8 bounds and the input offset at the DSP bounds (128, -127; -128, whose zero
// point would not pad as a byte, keeps the multiplier kernel).
TEST(DspDepthwiseConv2dS8MultiplierStrip, MatchesPortableOnRandomLayers) {
  std::mt19937 rng(53);
  Counts counts;
  int strips = 0, tiled = 0;
  for (int i = 0; i < 300; ++i) {
    Geometry g = random_strip_geometry(rng, i, true);
    const bool extreme = i % 5 == 4;
    microaot_depthwise_conv_2d_params_q p{};
    p.depth_multiplier = 2 + i % 7;
    g.in_c = draw(rng, 1, 7);
    if (g.in_c * p.depth_multiplier < 4) g.in_c = 2;
    g.out_c = g.in_c * p.depth_multiplier;
    set_conv_window(p, g);
    const int taps = g.filter_h * g.filter_w;
    const Quantization q = random_quantization(rng, g.out_c, extreme ? 4 * taps : taps);
    set_quantization(p, q, rng);
    auto input = random_ints<int8_t>(rng, static_cast<size_t>(g.batches * g.in_h * g.in_w * g.in_c), -128, 127);
    auto filter = random_ints<int8_t>(rng, static_cast<size_t>(taps * g.out_c), -127, 127);
    if (extreme) {
      const int offsets[] = {128, -127, -128};
      p.input_offset = offsets[i / 5 % 3];
      for (int8_t& v : input) v = v < 0 ? -128 : 127;
      for (int8_t& v : filter) v = v < 0 ? -128 : 127;
    }
    const auto bias = random_ints<int32_t>(rng, static_cast<size_t>(g.out_c), -5000, 5000);
    const int32_t* b = i % 4 == 0 ? nullptr : bias.data();
    const microaot_depthwise_channels ch{b, p.output_multiplier, p.output_shift};
    const int32_t tile = microaot_fit_depthwise_multiplier_strip_tile(&p, &ch);
    strips += tile > 0, tiled += tile > 0 && tile < g.out_w;
    const size_t out_n = static_cast<size_t>(g.batches * g.out_h * g.out_w * g.out_c);
    std::vector<int8_t> expected(out_n), got(out_n), got_overlap(out_n), scratch(static_cast<size_t>(g.out_w * g.out_c));
    microaot_depthwise_conv_2d_s8(&p, input.data(), filter.data(), b, expected.data());
    if (tile > 0) {
      ASSERT_EQ(microaot_dsp_depthwise_conv_2d_s8_multiplier_strip(&p, input.data(), filter.data(), b, got.data()),
                MICROAOT_STATUS_OK);
      ASSERT_EQ(microaot_dsp_depthwise_conv_2d_s8_multiplier_strip_overlap(&p, input.data(), filter.data(), b,
                                                                         got_overlap.data(), scratch.data()),
                MICROAOT_STATUS_OK);
    } else {
      multiplier_taking(&p, input.data(), filter.data(), b, got.data());
      multiplier_overlap_taking(&p, input.data(), filter.data(), b, got_overlap.data(), scratch.data());
    }
    ASSERT_EQ(got, expected) << "case " << i << ": " << g.filter_h << "x" << g.filter_w << " dilation "
                             << g.dilation_h << "x" << g.dilation_w << " stride " << g.stride_h << "x" << g.stride_w
                             << " in " << g.in_h << "x" << g.in_w << "x" << g.in_c << " multiplier "
                             << p.depth_multiplier;
    ASSERT_EQ(got_overlap, expected) << "case " << i;
    if (!extreme) counts.compared += static_cast<int>(out_n), counts.inside += unclamped(expected);
  }
  EXPECT_GT(counts.inside, counts.compared / 2);
  EXPECT_GT(strips, 200);  // the strip's cases, not the in-image taps'
  EXPECT_GT(tiled, 10);
}

// Outside microaot_fit_depthwise_multiplier_strip_tile (a left shift, micro_speech's 10x8 filter, whose tile would
// be under 4 columns, an input offset of -128, depth multiplier 1) both strip kernels return VALUE_OUT_OF_RANGE and
// leave the output as it was; the layer before the change: OK, written.
TEST(DspDepthwiseConv2dS8MultiplierStrip, RefusesLayersOutsideItsRuleWithoutWriting) {
  struct Layer : MultiplierLayer {
    Layer() : MultiplierLayer({1, 12, 40, 1, 3, 3, 12, 40, 8, 1, 1, 1, 1, 1, 1}, 8) {}
    std::pair<microaot_status, microaot_status> run(bool* written) {
      return run_with(microaot_dsp_depthwise_conv_2d_s8_multiplier_strip,
                      microaot_dsp_depthwise_conv_2d_s8_multiplier_strip_overlap, written);
    }
  };
  const std::pair<const char*, void (*)(Layer&)> changes[] = {
      {"a left shift", [](Layer& l) { l.shift[3] = 1; }},
      {"a 10x8 filter", [](Layer& l) { l.p.filter_height = 10, l.p.filter_width = 8, l.p.output_height = 3,
                                       l.p.output_width = 33; }},
      {"input offset -128", [](Layer& l) { l.p.input_offset = -128; }},
      {"depth multiplier 1", [](Layer& l) { l.p.depth_multiplier = 1, l.p.input_depth = 8; }},
  };
  expect_refused_without_writing(changes);
}

// A ring layer (5x5, 8 channels, "same") whose requantization lies within the ring's bounds, and the status
// and output of both ring kernels on it after `change`.
struct RingLayer {
  Geometry g{1, 5, 5, 8, 3, 3, 5, 5, 8, 1, 1, 1, 1, 1, 1};
  std::vector<int32_t> multiplier = std::vector<int32_t>(8, 1 << 30), shift = std::vector<int32_t>(8, -10);
  std::vector<int32_t> bias = std::vector<int32_t>(8, 1000);
  microaot_depthwise_conv_2d_params_q p{};

  RingLayer() {
    set_conv_window(p, g);
    p.depth_multiplier = 1;
    p.input_offset = 3, p.output_offset = -4;
    p.activation_min = -128, p.activation_max = 127;
  }
  // The two kernels' statuses (`no_requant`: a NULL requantization array); `written` says whether either
  // wrote a byte of its output.
  std::pair<microaot_status, microaot_status> run(bool* written, bool no_requant = false) {
    p.output_multiplier = multiplier.data(), p.output_shift = shift.data();
    const DwRingArgs ring(p);
    const int32_t* requant = no_requant ? nullptr : ring.requant.data();
    const std::vector<int8_t> input(static_cast<size_t>(g.in_h * g.in_w * g.in_c), 7);
    const std::vector<int8_t> filter(static_cast<size_t>(9 * g.out_c), -5);
    const std::vector<int8_t> sentinel(static_cast<size_t>(g.out_h * g.out_w * g.out_c), 0x5a);
    std::vector<int8_t> plain = sentinel, overlap = sentinel, scratch(static_cast<size_t>(g.out_w * g.out_c));
    const microaot_status a = microaot_dsp_depthwise_conv_2d_s8_ring(&ring.params, input.data(), filter.data(),
                                                                     bias.data(), requant, plain.data());
    const microaot_status b = microaot_dsp_depthwise_conv_2d_s8_ring_overlap(
        &ring.params, input.data(), filter.data(), bias.data(), requant, overlap.data(), scratch.data());
    *written = plain != sentinel || overlap != sentinel;
    return {a, b};
  }
};

// Each bound of microaot_dsp_depthwise_fits and the ring's geometry, crossed by one value: both kernels
// return VALUE_OUT_OF_RANGE and leave the output as it was (the layer the same before the change: OK).
TEST(DspDepthwiseConv2dS8Ring, RefusesLayersOutsideItsBoundsWithoutWriting) {
  const std::pair<const char*, void (*)(RingLayer&)> changes[] = {
      {"bias 2^29 + 1", [](RingLayer& l) { l.bias[3] = (1 << 29) + 1; }},
      {"bias -2^29 - 1", [](RingLayer& l) { l.bias[0] = -(1 << 29) - 1; }},
      {"shift 0", [](RingLayer& l) { l.shift[2] = 0; }},
      {"left shift", [](RingLayer& l) { l.shift[7] = 1; }},
      {"negative multiplier", [](RingLayer& l) { l.multiplier[5] = -(1 << 30); }},
      {"rounding term 2^30", [](RingLayer& l) { l.p.output_offset = 128, l.shift[1] = -24; }},
      {"input offset 129", [](RingLayer& l) { l.p.input_offset = 129; }},
      {"stride 2",
       [](RingLayer& l) { l.p.stride_height = l.p.stride_width = 2, l.p.output_height = l.p.output_width = 3; }},
      {"depth 6", [](RingLayer& l) { l.p.input_depth = l.p.output_depth = 6; }},
  };
  expect_refused_without_writing(changes);
}

// Without its requantization array both ring kernels return NULL_POINTER and write nothing.
TEST(DspDepthwiseConv2dS8Ring, RefusesANullRequantizationWithoutWriting) {
  bool written = true;
  RingLayer layer;
  EXPECT_EQ(layer.run(&written, /*no_requant=*/true),
            std::make_pair(MICROAOT_STATUS_NULL_POINTER, MICROAOT_STATUS_NULL_POINTER));
  EXPECT_FALSE(written);
}

// The SMMLAR output step at the edges of its bounds (dw_fits): extreme inputs, weights and offsets, biases up
// to 2^29, right shifts 1..22 (and shift 0 or a larger bias: the portable fallback), both channel groups.
TEST(DspDepthwiseConv2dS8, MatchesPortableAtTheFastPathBounds) {
  std::mt19937 rng(23);
  const Geometry g{1, 5, 6, 8, 3, 3, 5, 6, 8, 1, 1, 1, 1, 1, 1};
  int compared = 0, inside = 0;
  for (int i = 0; i < 300; ++i) {
    microaot_depthwise_conv_2d_params_q p{};
    set_conv_window(p, g);
    p.depth_multiplier = 1;
    p.input_offset = i % 2 == 0 ? 128 : -128;
    p.output_offset = i % 3 == 0 ? 128 : (i % 3 == 1 ? -128 : draw(rng, -128, 128));
    p.activation_min = -128, p.activation_max = 127;
    std::vector<int32_t> multiplier(8), shift(8), bias(8);
    for (int c = 0; c < 8; ++c) {
      multiplier[static_cast<size_t>(c)] = (1 << 30) + draw(rng, 0, (1 << 30) - 1);
      shift[static_cast<size_t>(c)] = i % 37 == 5 && c == 3 ? 0 : -draw(rng, 1, 22);
      bias[static_cast<size_t>(c)] = i % 41 == 7 && c == 6 ? (1 << 29) + 1 : draw(rng, -(1 << 29), 1 << 29);
    }
    p.output_multiplier = multiplier.data(), p.output_shift = shift.data();
    auto input = random_ints<int8_t>(rng, static_cast<size_t>(g.in_h * g.in_w * g.in_c), -128, 127);
    auto filter = random_ints<int8_t>(rng, static_cast<size_t>(9 * g.out_c), -128, 127);
    for (auto* v : {&input, &filter}) {
      for (int8_t& x : *v) x = draw(rng, 0, 3) == 0 ? x : static_cast<int8_t>(x < 0 ? -128 : 127);
    }
    const size_t out_size = static_cast<size_t>(g.out_h * g.out_w * g.out_c);
    std::vector<int8_t> expected(out_size), got(out_size), got_overlap(out_size);
    std::vector<int8_t> scratch(static_cast<size_t>(g.out_w * g.out_c));
    microaot_depthwise_conv_2d_s8(&p, input.data(), filter.data(), bias.data(), expected.data());
    microaot_dsp_depthwise_conv_2d_s8(&p, input.data(), filter.data(), bias.data(), got.data());
    microaot_dsp_depthwise_conv_2d_s8_overlap(&p, input.data(), filter.data(), bias.data(), got_overlap.data(),
                                              scratch.data());
    ASSERT_EQ(got, expected) << "case " << i;
    ASSERT_EQ(got_overlap, expected) << "case " << i;
    compared += static_cast<int>(out_size);
    inside += unclamped(expected);
  }
  EXPECT_GT(inside, compared / 20);
}

TEST(DspFullyConnectedS8, MatchesPortableOnRandomShapes) {
  std::mt19937 rng(17);
  int compared = 0, inside = 0;
  for (int i = 0; i < 400; ++i) {
    microaot_fully_connected_params_q p{};
    p.batches = draw(rng, 1, 3), p.input_depth = draw(rng, 1, 70), p.output_depth = draw(rng, 1, 9);
    p.filter_offset = i % 3 == 0 ? draw(rng, -127, 128) : 0;  // asymmetric weights too
    const Quantization q = random_quantization(rng, p.output_depth, p.input_depth);
    set_quantization(p, q, rng);
    const auto input = random_ints<int8_t>(rng, static_cast<size_t>(p.batches * p.input_depth), -128, 127);
    const auto weights = random_ints<int8_t>(rng, static_cast<size_t>(p.output_depth * p.input_depth), -128, 127);
    const auto bias = random_ints<int32_t>(rng, static_cast<size_t>(p.output_depth), -5000, 5000);
    const size_t out_size = static_cast<size_t>(p.batches * p.output_depth);
    std::vector<int8_t> expected(out_size), got(out_size);
    const int32_t* b = i % 4 == 0 ? nullptr : bias.data();
    microaot_fully_connected_s8(&p, input.data(), weights.data(), b, expected.data());
    microaot_dsp_fully_connected_s8(&p, input.data(), weights.data(), b, got.data());
    ASSERT_EQ(got, expected) << "case " << i;
    compared += static_cast<int>(out_size);
    inside += unclamped(expected);
  }
  EXPECT_GT(inside, compared / 2);
}

// Random scales and zero points as TFLM's Prepare sets them (left shift 20: the SMMLAR path; 19 in every
// tenth case: the general one), flat and with input 2 broadcast along the inner dimension; every pair of
// input values in the flat cases.
TEST(DspAddS8, MatchesPortableOnRandomScales) {
  std::mt19937 rng(19);
  std::uniform_real_distribution<double> scale(0.002, 0.2);
  const int32_t shape[2] = {256, 256}, strides1[2] = {256, 1}, strides2[2] = {1, 0};
  for (int i = 0; i < 60; ++i) {
    // Every seventh case two equal scales (both inputs take the exact path), every eleventh a common scale
    // above both (both take SMMLAR; not what TFLM's Prepare makes, but valid parameters).
    const double s1 = scale(rng), drawn_s2 = scale(rng), s2 = i % 7 == 3 ? s1 : drawn_s2, so = scale(rng) * 2;
    const double twice_max = (i % 11 == 5 ? 3 : 2) * std::max(s1, s2);
    microaot_add_params_q p{};
    if (i % 3 == 0) {
      binary_test::set_walk(p, 256 * 256, 2, shape, strides1, strides2);
    } else {
      binary_test::set_walk(p, 256 * 256);
    }
    const int left_shift = i % 10 == 9 ? 19 : 20;
    binary_test::set_input_rescale(p, draw(rng, -128, 127), multiplier_test::quantize(s1 / twice_max),
                                   draw(rng, -128, 127), multiplier_test::quantize(s2 / twice_max), left_shift);
    const bool relu = i % 2 == 0;
    const int32_t drawn = draw(rng, -20, 20);
    const int32_t zo = i % 5 == 4 ? (i % 2 == 0 ? -100 : 100) : drawn;  // larger offsets too
    binary_test::set_output_rescale(p, multiplier_test::quantize(twice_max / ((1 << left_shift) * so)), zo,
                                    relu ? zo : -128, 127);
    std::vector<int8_t> a, b, expected(256 * 256), got(256 * 256);
    for (int x = -128; x < 128; ++x) {
      for (int y = -128; y < 128; ++y) a.push_back(static_cast<int8_t>(x)), b.push_back(static_cast<int8_t>(y));
    }
    microaot_add_s8(&p, a.data(), b.data(), expected.data());
    microaot_dsp_add_s8(&p, a.data(), b.data(), got.data());
    ASSERT_EQ(got, expected) << "case " << i;
    EXPECT_GT(unclamped(expected), 256 * 256 / 8) << "case " << i;
  }
}

// Random scales and zero points (real multipliers from 2^-20 to 4: right shifts up to the fast path's bound,
// and left shifts, which take the general code), the clamp [-128, 127], a ReLU's, or an upper bound below 127
// (alone or with a ReLU's): every pair of input values in a flat run of odd length (the one-by-one tail), and the
// broadcast walk's rows with input 1 or input 2 one value (step 0), or a row repeated (per-channel broadcasting).
TEST(DspMulS8, MatchesPortableOnEveryPairAndBroadcast) {
  std::mt19937 rng(23);
  const int32_t shape[2] = {256, 256}, rows[2] = {256, 1}, one_per_row[2] = {1, 0}, repeated_row[2] = {0, 1};
  const int32_t* const strides[4][2] = {{nullptr, nullptr}, {rows, one_per_row}, {one_per_row, rows}, {rows, repeated_row}};
  std::vector<int8_t> a, b;
  for (int x = -128; x < 128; ++x) {
    for (int y = -128; y < 128; ++y) a.push_back(static_cast<int8_t>(x)), b.push_back(static_cast<int8_t>(y));
  }
  for (int i = 0; i < 48; ++i) {
    microaot_mul_params_q p{};
    const int walk = i % 4;
    if (walk == 0) {
      binary_test::set_walk(p, 256 * 256 - 3);
    } else {
      binary_test::set_walk(p, 256 * 256, 2, shape, strides[walk][0], strides[walk][1]);
    }
    // zero points at the bounds every fifth case (offsets -127 and 128)
    p.input1_offset = i % 5 == 2 ? 128 : -draw(rng, -128, 127);
    p.input2_offset = i % 5 == 2 ? -127 : -draw(rng, -128, 127);
    const double real = std::ldexp(1.0, draw(rng, -20, 1)) * std::uniform_real_distribution<double>(0.5, 1.0)(rng);
    const int32_t zo = i % 6 == 5 ? (i % 2 == 0 ? -128 : 127) : draw(rng, -30, 30);
    const int32_t hi = i % 3 == 1 ? std::max(zo, -100) + 60 : 127;  // an upper clamp: the packed run's UQSUB8
    binary_test::set_output_rescale(p, multiplier_test::quantize(real), zo, i % 2 == 0 ? std::min(zo, 100) : -128,
                                    std::min(hi, 127));
    std::vector<int8_t> expected(256 * 256), got(256 * 256);
    microaot_mul_s8(&p, a.data(), b.data(), expected.data());
    microaot_dsp_mul_s8(&p, a.data(), b.data(), got.data());
    ASSERT_EQ(got, expected) << "case " << i;
  }
}

// A per-channel operand of up to 64 channels (mul_s8.c's mul_channels: its row repeated into a buffer the packed
// run reads) on either side, over channel counts that make whole eights and not, spans that wrap, a single row
// (the row-by-row walk), 65 channels (too long: the walk), and the output in place of the full operand.
TEST(DspMulS8, RepeatsAShortPerChannelOperand) {
  std::mt19937 rng(29);
  const int32_t channel_counts[] = {1, 3, 4, 6, 8, 13, 32, 48, 63, 64, 65};
  int i = 0;
  for (const int32_t channels : channel_counts) {
    for (int k = 0; k < 6; ++k, ++i) {
      microaot_mul_params_q p{};
      const bool first = k % 2 == 0;  // the vector is input 1
      const int32_t rows = k == 5 ? 1 : draw(rng, 2, 40);
      const int32_t shape[2] = {rows, channels}, full[2] = {channels, 1}, vector_strides[2] = {0, 1};
      binary_test::set_walk(p, rows * channels, 2, shape, first ? vector_strides : full, first ? full : vector_strides);
      p.input1_offset = -draw(rng, -128, 127);
      p.input2_offset = -draw(rng, -128, 127);
      const double real = std::ldexp(1.0, draw(rng, -12, -2)) * std::uniform_real_distribution<double>(0.5, 1.0)(rng);
      const int32_t zo = draw(rng, -30, 30);
      binary_test::set_output_rescale(p, multiplier_test::quantize(real), zo, k % 3 == 1 ? zo : -128,
                                      k % 3 == 2 ? 60 : 127);
      const std::vector<int8_t> values = binary_test::random_bytes(rng, static_cast<size_t>(rows * channels));
      const std::vector<int8_t> vector = binary_test::random_bytes(rng, static_cast<size_t>(channels));
      const int8_t* const a = first ? vector.data() : values.data();
      const int8_t* const b = first ? values.data() : vector.data();
      std::vector<int8_t> expected(values.size()), got(values.size()), in_place = values;
      microaot_mul_s8(&p, a, b, expected.data());
      microaot_dsp_mul_s8(&p, a, b, got.data());
      ASSERT_EQ(got, expected) << "case " << i << ", " << channels << " channels";
      microaot_dsp_mul_s8(&p, first ? vector.data() : in_place.data(), first ? in_place.data() : vector.data(),
                          in_place.data());
      ASSERT_EQ(in_place, expected) << "case " << i << " in place";
    }
  }
}

// The packed run (microaot_dsp_mul_run: the sum shifted left by 16 - e so that its high half is the output) at
// the bounds of its proof (mul_s8.c's packing_of): right shifts e of 1 (the sums would leave int32: the
// four-at-a-time code), 2 (the greatest left shift), 3, 15, 16 (no shift) and 17 (above: the four-at-a-time
// code), the multiplier's least and greatest mantissa, the output offset at -128 and 127 (the rounding term's
// extremes), the offsets at their bounds (|product| up to 255 * 255), every clamp form; every pair of int8 values,
// a flat run of odd length (the tail).
TEST(DspMulS8, PackedRunMatchesPortableAtItsBounds) {
  std::vector<int8_t> a, b;
  for (int x = -128; x < 128; ++x) {
    for (int y = -128; y < 128; ++y) a.push_back(static_cast<int8_t>(x)), b.push_back(static_cast<int8_t>(y));
  }
  const int32_t offsets[3][2] = {{128, 128}, {-127, -127}, {128, -127}};
  const int32_t clamps[4][2] = {{-128, 127}, {-128, 40}, {-50, 127}, {-50, 40}};
  int i = 0;
  for (const int32_t e : {1, 2, 3, 15, 16, 17}) {
    for (const int32_t mantissa : {1 << 30, INT32_MAX}) {
      for (const int32_t zo : {-128, 127}) {
        for (int k = 0; k < 4; ++k, ++i) {
          microaot_mul_params_q p{};
          binary_test::set_walk(p, 256 * 256 - 5);
          p.input1_offset = offsets[i % 3][0];
          p.input2_offset = offsets[i % 3][1];
          binary_test::set_output_rescale(p, multiplier_test::Multiplier{mantissa, -e}, zo, clamps[k][0], clamps[k][1]);
          std::vector<int8_t> expected(a.size()), got(a.size());
          microaot_mul_s8(&p, a.data(), b.data(), expected.data());
          microaot_dsp_mul_s8(&p, a.data(), b.data(), got.data());
          ASSERT_EQ(got, expected) << "e " << e << ", mantissa " << mantissa << ", zo " << zo << ", clamp " << k;
        }
      }
    }
  }
}

}  // namespace
