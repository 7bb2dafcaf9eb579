// Pooling kernels against hand-computed windows (padding cells excluded, TFLM rounding of the integer mean)
// and an independent reference that scans the full window and skips out-of-bounds cells.
#include "microaot/kernels/pooling.h"

#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace {

struct Geometry {
  int n, h, w, c, fh, fw, sh, sw;
  bool same;
  int out_h() const { return same ? (h + sh - 1) / sh : (h - fh + sh) / sh; }
  int out_w() const { return same ? (w + sw - 1) / sw : (w - fw + sw) / sw; }
  int pad(int in, int out, int f, int s) const {
    const int total = (out - 1) * s + f - in;
    return same && total > 0 ? total / 2 : 0;
  }
  int pad_h() const { return pad(h, out_h(), fh, sh); }
  int pad_w() const { return pad(w, out_w(), fw, sw); }
  int out_size() const { return n * out_h() * out_w() * c; }
};

// Visits the in-bounds cells of one output's window, row by row, as TFLite does.
template <typename T, typename F>
void for_window(const Geometry& g, const std::vector<T>& in, int b, int oy, int ox, int ch, F visit) {
  for (int fy = 0; fy < g.fh; ++fy) {
    for (int fx = 0; fx < g.fw; ++fx) {
      const int y = oy * g.sh - g.pad_h() + fy;
      const int x = ox * g.sw - g.pad_w() + fx;
      if (y < 0 || y >= g.h || x < 0 || x >= g.w) continue;
      visit(in[((b * g.h + y) * g.w + x) * g.c + ch]);
    }
  }
}

template <typename T, typename F>
std::vector<T> reference(const Geometry& g, F reduce) {
  std::vector<T> out;
  for (int b = 0; b < g.n; ++b)
    for (int oy = 0; oy < g.out_h(); ++oy)
      for (int ox = 0; ox < g.out_w(); ++ox)
        for (int ch = 0; ch < g.c; ++ch) out.push_back(reduce(b, oy, ox, ch));
  return out;
}

int64_t ref_avg_int(int64_t sum, int count) {
  // Nearest integer, ties away from zero, via the absolute value.
  const int64_t magnitude = ((sum < 0 ? -sum : sum) * 2 + count) / (2 * count);
  return sum < 0 ? -magnitude : magnitude;
}

// Nearest integer, ties to even: the floor of sum / count, then one up past half or on half from an odd floor.
int64_t ref_avg_even(int64_t sum, int count) {
  const int64_t floor = (sum >= 0 ? sum : sum - (count - 1)) / count, twice_rest = 2 * (sum - floor * count);
  return twice_rest > count || (twice_rest == count && floor % 2 != 0) ? floor + 1 : floor;
}

template <typename T>
std::vector<T> ref_avg_pool_int(const Geometry& g, const std::vector<T>& in, int lo, int hi, bool even = false) {
  return reference<T>(g, [&](int b, int oy, int ox, int ch) {
    int64_t sum = 0;
    int count = 0;
    for_window(g, in, b, oy, ox, ch, [&](T v) { sum += v, ++count; });
    const int64_t v = even ? ref_avg_even(sum, count) : ref_avg_int(sum, count);
    return static_cast<T>(v < lo ? lo : (v > hi ? hi : v));
  });
}

template <typename T>
std::vector<T> ref_max_pool_int(const Geometry& g, const std::vector<T>& in, int lo, int hi) {
  return reference<T>(g, [&](int b, int oy, int ox, int ch) {
    int32_t max = INT32_MIN;
    for_window(g, in, b, oy, ox, ch, [&](T v) { max = v > max ? v : max; });
    return static_cast<T>(max < lo ? lo : (max > hi ? hi : max));
  });
}

std::vector<float> ref_l2_pool_f32(const Geometry& g, const std::vector<float>& in) {
  return reference<float>(g, [&](int b, int oy, int ox, int ch) {
    double sum = 0.0;
    int count = 0;
    for_window(g, in, b, oy, ox, ch, [&](float v) { sum += static_cast<double>(v) * v, ++count; });
    return static_cast<float>(std::sqrt(sum / count));
  });
}

