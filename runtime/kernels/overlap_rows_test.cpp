// The row-wise overlap flavors (conv, depthwise conv, average and max pool; int8, int16 and float32): on random
// small geometries, with input and output in one buffer at the compiler's bound (in_place_bounds.h) and at
// lower shifts, the output must be bit-identical to the normal kernel's on separate buffers. One element
// above the bound must break some geometries, which shows the runs really overlap.
#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cstdint>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "../../compiler/ops/in_place_bounds.h"
#include "conv_geometry_test_util.h"
#include "dw_ring_args_test_util.h"
#include "microaot/kernels/conv.h"
#include "microaot/kernels/pooling.h"
#include "dw_group_words_test_util.h"
#include "overlap_harness.h"

extern "C" {
void microaot_dsp_depthwise_conv_2d_s8(const microaot_depthwise_conv_2d_params_q* params, const int8_t* input,
                                       const int8_t* filter, const int32_t* bias, int8_t* output);
void microaot_dsp_depthwise_conv_2d_s8_overlap(const microaot_depthwise_conv_2d_params_q* params,
                                               const int8_t* input, const int8_t* filter, const int32_t* bias,
                                               int8_t* output, void* scratch);
void microaot_dsp_depthwise_conv_2d_s16(const microaot_depthwise_conv_2d_params_q* params, const int16_t* input,
                                        const int8_t* filter, const int64_t* bias, int16_t* output);
void microaot_dsp_depthwise_conv_2d_s16_overlap(const microaot_depthwise_conv_2d_params_q* params,
                                                const int16_t* input, const int8_t* filter, const int64_t* bias,
                                                int16_t* output, void* scratch);
microaot_status microaot_dsp_depthwise_conv_2d_s8_ring_overlap(const microaot_depthwise_conv_2d_params_q* params,
                                                               const int8_t* input, const int8_t* filter,
                                                               const int32_t* bias, const int32_t* requant,
                                                               int8_t* output, void* scratch);
microaot_status microaot_dsp_depthwise_conv_2d_s8_w16_overlap(const microaot_depthwise_conv_2d_params_q* params,
                                                              const int8_t* input, const int32_t* groups,
                                                              int8_t* output, void* scratch);
microaot_status microaot_dsp_depthwise_conv_2d_s8_w8_overlap(const microaot_depthwise_conv_2d_params_q* params,
                                                             const int8_t* input, const int32_t* groups,
                                                             int8_t* output, void* scratch);
}

