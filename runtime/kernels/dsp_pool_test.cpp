// The DSP average_pool_2d_s8 (host: microaot/internal/dsp.h's C definitions) against the portable kernel: random
// windows, strides and padding (windows clipped at the edges), channel counts that are and are not multiples
// of four, windows beyond the int16 lanes (the per-element row), clamps, the overlap variant, KWS's 25x5
// layer, and windows of 256 elements all -128 or all 127 (the lanes' extremes); the lanes' own kernel
// (average_pool_2d_s8_lanes) and the global pool's (average_pool_2d_s8_global) on the same layers: the same
// bytes where each takes the layer, else a refusal. The DSP max_pool_2d_s8 the same way.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "microaot/kernels/pooling.h"

extern "C" {
void microaot_dsp_average_pool_2d_s8(const microaot_pool_2d_params_q* params, const int8_t* input, int8_t* output);
void microaot_dsp_average_pool_2d_s8_overlap(const microaot_pool_2d_params_q* params, const int8_t* input,
                                             int8_t* output, void* scratch);
microaot_status microaot_dsp_average_pool_2d_s8_lanes(const microaot_pool_2d_params_q* params, const int8_t* input,
                                                      int8_t* output);
microaot_status microaot_dsp_average_pool_2d_s8_lanes_overlap(const microaot_pool_2d_params_q* params,
                                                              const int8_t* input, int8_t* output, void* scratch);
microaot_status microaot_dsp_average_pool_2d_s8_global(const microaot_pool_2d_params_q* params, const int8_t* input,
                                                       int8_t* output);
microaot_status microaot_dsp_average_pool_2d_s8_global_overlap(const microaot_pool_2d_params_q* params,
                                                               const int8_t* input, int8_t* output, void* scratch);
void microaot_dsp_max_pool_2d_s8(const microaot_pool_2d_params_q* params, const int8_t* input, int8_t* output);
void microaot_dsp_max_pool_2d_s8_overlap(const microaot_pool_2d_params_q* params, const int8_t* input,
                                         int8_t* output, void* scratch);
}