std::vector<float> ref_pool_f32(const Geometry& g, const std::vector<float>& in, bool average, float lo, float hi) {
  return reference<float>(g, [&](int b, int oy, int ox, int ch) {
    float sum = 0.0f, max = -FLT_MAX;
    int count = 0;
    for_window(g, in, b, oy, ox, ch, [&](float v) { sum += v, max = v > max ? v : max, ++count; });
    const float v = average ? sum / static_cast<float>(count) : max;
    return v < lo ? lo : (v > hi ? hi : v);
  });
}

// The kernels' params for geometry g and the clamp range [lo, hi].
template <typename Params>
Params params_of(const Geometry& g, decltype(Params::activation_min) lo, decltype(Params::activation_max) hi) {
  Params p{};  // the rest (the int8 pools' ties_to_even) 0
  p.batches = g.n, p.input_height = g.h, p.input_width = g.w, p.channels = g.c;
  p.output_height = g.out_h(), p.output_width = g.out_w(), p.filter_height = g.fh, p.filter_width = g.fw;
  p.stride_height = g.sh, p.stride_width = g.sw, p.padding_height = g.pad_h(), p.padding_width = g.pad_w();
  p.activation_min = lo, p.activation_max = hi;
  return p;
}

// Runs a pool kernel with the clamp range [lo, hi] on an output buffer prefilled with 55.
template <typename T, typename Params>
std::vector<T> run_pool(void (*kernel)(const Params*, const T*, T*), const Geometry& g, const std::vector<T>& in,
                        decltype(Params::activation_min) lo, decltype(Params::activation_max) hi) {
  const Params p = params_of<Params>(g, lo, hi);
  std::vector<T> out(static_cast<size_t>(g.out_size()), static_cast<T>(55));
  kernel(&p, in.data(), out.data());
  return out;
}

std::vector<int8_t> avg_s8(const Geometry& g, const std::vector<int8_t>& in, int lo = -128, int hi = 127) {
  return run_pool(microaot_average_pool_2d_s8, g, in, lo, hi);
}

std::vector<int8_t> max_s8(const Geometry& g, const std::vector<int8_t>& in, int lo = -128, int hi = 127) {
  return run_pool(microaot_max_pool_2d_s8, g, in, lo, hi);
}

std::vector<int16_t> avg_s16(const Geometry& g, const std::vector<int16_t>& in, int lo = INT16_MIN,
                             int hi = INT16_MAX) {
  return run_pool(microaot_average_pool_2d_s16, g, in, lo, hi);
}

std::vector<int16_t> max_s16(const Geometry& g, const std::vector<int16_t>& in, int lo = INT16_MIN,
                             int hi = INT16_MAX) {
  return run_pool(microaot_max_pool_2d_s16, g, in, lo, hi);
}

std::vector<float> pool_f32(const Geometry& g, const std::vector<float>& in, bool average, float lo, float hi) {
  return run_pool(average ? microaot_average_pool_2d_f32 : microaot_max_pool_2d_f32, g, in, lo, hi);
}

TEST(AveragePoolS8, SamePaddingCountsOnlyInBoundsCells) {
  // 3x3 input, 2x2 filter, stride 2, SAME: output 2x2, no padding before (total 1 goes after).
  const Geometry g{1, 3, 3, 1, 2, 2, 2, 2, true};
  const std::vector<int8_t> in = {1, 2, 9,  //
                                  4, 6, -7,
                                  -3, 8, 100};
  // (1+2+4+6)/4 = 3.25 -> 3; (9-7)/2 = 1; (-3+8)/2 = 2.5 -> 3; 100/1.
  EXPECT_EQ(avg_s8(g, in), (std::vector<int8_t>{3, 1, 3, 100}));
}

