// The row-wise overlap flavors (conv, depthwise conv, average and max pool; int8 and float32): on random
// small geometries, with input and output in one buffer at the compiler's bound (in_place_bounds.h) and at
// lower shifts, the output must be bit-identical to the normal kernel's on separate buffers. One element
// above the bound must break some geometries, which shows the runs really overlap.
#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "../../compiler/ops/in_place_bounds.h"
#include "microaot/kernels/conv.h"
#include "microaot/kernels/pooling.h"
#include "overlap_harness.h"

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

Geometry random_geometry(Kind kind, std::mt19937& rng) {
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  for (;;) {
    Geometry g{};
    g.batches = pick(1, 2);
    g.in_h = pick(1, 8), g.in_w = pick(1, 6), g.in_c = pick(1, 4);
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
  return overlap_test::random_values<T>(n, rng, 1.0f, -128, 127);
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

template <typename T>
void run_conv_cases(Kind kind) {
  constexpr bool s8 = std::is_same_v<T, int8_t>;
  using Bias = std::conditional_t<s8, int32_t, float>;
  std::mt19937 rng(kind == Kind::kConv ? 11 : 12);
  int unsafe_above = 0;
  for (int trial = 0; trial < 150; ++trial) {
    const Geometry g = random_geometry(kind, rng);
    const std::vector<T> input = random_values<T>(g.in_size(), rng);
    const size_t taps = static_cast<size_t>(g.filter_h) * g.filter_w;
    const std::vector<T> filter =
        random_values<T>(kind == Kind::kConv ? g.out_c * taps * g.filter_depth() : taps * g.out_c, rng);
    std::vector<Bias> bias(g.out_c);
    for (Bias& b : bias) b = static_cast<Bias>(std::uniform_int_distribution<int>(-500, 500)(rng)) / (s8 ? 1 : 256);
    const Bias* bias_ptr = trial % 3 == 0 ? nullptr : bias.data();
    const Requant q = random_requant(g.out_c, rng);
    const int32_t in_off = std::uniform_int_distribution<int32_t>(-127, 128)(rng);
    const int32_t out_off = std::uniform_int_distribution<int32_t>(-128, 127)(rng);
    if constexpr (s8) {
      if (kind == Kind::kConv) {
        const microaot_conv_2d_params_s8 p{
            g.batches, g.in_h,  g.in_w,     g.in_c,     g.filter_h,          g.filter_w,    g.filter_depth(), g.out_h,
            g.out_w,   g.out_c, g.stride_h, g.stride_w, g.dilation_h,        g.dilation_w,  g.pad_h,          g.pad_w,
            in_off,    out_off, -128,       127,        q.multiplier.data(), q.shift.data()};
        check_overlap<T>(
            g, input, [&](const T* in, T* out) { microaot_conv_2d_s8(&p, in, filter.data(), bias_ptr, out); },
            [&](const T* in, T* out, void* s) { microaot_conv_2d_s8_overlap(&p, in, filter.data(), bias_ptr, out, s); },
            &unsafe_above);
      } else {
        const microaot_depthwise_conv_2d_params_s8 p{g.batches,
                                                     g.in_h,
                                                     g.in_w,
                                                     g.in_c,
                                                     g.filter_h,
                                                     g.filter_w,
                                                     g.out_h,
                                                     g.out_w,
                                                     g.out_c,
                                                     g.groups_or_multiplier,
                                                     g.stride_h,
                                                     g.stride_w,
                                                     g.dilation_h,
                                                     g.dilation_w,
                                                     g.pad_h,
                                                     g.pad_w,
                                                     in_off,
                                                     out_off,
                                                     -100,
                                                     100,
                                                     q.multiplier.data(),
                                                     q.shift.data()};
        check_overlap<T>(
            g, input, [&](const T* in, T* out) { microaot_depthwise_conv_2d_s8(&p, in, filter.data(), bias_ptr, out); },
            [&](const T* in, T* out, void* s) {
              microaot_depthwise_conv_2d_s8_overlap(&p, in, filter.data(), bias_ptr, out, s);
            },
            &unsafe_above);
      }
    } else if (kind == Kind::kConv) {
      const microaot_conv_2d_params_f32 p{g.batches,        g.in_h,       g.in_w,  g.in_c,  g.filter_h, g.filter_w,
                                          g.filter_depth(), g.out_h,      g.out_w, g.out_c, g.stride_h, g.stride_w,
                                          g.dilation_h,     g.dilation_w, g.pad_h, g.pad_w, -FLT_MAX,   FLT_MAX};
      check_overlap<T>(
          g, input, [&](const T* in, T* out) { microaot_conv_2d_f32(&p, in, filter.data(), bias_ptr, out); },
          [&](const T* in, T* out, void* s) { microaot_conv_2d_f32_overlap(&p, in, filter.data(), bias_ptr, out, s); },
          &unsafe_above);
    } else {
      const microaot_depthwise_conv_2d_params_f32 p{
          g.batches,  g.in_h,     g.in_w,       g.in_c,       g.filter_h,
          g.filter_w, g.out_h,    g.out_w,      g.out_c,      g.groups_or_multiplier,
          g.stride_h, g.stride_w, g.dilation_h, g.dilation_w, g.pad_h,
          g.pad_w,    0.0f,       6.0f};
      check_overlap<T>(
          g, input, [&](const T* in, T* out) { microaot_depthwise_conv_2d_f32(&p, in, filter.data(), bias_ptr, out); },
          [&](const T* in, T* out, void* s) {
            microaot_depthwise_conv_2d_f32_overlap(&p, in, filter.data(), bias_ptr, out, s);
          },
          &unsafe_above);
    }
  }
  EXPECT_GT(unsafe_above, 20);
}

TEST(OverlapRows, ConvS8) { run_conv_cases<int8_t>(Kind::kConv); }
TEST(OverlapRows, ConvF32) { run_conv_cases<float>(Kind::kConv); }
TEST(OverlapRows, DepthwiseConvS8) { run_conv_cases<int8_t>(Kind::kDepthwise); }
TEST(OverlapRows, DepthwiseConvF32) { run_conv_cases<float>(Kind::kDepthwise); }

template <typename T, typename Params>
Params pool_params(const Geometry& g, decltype(Params::activation_min) lo, decltype(Params::activation_max) hi) {
  return Params{g.batches,  g.in_h,     g.in_w,     g.in_c,  g.out_h, g.out_w, g.filter_h,
                g.filter_w, g.stride_h, g.stride_w, g.pad_h, g.pad_w, lo,      hi};
}

template <typename T>
void run_pool_cases(bool average) {
  std::mt19937 rng(average ? 21 : 22);
  int unsafe_above = 0;
  for (int trial = 0; trial < 150; ++trial) {
    const Geometry g = random_geometry(Kind::kPool, rng);
    const std::vector<T> input = random_values<T>(g.in_size(), rng);
    if constexpr (std::is_same_v<T, int8_t>) {
      const auto p = pool_params<T, microaot_pool_2d_params_s8>(g, -120, 120);
      auto normal = average ? microaot_average_pool_2d_s8 : microaot_max_pool_2d_s8;
      auto overlap = average ? microaot_average_pool_2d_s8_overlap : microaot_max_pool_2d_s8_overlap;
      check_overlap<T>(
          g, input, [&](const T* in, T* out) { normal(&p, in, out); },
          [&](const T* in, T* out, void* s) { overlap(&p, in, out, s); }, &unsafe_above);
    } else {
      const auto p = pool_params<T, microaot_pool_2d_params_f32>(g, -0.9f, FLT_MAX);
      auto normal = average ? microaot_average_pool_2d_f32 : microaot_max_pool_2d_f32;
      auto overlap = average ? microaot_average_pool_2d_f32_overlap : microaot_max_pool_2d_f32_overlap;
      check_overlap<T>(
          g, input, [&](const T* in, T* out) { normal(&p, in, out); },
          [&](const T* in, T* out, void* s) { overlap(&p, in, out, s); }, &unsafe_above);
    }
  }
  EXPECT_GT(unsafe_above, 20);
}

TEST(OverlapRows, AveragePoolS8) { run_pool_cases<int8_t>(true); }
TEST(OverlapRows, AveragePoolF32) { run_pool_cases<float>(true); }
TEST(OverlapRows, MaxPoolS8) { run_pool_cases<int8_t>(false); }
TEST(OverlapRows, MaxPoolF32) { run_pool_cases<float>(false); }

// A MobileNet-sized depthwise layer (3x3, stride 1, SAME, 16x16x32 int8): the output starts one input row
// before the input and still matches.
TEST(OverlapRows, DepthwiseLayerOneRowBack) {
  std::mt19937 rng(5);
  Geometry g{1, 16, 16, 32, 32, 3, 3, 1, 1, 1, 1, 1, true};
  axis(true, 16, 3, 1, 1, g.out_h, g.pad_h);
  axis(true, 16, 3, 1, 1, g.out_w, g.pad_w);
  const std::vector<int8_t> input = random_values<int8_t>(g.in_size(), rng);
  const std::vector<int8_t> filter = random_values<int8_t>(9 * 32, rng);
  const Requant q = random_requant(32, rng);
  const microaot_depthwise_conv_2d_params_s8 p{
      1, 16, 16, 32, 3, 3, 16, 16, 32, 1, 1, 1, 1, 1, 1, 1, 3, -5, -128, 127, q.multiplier.data(), q.shift.data()};
  EXPECT_EQ(microaot::row_wise_max_shift({1, 16, 16, 16 * 32, 16 * 32, 1, 1}), -16 * 32);
  int unsafe_above = 0;
  check_overlap<int8_t>(
      g, input,
      [&](const int8_t* in, int8_t* out) { microaot_depthwise_conv_2d_s8(&p, in, filter.data(), nullptr, out); },
      [&](const int8_t* in, int8_t* out, void* s) {
        microaot_depthwise_conv_2d_s8_overlap(&p, in, filter.data(), nullptr, out, s);
      },
      &unsafe_above);
  EXPECT_EQ(unsafe_above, 1);
}

}  // namespace