namespace {

int draw(std::mt19937& rng, int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }

// A "same"-style geometry: output size ceil(input / stride), padding half the overhang.
microaot_pool_2d_params_q geometry(int32_t h, int32_t w, int32_t channels, int32_t fh, int32_t fw, int32_t stride) {
  microaot_pool_2d_params_q p{};
  p.batches = 1;
  p.input_height = h, p.input_width = w, p.channels = channels;
  p.filter_height = fh, p.filter_width = fw, p.stride_height = stride, p.stride_width = stride;
  p.output_height = (h + stride - 1) / stride, p.output_width = (w + stride - 1) / stride;
  p.padding_height = std::max(0, ((p.output_height - 1) * stride + fh - h) / 2);
  p.padding_width = std::max(0, ((p.output_width - 1) * stride + fw - w) / 2);
  p.activation_min = -128, p.activation_max = 127;
  return p;
}

size_t output_size(const microaot_pool_2d_params_q& p) {
  return static_cast<size_t>(p.batches * p.output_height * p.output_width * p.channels);
}

// The lanes' bounds, as the compiler states them: at least 4 channels, windows of at most 256 elements.
bool lanes_take(const microaot_pool_2d_params_q& p) {
  return p.channels >= 4 && p.filter_height * p.filter_width <= 256;
}

// The global pool's bounds, as the compiler states them: the lanes', whole groups of 4 channels, one window over
// the whole plane, 1x1 output.
bool global_takes(const microaot_pool_2d_params_q& p) {
  return lanes_take(p) && p.channels % 4 == 0 && p.filter_height == p.input_height &&
         p.filter_width == p.input_width && p.padding_height == 0 && p.padding_width == 0 && p.output_height == 1 &&
         p.output_width == 1;
}

// A kernel that returns a status, in both variants: the lanes' or the global pool's.
struct StatusKernel {
  microaot_status (*plain)(const microaot_pool_2d_params_q*, const int8_t*, int8_t*);
  microaot_status (*overlap)(const microaot_pool_2d_params_q*, const int8_t*, int8_t*, void*);
};
constexpr StatusKernel kLanes{microaot_dsp_average_pool_2d_s8_lanes, microaot_dsp_average_pool_2d_s8_lanes_overlap};
constexpr StatusKernel kGlobal{microaot_dsp_average_pool_2d_s8_global,
                               microaot_dsp_average_pool_2d_s8_global_overlap};

// Both variants of a status kernel on output buffers filled with a sentinel: their statuses and outputs.
struct LanesRun {
  microaot_status plain, overlap;
  std::vector<int8_t> plain_out, overlap_out;
};
constexpr int8_t kSentinel = 0x5a;

LanesRun run_lanes(const microaot_pool_2d_params_q& p, const std::vector<int8_t>& input,
                   const StatusKernel& kernel = kLanes) {
  LanesRun r{MICROAOT_STATUS_OK, MICROAOT_STATUS_OK, std::vector<int8_t>(output_size(p), kSentinel),
             std::vector<int8_t>(output_size(p), kSentinel)};
  std::vector<int8_t> scratch(static_cast<size_t>(p.output_width * p.channels));
  r.plain = kernel.plain(&p, input.data(), r.plain_out.data());
  r.overlap = kernel.overlap(&p, input.data(), r.overlap_out.data(), scratch.data());
  return r;
}

// The status kernel refused the layer in both variants and wrote none of either output.
void expect_refused(const LanesRun& r, const microaot_pool_2d_params_q& p, int id) {
  EXPECT_EQ(r.plain, MICROAOT_STATUS_VALUE_OUT_OF_RANGE) << "case " << id;
  EXPECT_EQ(r.overlap, MICROAOT_STATUS_VALUE_OUT_OF_RANGE) << "case " << id;
  EXPECT_EQ(r.plain_out, std::vector<int8_t>(output_size(p), kSentinel)) << "case " << id;
  EXPECT_EQ(r.overlap_out, std::vector<int8_t>(output_size(p), kSentinel)) << "case " << id;
}

// A status kernel's run: the expected bytes and OK in both variants where it takes the layer, else a refusal.
void expect_status_kernel(const LanesRun& run, bool takes, const microaot_pool_2d_params_q& p,
                          const std::vector<int8_t>& expected, int id) {
  if (!takes) return expect_refused(run, p, id);
  EXPECT_EQ(run.plain, MICROAOT_STATUS_OK) << "case " << id;
  EXPECT_EQ(run.overlap, MICROAOT_STATUS_OK) << "case " << id;
  EXPECT_EQ(run.plain_out, expected) << "case " << id;
  EXPECT_EQ(run.overlap_out, expected) << "case " << id;
}

void expect_same(const microaot_pool_2d_params_q& p, const std::vector<int8_t>& input, int id) {
  const size_t out_size = output_size(p);
  std::vector<int8_t> expected(out_size), got(out_size), overlap(out_size);
  std::vector<int8_t> scratch(static_cast<size_t>(p.output_width * p.channels));
  microaot_average_pool_2d_s8(&p, input.data(), expected.data());
  microaot_dsp_average_pool_2d_s8(&p, input.data(), got.data());
  EXPECT_EQ(got, expected) << "case " << id;
  microaot_dsp_average_pool_2d_s8_overlap(&p, input.data(), overlap.data(), scratch.data());
  EXPECT_EQ(overlap, expected) << "case " << id;
  expect_status_kernel(run_lanes(p, input, kLanes), lanes_take(p), p, expected, id);
  expect_status_kernel(run_lanes(p, input, kGlobal), global_takes(p), p, expected, id);
}

std::vector<int8_t> random_input(std::mt19937& rng, const microaot_pool_2d_params_q& p) {
  std::vector<int8_t> v(static_cast<size_t>(p.batches * p.input_height * p.input_width * p.channels));
  for (int8_t& x : v) x = static_cast<int8_t>(draw(rng, -128, 127));
  return v;
}

TEST(DspAveragePool2dS8, MatchesPortableOnRandomWindows) {
  std::mt19937 rng(29);
  for (int i = 0; i < 80; ++i) {
    const int32_t channels = i % 5 == 4 ? draw(rng, 1, 11) : 4 * draw(rng, 1, 6);
    microaot_pool_2d_params_q p = geometry(draw(rng, 1, 12), draw(rng, 1, 12), channels, draw(rng, 1, 5),
                                           draw(rng, 1, 5), draw(rng, 1, 2));
    if (i % 3 == 1) p.activation_min = draw(rng, -30, 0), p.activation_max = draw(rng, 1, 40);
    expect_same(p, random_input(rng, p), i);
  }
  // Windows of 289 elements: beyond the lanes, the per-element row.
  microaot_pool_2d_params_q large = geometry(20, 20, 8, 17, 17, 1);
  expect_same(large, random_input(rng, large), 100);
}

TEST(DspAveragePool2dS8, MatchesPortableOnKwsLayerAndLaneExtremes) {
  std::mt19937 rng(31);
  microaot_pool_2d_params_q kws = geometry(25, 5, 64, 25, 5, 1);
  kws.output_height = kws.output_width = 1, kws.padding_height = kws.padding_width = 0;
  expect_same(kws, random_input(rng, kws), 0);
  microaot_pool_2d_params_q full = geometry(16, 16, 8, 16, 16, 16);  // one window of 256 elements
  for (const int8_t value : {int8_t{-128}, int8_t{127}}) {
    const std::vector<int8_t> input(16 * 16 * 8, value);
    expect_same(full, input, value);
    std::vector<int8_t> got(8);
    microaot_dsp_average_pool_2d_s8(&full, input.data(), got.data());
    EXPECT_EQ(got, std::vector<int8_t>(8, value));
  }
}

// The fixed forms' means in the lanes (a shift for count 4, SMULWB/SMULWT by ceil(2^16 / count) for 6 and 9) on
// every sum a window of 4, 6 or 9 int8 can take, one sum a channel: a 2x2 window over a 2x2 plane, a 3x3 window
// clipped to 2x3 (padding above), a 3x3 one over a 3x3 plane; the plain clamp and a narrow one.
TEST(DspAveragePool2dS8, FixedFormsMatchPortableOnEverySum) {
  struct Window {
    int32_t h, w, k, padding_height;
  };
  for (const Window& win : {Window{2, 2, 2, 0}, Window{2, 3, 3, 1}, Window{3, 3, 3, 0}}) {
    const int32_t count = win.h * win.w, lowest = -128 * count, highest = 127 * count;
    const int32_t channels = highest - lowest + 1;  // one channel a sum
    microaot_pool_2d_params_q p = geometry(win.h, win.w, channels, win.k, win.k, 1);
    p.output_height = p.output_width = 1, p.padding_height = win.padding_height, p.padding_width = 0;
    std::vector<int8_t> input(static_cast<size_t>(count * channels));
    for (int32_t c = 0; c < channels; ++c) {
      int32_t rest = lowest + c;  // the channel's sum, spread evenly over its elements (each within int8)
      for (int32_t e = 0; e < count; ++e) {
        const int32_t value = rest / (count - e);
        input[static_cast<size_t>(e * channels + c)] = static_cast<int8_t>(value);
        rest -= value;
      }
      ASSERT_EQ(rest, 0) << "count " << count << " channel " << c;
    }
    expect_same(p, input, count);
    p.activation_min = -20, p.activation_max = 30;
    expect_same(p, input, count + 100);
  }
}

// ONNX's rounding (ties_to_even): the DSP kernel, the lanes' and the global one give the portable kernel's bytes on
// random layers, whose 2x2 and 2x1 windows put many means on a half; the portable kernel itself is checked
// against a reference in pooling_test.cpp.
TEST(DspAveragePool2dS8, TiesToEvenMatchesPortable) {
  std::mt19937 rng(53);
  for (int i = 0; i < 40; ++i) {
    const int32_t channels = i % 4 == 3 ? draw(rng, 1, 7) : 4 * draw(rng, 1, 4);
    microaot_pool_2d_params_q p = geometry(draw(rng, 1, 10), draw(rng, 1, 10), channels, draw(rng, 1, 2),
                                           draw(rng, 1, 2), draw(rng, 1, 2));
    if (i % 5 == 4) p = geometry(2, 2, channels, 2, 2, 2), p.padding_height = p.padding_width = 0;  // global
    p.ties_to_even = 1;
    expect_same(p, random_input(rng, p), i);
  }
}

// The lanes' kernel refuses, output untouched, a layer of 3 channels and a 17x17 window (289 elements), each
// beside the same layer within its bounds (6 channels, a 16x16 window), which it computes.
TEST(DspAveragePool2dS8Lanes, RefusesLayersOutsideItsBoundsWithoutWriting) {
  std::mt19937 rng(41);
  const microaot_pool_2d_params_q three = geometry(6, 6, 3, 3, 3, 1), six = geometry(6, 6, 6, 3, 3, 1);
  const microaot_pool_2d_params_q large = geometry(20, 20, 8, 17, 17, 1), full = geometry(20, 20, 8, 16, 16, 1);
  for (const microaot_pool_2d_params_q& refused : {three, large}) {
    expect_refused(run_lanes(refused, random_input(rng, refused)), refused, 0);
  }
  for (const microaot_pool_2d_params_q& taken : {six, full}) expect_same(taken, random_input(rng, taken), 1);
}

// Global layers (the window the whole plane): channels 4 to 64, planes of 1 to 256 pixels (KWS's 25x5, a row of
// 256, 16x16 at the lanes' extremes), batches 1 and 2, clamps; the global kernel's bytes are the portable ones.
// It refuses, output untouched, 260 pixels and the same planes pooled by a smaller window.
TEST(DspAveragePool2dS8Global, MatchesPortableOnGlobalLayersAndRefusesOthers) {
  std::mt19937 rng(47);
  const int32_t planes[][2] = {{1, 1}, {3, 3}, {25, 5}, {1, 256}, {16, 16}, {7, 9}};
  int id = 0;
  for (const auto& hw : planes) {
    for (const int32_t channels : {4, 12, 64}) {
      microaot_pool_2d_params_q p = geometry(hw[0], hw[1], channels, hw[0], hw[1], 1);
      p.output_height = p.output_width = 1, p.padding_height = p.padding_width = 0;
      p.batches = 1 + id % 2;
      if (id % 3 == 1) p.activation_min = draw(rng, -30, 0), p.activation_max = draw(rng, 1, 40);
      ASSERT_TRUE(global_takes(p));
      expect_same(p, random_input(rng, p), id++);
    }
  }
  microaot_pool_2d_params_q extreme = geometry(16, 16, 8, 16, 16, 1);
  extreme.output_height = extreme.output_width = 1, extreme.padding_height = extreme.padding_width = 0;
  for (const int8_t value : {int8_t{-128}, int8_t{127}}) {
    expect_same(extreme, std::vector<int8_t>(16 * 16 * 8, value), value);
  }

  microaot_pool_2d_params_q beyond = geometry(13, 20, 4, 13, 20, 1);  // 260 pixels: beyond the lanes
  beyond.output_height = beyond.output_width = 1, beyond.padding_height = beyond.padding_width = 0;
  const microaot_pool_2d_params_q smaller = geometry(5, 5, 8, 3, 3, 1);
  for (const microaot_pool_2d_params_q& refused : {beyond, smaller}) {
    expect_refused(run_lanes(refused, random_input(rng, refused), kGlobal), refused, 0);
  }
}

// The DSP max_pool_2d_s8, both variants, gives the portable kernel's bytes (outputs filled with a sentinel first).
void expect_max_same(const microaot_pool_2d_params_q& p, const std::vector<int8_t>& input, int id) {
  const size_t out_size = output_size(p);
  std::vector<int8_t> expected(out_size), got(out_size, kSentinel), overlap(out_size, kSentinel);
  std::vector<int8_t> scratch(static_cast<size_t>(p.output_width * p.channels));
  microaot_max_pool_2d_s8(&p, input.data(), expected.data());
  microaot_dsp_max_pool_2d_s8(&p, input.data(), got.data());
  microaot_dsp_max_pool_2d_s8_overlap(&p, input.data(), overlap.data(), scratch.data());
  EXPECT_EQ(got, expected) << "max case " << id;
  EXPECT_EQ(overlap, expected) << "max case " << id;
}

// Max pooling, four channels a word (SSUB8 + SEL), the last word ending at the last channel, fewer than four
// channels byte by byte: random windows (filters up to 5x5: fixed taps and loops) clipped at the edges, strides 1
// to 3, clamps (one with lo > hi, which the DSP paths leave to the template's row), the overlap variant, and inputs
// all -128 or all 127 against clamps at the ends and inside the range.
TEST(DspMaxPool2dS8, MatchesPortableOnRandomWindowsAndClamps) {
  std::mt19937 rng(59);
  for (int i = 0; i < 120; ++i) {
    const int32_t channels = i % 5 == 4 ? draw(rng, 1, 11) : 4 * draw(rng, 1, 6);
    microaot_pool_2d_params_q p = geometry(draw(rng, 1, 13), draw(rng, 1, 13), channels, draw(rng, 1, 5),
                                           draw(rng, 1, 5), draw(rng, 1, 3));
    p.batches = 1 + i % 2;
    if (i % 3 == 1) p.activation_min = draw(rng, -100, 0), p.activation_max = draw(rng, 1, 100);
    if (i % 17 == 5) p.activation_min = 20, p.activation_max = -20;
    expect_max_same(p, random_input(rng, p), i);
  }
  microaot_pool_2d_params_q p = geometry(5, 7, 8, 3, 3, 2);
  for (const int8_t value : {int8_t{-128}, int8_t{127}}) {
    for (const int32_t lo : {-128, -5}) {
      for (const int32_t hi : {127, 6}) {
        p.activation_min = lo, p.activation_max = hi;
        expect_max_same(p, std::vector<int8_t>(5 * 7 * 8, value), lo * 1000 + hi);
      }
    }
  }
}


// The CNN pools' fixed-tap paths (2x2 and 3x3 filters: the max kernel's taps at fixed places, a tap outside the
// input reading an in-bounds one; the average lanes' full windows as straight-line sums and branch-free means):
// strides 1 to 3, "same" padding all round or below and right only, "valid", channels 1 to 70 (words, the last
// word ending at the last channel, fewer than four one by one), clamps at the int8 ends, inside, and lo > hi, and
// batches of two. Max against the portable kernel, average through the DSP kernel, the lanes' and the global
// one (expect_same).
TEST(DspPool2dS8, CnnPoolsMatchPortable) {
  std::mt19937 rng(61);
  const int32_t channel_counts[] = {1, 2, 3, 4, 5, 7, 8, 12, 16, 30, 32, 64, 70};
  int id = 0;
  for (const int32_t k : {2, 3}) {
    for (const int32_t stride : {1, 2, 3}) {
      for (const int32_t channels : channel_counts) {
        microaot_pool_2d_params_q p = geometry(draw(rng, k, 11), draw(rng, k, 11), channels, k, k, stride);
        if (id % 3 == 0) {  // "valid": no padding, the windows inside the input
          p.padding_height = p.padding_width = 0;
          p.output_height = (p.input_height - k) / stride + 1, p.output_width = (p.input_width - k) / stride + 1;
        } else if (id % 3 == 1) {  // TFLite's "same" for an even overhang: padding below and right only
          p.padding_height = p.padding_width = 0;
        }
        p.batches = 1 + id % 2;
        if (id % 4 == 1) p.activation_min = draw(rng, -100, 0), p.activation_max = draw(rng, 1, 100);
        if (id % 4 == 2) p.activation_min = 0;  // RELU at zero point 0
        if (id % 19 == 7) p.activation_min = 15, p.activation_max = -15;
        const std::vector<int8_t> input = random_input(rng, p);
        expect_max_same(p, input, id);
        expect_same(p, input, id);
        ++id;
      }
    }
  }
  // Full windows of -128 and 127 alone (the means' extremes, a negative tie in every 2x2 window of -127 and -128).
  for (const int32_t k : {2, 3}) {
    microaot_pool_2d_params_q p = geometry(6, 6, 12, k, k, k);
    p.padding_height = p.padding_width = 0;
    for (const int8_t value : {int8_t{-128}, int8_t{127}}) expect_same(p, std::vector<int8_t>(6 * 6 * 12, value), k);
    std::vector<int8_t> ties(6 * 6 * 12);
    for (size_t i = 0; i < ties.size(); ++i) ties[i] = static_cast<int8_t>(i / 12 % 2 == 0 ? -127 : -128);
    expect_same(p, ties, k + 10);
  }
}

}  // namespace