// ties_to_even (ONNX's rounding of a QDQ AveragePool): halves go to the even neighbour, the rest as before.
TEST(AveragePoolS8, TiesToEvenWhenAsked) {
  const Geometry g{1, 1, 2, 6, 1, 2, 1, 1, false};  // one window of two cells, six channels
  const std::vector<int8_t> in = {2, -2, -1, 1, 0, 127, 3, -3, -2, 2, -1, 126};  // sums 5, -5, -3, 3, -1, 253
  auto p = params_of<microaot_pool_2d_params_q>(g, -128, 127);
  p.ties_to_even = 1;
  std::vector<int8_t> out(6);
  microaot_average_pool_2d_s8(&p, in.data(), out.data());
  EXPECT_EQ(out, (std::vector<int8_t>{2, -2, -2, 2, 0, 126}));
  const Geometry quad{1, 2, 2, 1, 2, 2, 1, 1, false};  // 2x2: sums 6 and -6 -> 1.5 and -1.5
  for (const int8_t v : {int8_t{1}, int8_t{-1}}) {
    const std::vector<int8_t> four = {v, v, static_cast<int8_t>(2 * v), static_cast<int8_t>(2 * v)};
    auto q = params_of<microaot_pool_2d_params_q>(quad, -128, 127);
    q.ties_to_even = 1;
    int8_t mean = 0;
    microaot_average_pool_2d_s8(&q, four.data(), &mean);
    EXPECT_EQ(mean, 2 * v);
  }
}

TEST(AveragePoolS8, RoundsTiesAwayFromZero) {
  const Geometry g{1, 1, 2, 3, 1, 2, 1, 1, false};  // one window of two cells, three channels
  const std::vector<int8_t> in = {2, -2, -1, 3, -3, -2};  // sums 5, -5, -3
  EXPECT_EQ(avg_s8(g, in), (std::vector<int8_t>{3, -3, -2}));
  EXPECT_EQ(avg_s8(g, in, -2, 2), (std::vector<int8_t>{2, -2, -2}));
}

TEST(MaxPoolS8, HandComputedWithClamp) {
  const Geometry g{1, 3, 3, 1, 2, 2, 2, 2, true};
  const std::vector<int8_t> in = {1, 2, 9, 4, 6, -7, -3, 8, -100};
  EXPECT_EQ(max_s8(g, in), (std::vector<int8_t>{6, 9, 8, -100}));
  EXPECT_EQ(max_s8(g, in, -10, 7), (std::vector<int8_t>{6, 7, 7, -10}));
}

TEST(AveragePoolS16, SumsBeyondInt16AndRoundsTiesAwayFromZero) {
  const Geometry g{1, 1, 2, 3, 1, 2, 1, 1, false};  // one window of two cells, three channels
  const std::vector<int16_t> in = {30000, -30001, 1, 32767, -32767, 2};  // sums 62767, -62768, 3
  EXPECT_EQ(avg_s16(g, in), (std::vector<int16_t>{31384, -31384, 2}));
  EXPECT_EQ(avg_s16(g, in, -1000, 1000), (std::vector<int16_t>{1000, -1000, 2}));
}

TEST(MaxPoolS16, HandComputedWithClamp) {
  // Every window holds only the lowest value in one channel: the maximum starts at INT16_MIN.
  const Geometry g{1, 3, 3, 1, 2, 2, 2, 2, true};
  const std::vector<int16_t> in = {-32768, -32768, 9000, -32768, -32768, -7, -3, 8000, -32768};
  EXPECT_EQ(max_s16(g, in), (std::vector<int16_t>{-32768, 9000, 8000, -32768}));
  EXPECT_EQ(max_s16(g, in, -10, 7000), (std::vector<int16_t>{-10, 7000, 7000, -10}));
}

TEST(PoolF32, HandComputed) {
  const Geometry g{1, 3, 3, 1, 2, 2, 2, 2, true};
  const std::vector<float> in = {1, 2, 9, 4, 6, -7, -3, 8, 100};
  EXPECT_EQ(pool_f32(g, in, true, -FLT_MAX, FLT_MAX), (std::vector<float>{3.25f, 1.0f, 2.5f, 100.0f}));
  EXPECT_EQ(pool_f32(g, in, true, 0.0f, 6.0f), (std::vector<float>{3.25f, 1.0f, 2.5f, 6.0f}));
  EXPECT_EQ(pool_f32(g, in, false, -FLT_MAX, FLT_MAX), (std::vector<float>{6.0f, 9.0f, 8.0f, 100.0f}));
}