namespace {

using overlap_test::bytes_of;
using overlap_test::run_overlapped;

enum class Kind { kConv, kDepthwise, kPool };

struct Geometry {
  int batches, in_h, in_w, in_c, out_c;
  int filter_h, filter_w, stride_h, stride_w, dilation_h, dilation_w;
  int groups_or_multiplier;  // conv: groups; depthwise: depth multiplier; pool: 1
  bool same;
  int out_h = 0, out_w = 0, pad_h = 0, pad_w = 0;
  int filter_depth() const { return in_c / groups_or_multiplier; }
  size_t in_size() const { return static_cast<size_t>(batches) * in_h * in_w * in_c; }
  size_t out_size() const { return static_cast<size_t>(batches) * out_h * out_w * out_c; }
};

void axis(bool same, int in, int filter, int stride, int dilation, int& out, int& pad) {
  const int extent = (filter - 1) * dilation + 1;
  out = same ? (in + stride - 1) / stride : (in - extent) / stride + 1;
  pad = same ? std::max(0, ((out - 1) * stride + extent - in) / 2) : 0;
}

Geometry random_geometry(Kind kind, std::mt19937& rng, int max_channels) {
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  for (;;) {
    Geometry g{};
    g.batches = pick(1, 2);
    g.in_h = pick(1, 8), g.in_w = pick(1, 6), g.in_c = pick(1, max_channels);
    g.filter_h = pick(0, 1) ? 1 : 3, g.filter_w = pick(0, 1) ? 1 : 3;
    if (kind == Kind::kPool) g.filter_h = pick(1, 3), g.filter_w = pick(1, 3);
    g.stride_h = pick(1, 2), g.stride_w = pick(1, 2);
    g.dilation_h = kind == Kind::kPool ? 1 : pick(1, 2);
    g.dilation_w = kind == Kind::kPool ? 1 : pick(1, 2);
    g.same = pick(0, 1) == 1;
    g.groups_or_multiplier = 1;
    g.out_c = g.in_c;
    if (kind == Kind::kConv) {
      g.out_c = pick(1, 6);
      if (g.in_c % 2 == 0 && g.out_c % 2 == 0 && pick(0, 1)) g.groups_or_multiplier = 2;
    } else if (kind == Kind::kDepthwise) {
      g.groups_or_multiplier = pick(1, 2);
      if (g.groups_or_multiplier == 2 && g.in_c % 2 == 1) g.groups_or_multiplier = 4;  // the DSP's 4k path
      g.out_c = g.in_c * g.groups_or_multiplier;
    }
    axis(g.same, g.in_h, g.filter_h, g.stride_h, g.dilation_h, g.out_h, g.pad_h);
    axis(g.same, g.in_w, g.filter_w, g.stride_w, g.dilation_w, g.out_w, g.pad_w);
    const bool fits = g.in_h > (g.filter_h - 1) * g.dilation_h && g.in_w > (g.filter_w - 1) * g.dilation_w;
    if (g.same || fits) return g;
  }
}

std::string describe(const Geometry& g) {
  return "b" + std::to_string(g.batches) + " in " + std::to_string(g.in_h) + "x" + std::to_string(g.in_w) + "x" +
         std::to_string(g.in_c) + " out " + std::to_string(g.out_h) + "x" + std::to_string(g.out_w) + "x" +
         std::to_string(g.out_c) + " f " + std::to_string(g.filter_h) + "x" + std::to_string(g.filter_w) + " s " +
         std::to_string(g.stride_h) + "," + std::to_string(g.stride_w) + " d " + std::to_string(g.dilation_h) + "," +
         std::to_string(g.dilation_w) + " g/m " + std::to_string(g.groups_or_multiplier) +
         (g.same ? " SAME" : " VALID");
}

template <typename T>
std::vector<T> random_values(size_t n, std::mt19937& rng) {
  const int64_t bound = std::is_same_v<T, int16_t> ? 20000 : 127;
  return overlap_test::random_values<T>(n, rng, 1.0f, -bound - 1, bound);
}

// Runs the overlap flavor at the bound and below and compares with the normal kernel; counts in
// *unsafe_above the geometries where one element above the bound changes the result.
template <typename T, typename Normal, typename Overlap>
void check_overlap(const Geometry& g, const std::vector<T>& input, Normal normal, Overlap overlap, int* unsafe_above) {
  SCOPED_TRACE(describe(g));
  std::vector<T> expected(g.out_size());
  normal(input.data(), expected.data());
  const std::vector<uint8_t> expected_bytes = bytes_of(expected);
  const auto e = static_cast<int64_t>(sizeof(T));
  const int64_t out_row = int64_t{g.out_w} * g.out_c * e;
  const microaot::RowWiseAccess access{g.batches, g.in_h,     g.out_h, int64_t{g.in_w} * g.in_c * e,
                                       out_row,   g.stride_h, g.pad_h};
  const int64_t bound = microaot::row_wise_max_shift(access);
  auto run = [&](int64_t shift) {
    return run_overlapped(bytes_of(input), expected_bytes.size(), shift, static_cast<size_t>(out_row), e, e,
                          [&](uint8_t* in, uint8_t* out, void* scratch) {
                            overlap(reinterpret_cast<const T*>(in), reinterpret_cast<T*>(out), scratch);
                          });
  };
  for (int64_t shift : {bound, bound - e, bound - 3 * e, bound - out_row, -static_cast<int64_t>(g.out_size()) * e}) {
    EXPECT_EQ(run(shift), expected_bytes) << "shift " << shift << " (bound " << bound << ")";
  }
  if (run(bound + e) != expected_bytes) ++*unsafe_above;
}

// Per-channel requantization constants in the usual range (multiplier in [2^30, 2^31), right shifts).
struct Requant {
  std::vector<int32_t> multiplier, shift;
};

Requant random_requant(int channels, std::mt19937& rng) {
  Requant r;
  for (int c = 0; c < channels; ++c) {
    r.multiplier.push_back(std::uniform_int_distribution<int32_t>(1 << 30, INT32_MAX)(rng));
    r.shift.push_back(std::uniform_int_distribution<int32_t>(-9, -4)(rng));
  }
  return r;
}

// The types of a conv kernel's arguments, read from its signature.
template <typename Kernel>
struct ConvSignature;
template <typename P, typename T, typename W, typename B>
struct ConvSignature<void (*)(const P*, const T*, const W*, const B*, T*)> {
  using Params = P;
  using Element = T;
  using Weight = W;
  using Bias = B;
};

// The geometry fields of either params struct (conv: filter depth; depthwise: depth multiplier).
template <typename Params>
void set_geometry(Params& p, const Geometry& g) {
  set_conv_window(p, g);
  if constexpr (std::is_same_v<Params, microaot_conv_2d_params_q> || std::is_same_v<Params, microaot_conv_2d_params_f32>) {
    p.filter_depth = g.filter_depth();
  } else {
    p.depth_multiplier = g.groups_or_multiplier;
  }
}

// Integer params: random offsets (int16: none, as its tensors are symmetric), a clamp and per-channel
// requantization; float params: a clamp.
template <typename T, typename Params>
Params conv_params(const Geometry& g, const Requant& q, std::mt19937& rng) {
  Params p{};
  set_geometry(p, g);
  if constexpr (std::is_same_v<T, float>) {
    p.activation_min = -FLT_MAX, p.activation_max = FLT_MAX;
  } else {
    const bool s8 = std::is_same_v<T, int8_t>;
    p.input_offset = s8 ? std::uniform_int_distribution<int32_t>(-127, 128)(rng) : 0;
    p.output_offset = s8 ? std::uniform_int_distribution<int32_t>(-128, 127)(rng) : 0;
    p.activation_min = s8 ? -100 : -30000, p.activation_max = s8 ? 100 : 30000;
    p.output_multiplier = q.multiplier.data(), p.output_shift = q.shift.data();
  }
  return p;
}

// A plain conv or depthwise kernel and its overlap flavor on random geometries of `kind`, up to max_channels
// input channels.
template <typename Plain, typename Overlap>
void run_conv_cases(Kind kind, Plain plain, Overlap overlap, int max_channels = 4) {
  using Sig = ConvSignature<Plain>;
  using T = typename Sig::Element;
  using Bias = typename Sig::Bias;
  std::mt19937 rng(kind == Kind::kConv ? 11 : 12);
  int unsafe_above = 0;
  for (int trial = 0; trial < 150; ++trial) {
    const Geometry g = random_geometry(kind, rng, max_channels);
    const std::vector<T> input = random_values<T>(g.in_size(), rng);
    const size_t taps = static_cast<size_t>(g.filter_h) * g.filter_w;
    const auto filter = random_values<typename Sig::Weight>(
        kind == Kind::kConv ? g.out_c * taps * g.filter_depth() : taps * g.out_c, rng);
    std::vector<Bias> bias(g.out_c);
    for (Bias& b : bias) {
      b = static_cast<Bias>(std::uniform_int_distribution<int>(-500, 500)(rng)) / (std::is_same_v<T, float> ? 256 : 1);
    }
    const Bias* bias_ptr = trial % 3 == 0 ? nullptr : bias.data();
    const Requant q = random_requant(g.out_c, rng);
    const auto p = conv_params<T, typename Sig::Params>(g, q, rng);
    check_overlap<T>(
        g, input, [&](const T* in, T* out) { plain(&p, in, filter.data(), bias_ptr, out); },
        [&](const T* in, T* out, void* s) { overlap(&p, in, filter.data(), bias_ptr, out, s); }, &unsafe_above);
  }
  EXPECT_GT(unsafe_above, 20);
}

TEST(OverlapRows, ConvS8) { run_conv_cases(Kind::kConv, microaot_conv_2d_s8, microaot_conv_2d_s8_overlap); }
TEST(OverlapRows, ConvS16) { run_conv_cases(Kind::kConv, microaot_conv_2d_s16, microaot_conv_2d_s16_overlap); }
TEST(OverlapRows, ConvS16Bias32) {
  run_conv_cases(Kind::kConv, microaot_conv_2d_s16_bias32, microaot_conv_2d_s16_bias32_overlap);
}
TEST(OverlapRows, ConvF32) { run_conv_cases(Kind::kConv, microaot_conv_2d_f32, microaot_conv_2d_f32_overlap); }
TEST(OverlapRows, DepthwiseConvS8) {
  run_conv_cases(Kind::kDepthwise, microaot_depthwise_conv_2d_s8, microaot_depthwise_conv_2d_s8_overlap);
}
// The DSP implementation (as microaot_dsp_*), whose overlap flavor goes channel group by channel group (of four) when
// input and output lie a whole number of pixels apart (the shifts above include such and others) and the
// depth multiplier is 1, whole rows otherwise (multiplier 4: four output channels read one input channel).
TEST(OverlapRows, DspDepthwiseConvS8) {
  run_conv_cases(Kind::kDepthwise, microaot_dsp_depthwise_conv_2d_s8, microaot_dsp_depthwise_conv_2d_s8_overlap, 13);
}
// The 16x8 DSP implementation: channel pair by pair at depth multiplier 1 with input and output a whole number of
// pixels apart, whole rows otherwise.
TEST(OverlapRows, DspDepthwiseConvS16) {
  run_conv_cases(Kind::kDepthwise, microaot_dsp_depthwise_conv_2d_s16, microaot_dsp_depthwise_conv_2d_s16_overlap, 13);
}
// The ring's own overlap kernel on odd output heights 1, 3 and 5 ("same" and "valid", two batches): each
// image's last row is a pair whose lower row's results the upper row's overwrite (in place too).
TEST(OverlapRows, DspDepthwiseConvS8RingOnOddHeights) {
  std::mt19937 rng(14);
  int unsafe_above = 0;
  for (const int out_h : {1, 3, 5}) {
    for (const bool same : {true, false}) {
      Geometry g{2, same ? out_h : out_h + 2, 5, 8, 8, 3, 3, 1, 1, 1, 1, 1, same};
      axis(g.same, g.in_h, 3, 1, 1, g.out_h, g.pad_h);
      axis(g.same, g.in_w, 3, 1, 1, g.out_w, g.pad_w);
      const std::vector<int8_t> input = random_values<int8_t>(g.in_size(), rng);
      const auto filter = random_values<int8_t>(9 * static_cast<size_t>(g.out_c), rng);
      const std::vector<int32_t> bias = random_values<int32_t>(static_cast<size_t>(g.out_c), rng);
      const Requant q = random_requant(g.out_c, rng);
      auto p = conv_params<int8_t, microaot_depthwise_conv_2d_params_q>(g, q, rng);
      if (same) p.activation_min = -128, p.activation_max = 127;  // the SSAT alone, no SIMD clamp
      const auto portable = [&](const int8_t* in, int8_t* out) {
        microaot_depthwise_conv_2d_s8(&p, in, filter.data(), bias.data(), out);
      };
      const DwRingArgs args(p);
      const auto ring = [&](const int8_t* in, int8_t* out, void* s) {
        EXPECT_EQ(microaot_dsp_depthwise_conv_2d_s8_ring_overlap(&args.params, in, filter.data(), bias.data(),
                                                                 args.requant.data(), out, s),
                  MICROAOT_STATUS_OK);
      };
      check_overlap<int8_t>(g, input, portable, ring, &unsafe_above);
    }
  }
}
// depthwise_conv_2d_s8_w16's and _w8's overlap kernels (DSP and portable builds) in place on each DSP path: the patch
// (VWW's 6x6 to 3x3 at stride 2, its 3x3 map), the ring, the unrolled windows at stride 2 and over rows wider
// than a tile; the shifts include outputs a whole number of pixels from the input and others (row by row).
TEST(OverlapRows, DspDepthwiseConvS8W16) {
  std::mt19937 rng(15);
  int unsafe_above = 0;
  const Geometry shapes[] = {{1, 6, 6, 16, 16, 3, 3, 2, 2, 1, 1, 1, true}, {1, 3, 3, 8, 8, 3, 3, 1, 1, 1, 1, 1, true},
                             {2, 5, 5, 8, 8, 3, 3, 1, 1, 1, 1, 1, true},   {1, 12, 12, 8, 8, 3, 3, 2, 2, 1, 1, 1, true},
                             {1, 4, 16, 4, 4, 3, 3, 1, 1, 1, 1, 1, false}};
  for (Geometry g : shapes) {
    axis(g.same, g.in_h, 3, g.stride_h, 1, g.out_h, g.pad_h);
    axis(g.same, g.in_w, 3, g.stride_w, 1, g.out_w, g.pad_w);
    const std::vector<int8_t> input = random_values<int8_t>(g.in_size(), rng);
    const auto filter = random_values<int8_t>(9 * static_cast<size_t>(g.out_c), rng);
    std::vector<int32_t> bias(static_cast<size_t>(g.out_c));
    for (int32_t& b : bias) b = std::uniform_int_distribution<int32_t>(-500, 500)(rng);
    const Requant q = random_requant(g.out_c, rng);
    const auto p = conv_params<int8_t, microaot_depthwise_conv_2d_params_q>(g, q, rng);
    const auto portable = [&](const int8_t* in, int8_t* out) {
      microaot_depthwise_conv_2d_s8(&p, in, filter.data(), bias.data(), out);
    };
    const DwGroupWords args(p, filter.data(), bias.data());
    const auto dsp = [&](const int8_t* in, int8_t* out, void* s) {
      EXPECT_EQ(microaot_dsp_depthwise_conv_2d_s8_w16_overlap(&args.params, in, args.words.data(), out, s),
                MICROAOT_STATUS_OK);
    };
    const auto own = [&](const int8_t* in, int8_t* out, void* s) {
      EXPECT_EQ(microaot_depthwise_conv_2d_s8_w16_overlap(&args.params, in, args.words.data(), out, s),
                MICROAOT_STATUS_OK);
    };
    check_overlap<int8_t>(g, input, portable, dsp, &unsafe_above);
    check_overlap<int8_t>(g, input, portable, own, &unsafe_above);
    const DwGroupWords compact(p, filter.data(), bias.data(), true);
    const auto dsp_w8 = [&](const int8_t* in, int8_t* out, void* s) {
      EXPECT_EQ(microaot_dsp_depthwise_conv_2d_s8_w8_overlap(&compact.params, in, compact.words.data(), out, s),
                MICROAOT_STATUS_OK);
    };
    const auto own_w8 = [&](const int8_t* in, int8_t* out, void* s) {
      EXPECT_EQ(microaot_depthwise_conv_2d_s8_w8_overlap(&compact.params, in, compact.words.data(), out, s),
                MICROAOT_STATUS_OK);
    };
    check_overlap<int8_t>(g, input, portable, dsp_w8, &unsafe_above);
    check_overlap<int8_t>(g, input, portable, own_w8, &unsafe_above);
  }
  EXPECT_GT(unsafe_above, 0);
}
TEST(OverlapRows, DepthwiseConvS16) {
  run_conv_cases(Kind::kDepthwise, microaot_depthwise_conv_2d_s16, microaot_depthwise_conv_2d_s16_overlap);
}
TEST(OverlapRows, DepthwiseConvF32) {
  run_conv_cases(Kind::kDepthwise, microaot_depthwise_conv_2d_f32, microaot_depthwise_conv_2d_f32_overlap);
}

template <typename T, typename Params>
Params pool_params(const Geometry& g, decltype(Params::activation_min) lo, decltype(Params::activation_max) hi) {
  Params p{};  // the rest (the int8 pools' ties_to_even) 0
  p.batches = g.batches, p.input_height = g.in_h, p.input_width = g.in_w, p.channels = g.in_c;
  p.output_height = g.out_h, p.output_width = g.out_w, p.filter_height = g.filter_h, p.filter_width = g.filter_w;
  p.stride_height = g.stride_h, p.stride_width = g.stride_w, p.padding_height = g.pad_h, p.padding_width = g.pad_w;
  p.activation_min = lo, p.activation_max = hi;
  return p;
}

// A plain pool kernel and its overlap flavor, with the clamp range [lo, hi].
template <typename T, typename Params, typename Limit>
void run_pool_cases(void (*plain)(const Params*, const T*, T*), void (*overlap)(const Params*, const T*, T*, void*),
                    Limit lo, Limit hi, unsigned seed) {
  std::mt19937 rng(seed);
  int unsafe_above = 0;
  for (int trial = 0; trial < 150; ++trial) {
    const Geometry g = random_geometry(Kind::kPool, rng, 4);
    const std::vector<T> input = random_values<T>(g.in_size(), rng);
    const auto p = pool_params<T, Params>(g, lo, hi);
    check_overlap<T>(
        g, input, [&](const T* in, T* out) { plain(&p, in, out); },
        [&](const T* in, T* out, void* s) { overlap(&p, in, out, s); }, &unsafe_above);
  }
  EXPECT_GT(unsafe_above, 20);
}

TEST(OverlapRows, AveragePoolS8) {
  run_pool_cases(microaot_average_pool_2d_s8, microaot_average_pool_2d_s8_overlap, -120, 120, 21);
}
TEST(OverlapRows, AveragePoolS16) {
  run_pool_cases(microaot_average_pool_2d_s16, microaot_average_pool_2d_s16_overlap, -15000, 15000, 23);
}
TEST(OverlapRows, AveragePoolF32) {
  run_pool_cases(microaot_average_pool_2d_f32, microaot_average_pool_2d_f32_overlap, -0.9f, FLT_MAX, 21);
}
TEST(OverlapRows, MaxPoolS8) { run_pool_cases(microaot_max_pool_2d_s8, microaot_max_pool_2d_s8_overlap, -120, 120, 22); }
TEST(OverlapRows, MaxPoolS16) {
  run_pool_cases(microaot_max_pool_2d_s16, microaot_max_pool_2d_s16_overlap, -15000, 15000, 24);
}
TEST(OverlapRows, MaxPoolF32) {
  run_pool_cases(microaot_max_pool_2d_f32, microaot_max_pool_2d_f32_overlap, -0.9f, FLT_MAX, 22);
}

// A MobileNet-sized depthwise layer (3x3, stride 1, SAME, 16 x width x 32 int8): the output starts one input
// row before the input and still matches.
template <typename Plain, typename Overlap>
void check_depthwise_layer_one_row_back(Plain plain, Overlap overlap, int width) {
  std::mt19937 rng(5);
  Geometry g{1, 16, width, 32, 32, 3, 3, 1, 1, 1, 1, 1, true};
  axis(true, 16, 3, 1, 1, g.out_h, g.pad_h);
  axis(true, width, 3, 1, 1, g.out_w, g.pad_w);
  const std::vector<int8_t> input = random_values<int8_t>(g.in_size(), rng);
  const std::vector<int8_t> filter = random_values<int8_t>(9 * 32, rng);
  const Requant q = random_requant(32, rng);
  const microaot_depthwise_conv_2d_params_q p{1, 16, width, 32, 3, 3, 16, width, 32, 1, 1, 1, 1, 1, 1, 1, 3, -5,
                                              -128, 127, q.multiplier.data(), q.shift.data()};
  EXPECT_EQ(microaot::row_wise_max_shift({1, 16, 16, width * 32, width * 32, 1, 1}), -width * 32);
  int unsafe_above = 0;
  check_overlap<int8_t>(
      g, input,
      [&](const int8_t* in, int8_t* out) { plain(&p, in, filter.data(), nullptr, out); },
      [&](const int8_t* in, int8_t* out, void* s) { overlap(&p, in, filter.data(), nullptr, out, s); },
      &unsafe_above);
  EXPECT_EQ(unsafe_above, 1);
}

TEST(OverlapRows, DepthwiseLayerOneRowBack) {
  check_depthwise_layer_one_row_back(microaot_depthwise_conv_2d_s8, microaot_depthwise_conv_2d_s8_overlap, 16);
}
// The DSP kernel in place: rows of 10 pixels through the widened ring (whole rows in one tile), of 16 pixels
// through the clipped windows (the ring's tiles would overwrite inputs a later tile reads).
TEST(OverlapRows, DspDepthwiseLayerOneRowBack) {
  for (const int width : {10, 16}) {
    check_depthwise_layer_one_row_back(microaot_dsp_depthwise_conv_2d_s8, microaot_dsp_depthwise_conv_2d_s8_overlap,
                                       width);
  }
}

}  // namespace