TEST(L2PoolF32, HandComputed) {
  // 2x2 windows (stride 2, SAME) of a 3x3 image: sqrt((1+4+16+4)/4) = 2.5, sqrt((9+1)/2), sqrt((9+16)/2), 100.
  const Geometry g{1, 3, 3, 1, 2, 2, 2, 2, true};
  const std::vector<float> in = {1, 2, 3, -4, 2, 1, -3, 4, 100};
  const std::vector<float> out = run_pool(microaot_l2_pool_2d_f32, g, in, -FLT_MAX, FLT_MAX);
  EXPECT_EQ(out, (std::vector<float>{2.5f, std::sqrt(5.0f), std::sqrt(12.5f), 100.0f}));
  EXPECT_EQ(run_pool(microaot_l2_pool_2d_f32, g, in, 0.0f, 6.0f)[3], 6.0f);
}

// The shapes of the op suite plus odd SAME cases, several batches and non-square windows.
const Geometry kShapes[] = {
    {1, 16, 16, 16, 2, 2, 2, 2, false}, {1, 7, 7, 2, 3, 3, 1, 1, true},  {1, 8, 8, 3, 2, 2, 2, 2, false},
    {1, 9, 9, 4, 3, 3, 2, 2, true},     {2, 5, 6, 3, 3, 2, 2, 3, true},  {3, 4, 7, 1, 4, 4, 3, 1, true},
    {2, 6, 5, 2, 2, 3, 1, 2, false},    {1, 2, 2, 5, 5, 5, 1, 1, true},  {1, 1, 1, 1, 1, 1, 1, 1, false},
};

// An int8 input of geometry g, uniform over [-128, 127].
std::vector<int8_t> random_s8(const Geometry& g, std::mt19937& rng) {
  std::uniform_int_distribution<int> value(-128, 127);
  std::vector<int8_t> in(static_cast<size_t>(g.n * g.h * g.w * g.c));
  for (int8_t& v : in) v = static_cast<int8_t>(value(rng));
  return in;
}

TEST(PoolS8, MatchesReferenceOnRandomInputs) {
  std::mt19937 rng(42);
  for (const Geometry& g : kShapes) {
    const std::vector<int8_t> in = random_s8(g, rng);
    EXPECT_EQ(avg_s8(g, in), ref_avg_pool_int(g, in, -128, 127));
    EXPECT_EQ(avg_s8(g, in, -3, 60), ref_avg_pool_int(g, in, -3, 60));
    EXPECT_EQ(max_s8(g, in), ref_max_pool_int(g, in, -128, 127));
    EXPECT_EQ(max_s8(g, in, -128, 20), ref_max_pool_int(g, in, -128, 20));
  }
}

// The lanes' and the global pool's stems without the DSP extension (portable/average_pool_2d_s8_lanes.c,
// _global.c) compute every layer, those outside the DSP kernels' bounds too (channels 2, 3, 5, windows smaller
// than the plane): OK and the reference's bytes, in both variants.
TEST(AveragePoolS8Lanes, PortableComputesEveryLayer) {
  std::mt19937 rng(44);
  for (const Geometry& g : kShapes) {
    const std::vector<int8_t> in = random_s8(g, rng);
    const auto p = params_of<microaot_pool_2d_params_q>(g, -128, 127);
    std::vector<int8_t> plain(static_cast<size_t>(g.out_size()), 55), overlap = plain;
    std::vector<int8_t> scratch(static_cast<size_t>(g.out_w() * g.c));
    EXPECT_EQ(microaot_average_pool_2d_s8_lanes(&p, in.data(), plain.data()), MICROAOT_STATUS_OK);
    EXPECT_EQ(microaot_average_pool_2d_s8_lanes_overlap(&p, in.data(), overlap.data(), scratch.data()),
              MICROAOT_STATUS_OK);
    EXPECT_EQ(plain, ref_avg_pool_int(g, in, -128, 127));
    EXPECT_EQ(overlap, plain);
    std::vector<int8_t> global(plain.size(), 55), global_overlap = global;
    EXPECT_EQ(microaot_average_pool_2d_s8_global(&p, in.data(), global.data()), MICROAOT_STATUS_OK);
    EXPECT_EQ(microaot_average_pool_2d_s8_global_overlap(&p, in.data(), global_overlap.data(), scratch.data()),
              MICROAOT_STATUS_OK);
    EXPECT_EQ(global, plain);
    EXPECT_EQ(global_overlap, plain);
  }
}

// With ties_to_even, int8 and int16 against the reference, the lanes' and global stems' portable builds too.
TEST(PoolS8, TiesToEvenMatchesReferenceOnRandomInputs) {
  std::mt19937 rng(45);
  for (const Geometry& g : kShapes) {
    const std::vector<int8_t> in = random_s8(g, rng);
    auto p = params_of<microaot_pool_2d_params_q>(g, -100, 100);
    p.ties_to_even = 1;
    std::vector<int8_t> out(static_cast<size_t>(g.out_size())), lanes = out, global = out;
    microaot_average_pool_2d_s8(&p, in.data(), out.data());
    EXPECT_EQ(out, ref_avg_pool_int(g, in, -100, 100, /*even=*/true));
    EXPECT_EQ(microaot_average_pool_2d_s8_lanes(&p, in.data(), lanes.data()), MICROAOT_STATUS_OK);
    EXPECT_EQ(microaot_average_pool_2d_s8_global(&p, in.data(), global.data()), MICROAOT_STATUS_OK);
    EXPECT_EQ(lanes, out);
    EXPECT_EQ(global, out);
    std::vector<int16_t> in16(in.begin(), in.end()), out16(out.size());
    for (int16_t& v : in16) v = static_cast<int16_t>(v * 201 + 7);
    auto p16 = params_of<microaot_pool_2d_params_q>(g, INT16_MIN, INT16_MAX);
    p16.ties_to_even = 1;
    microaot_average_pool_2d_s16(&p16, in16.data(), out16.data());
    EXPECT_EQ(out16, ref_avg_pool_int(g, in16, INT16_MIN, INT16_MAX, /*even=*/true));
  }
}

TEST(PoolS16, MatchesReferenceOnRandomInputs) {
  std::mt19937 rng(43);
  std::uniform_int_distribution<int> value(INT16_MIN, INT16_MAX);
  for (const Geometry& g : kShapes) {
    std::vector<int16_t> in(static_cast<size_t>(g.n * g.h * g.w * g.c));
    for (int16_t& v : in) v = static_cast<int16_t>(value(rng));
    EXPECT_EQ(avg_s16(g, in), ref_avg_pool_int(g, in, INT16_MIN, INT16_MAX));
    EXPECT_EQ(avg_s16(g, in, -300, 9000), ref_avg_pool_int(g, in, -300, 9000));
    EXPECT_EQ(max_s16(g, in), ref_max_pool_int(g, in, INT16_MIN, INT16_MAX));
    EXPECT_EQ(max_s16(g, in, INT16_MIN, 2000), ref_max_pool_int(g, in, INT16_MIN, 2000));
  }
}

TEST(PoolF32, MatchesReferenceOnRandomInputs) {
  std::mt19937 rng(7);
  std::normal_distribution<float> normal(0.0f, 3.0f);
  for (const Geometry& g : kShapes) {
    std::vector<float> in(static_cast<size_t>(g.n * g.h * g.w * g.c));
    for (float& v : in) v = normal(rng);
    for (bool average : {true, false}) {
      EXPECT_EQ(pool_f32(g, in, average, -FLT_MAX, FLT_MAX), ref_pool_f32(g, in, average, -FLT_MAX, FLT_MAX));
      EXPECT_EQ(pool_f32(g, in, average, 0.0f, 6.0f), ref_pool_f32(g, in, average, 0.0f, 6.0f));
    }
    const std::vector<float> l2 = run_pool(microaot_l2_pool_2d_f32, g, in, -FLT_MAX, FLT_MAX);
    const std::vector<float> want = ref_l2_pool_f32(g, in);
    for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(l2[i], want[i], 1e-5f * (1.0f + want[i])) << i;
  }
}

}  // namespace
