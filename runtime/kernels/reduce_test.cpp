// Reduction kernels (SUM/MEAN, REDUCE_MAX/MIN, ARG_MAX/MIN) over hand-made walks: each output against a
// direct loop over the same input in row-major order, strided groups, the int32 wrap of integer sums, the
// first of equal extremes, NaN never winning, and the start of max/min at the type's limits.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "microaot/kernels/reduce.h"
#include "multiplier_test_util.h"

namespace {

// A [2, 3, 4] input reduced over dimension 1: kept [2, 4] strides [12, 1], reduced [3] stride [4].
struct Walks {
  std::vector<int32_t> kept_shape{2, 4}, kept_strides{12, 1}, reduced_shape{3}, reduced_strides{4};
};
const Walks kAxis1;

// `groups` groups of `size` consecutive elements.
Walks consecutive(int32_t groups, int32_t size) {
  Walks w;
  w.kept_shape = {groups};
  w.kept_strides = {size};
  w.reduced_shape = {size};
  w.reduced_strides = {1};
  return w;
}

// Points into w, which must outlive the result.
microaot_reduce_params walk_params(const Walks& w = kAxis1) {
  return {static_cast<int32_t>(w.kept_shape.size()), w.kept_shape.data(), w.kept_strides.data(),
          static_cast<int32_t>(w.reduced_shape.size()), w.reduced_shape.data(), w.reduced_strides.data()};
}

// input[i][j][k] of the [2, 3, 4] input, for output element (i, k) and reduced index j.
template <typename T>
T at(const std::vector<T>& input, int i, int j, int k) {
  return input[static_cast<size_t>(i * 12 + j * 4 + k)];
}

std::vector<int8_t> int8_input() {
  std::vector<int8_t> in;
  for (int n = 0; n < 24; ++n) in.push_back(static_cast<int8_t>((n * 53) % 256 - 128));
  return in;
}

TEST(ReduceMaxMin, MatchDirectLoopsOverTheAxis) {
  const std::vector<int8_t> in = int8_input();
  const microaot_reduce_params p = walk_params();
  std::vector<int8_t> max(8), min(8);
  microaot_reduce_max_s8(&p, in.data(), max.data());
  microaot_reduce_min_s8(&p, in.data(), min.data());
  for (int i = 0; i < 2; ++i) {
    for (int k = 0; k < 4; ++k) {
      int hi = -128, lo = 127;
      for (int j = 0; j < 3; ++j) hi = std::max<int>(hi, at(in, i, j, k)), lo = std::min<int>(lo, at(in, i, j, k));
      EXPECT_EQ(max[static_cast<size_t>(i * 4 + k)], hi) << i << "," << k;
      EXPECT_EQ(min[static_cast<size_t>(i * 4 + k)], lo) << i << "," << k;
    }
  }
}

TEST(ReduceMaxMin, FloatStartsAtTheTypeLimitsAndSkipsNaN) {
  // Groups of 2 consecutive elements: [-inf, NaN] keeps -FLT_MAX, as TFLM's start value; [NaN, 3] gives 3.
  const Walks w = consecutive(2, 2);
  const microaot_reduce_params p = walk_params(w);
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  const std::vector<float> in = {-inf, nan, nan, 3.0f};
  std::vector<float> max(2), min(2);
  microaot_reduce_max_f32(&p, in.data(), max.data());
  microaot_reduce_min_f32(&p, in.data(), min.data());
  EXPECT_EQ(max[0], -FLT_MAX);
  EXPECT_EQ(max[1], 3.0f);
  EXPECT_EQ(min[0], -inf);
  EXPECT_EQ(min[1], 3.0f);
}

TEST(ArgMaxMin, FirstOfEqualExtremesAndNaNNeverWins) {
  const Walks w = consecutive(2, 4);
  const microaot_reduce_params p = walk_params(w);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> in = {1.0f, 5.0f, 5.0f, -2.0f, nan, 7.0f, nan, -7.0f};
  std::vector<int32_t> arg_max(2), arg_min(2);
  microaot_arg_max_f32_s32(&p, in.data(), arg_max.data());
  microaot_arg_min_f32_s32(&p, in.data(), arg_min.data());
  EXPECT_EQ(arg_max, (std::vector<int32_t>{1, 0}));  // a leading NaN is never replaced: no x > NaN
  EXPECT_EQ(arg_min, (std::vector<int32_t>{3, 0}));
  const std::vector<int8_t> q = {-3, 9, 9, -3, 4, 4, 4, 4};
  std::vector<int32_t> q_max(2), q_min(2);
  microaot_arg_max_s8_s32(&p, q.data(), q_max.data());
  microaot_arg_min_s8_s32(&p, q.data(), q_min.data());
  EXPECT_EQ(q_max, (std::vector<int32_t>{1, 0}));
  EXPECT_EQ(q_min, (std::vector<int32_t>{0, 0}));
}

TEST(ArgMax, StridedAxisMatchesADirectLoop) {
  const std::vector<int8_t> in = int8_input();
  const microaot_reduce_params p = walk_params();
  std::vector<int32_t> out(8);
  microaot_arg_max_s8_s32(&p, in.data(), out.data());
  for (int i = 0; i < 2; ++i) {
    for (int k = 0; k < 4; ++k) {
      int best = 0;
      for (int j = 1; j < 3; ++j) best = at(in, i, j, k) > at(in, i, best, k) ? j : best;
      EXPECT_EQ(out[static_cast<size_t>(i * 4 + k)], best);
    }
  }
}

microaot_reduce_sum_params_q sum_params(const Walks& w, int32_t sum_offset, double real, int32_t output_zp) {
  const multiplier_test::Multiplier m = multiplier_test::quantize(real);
  const microaot_reduce_params walk = walk_params(w);
  return {walk.kept_dims, walk.kept_shape,   walk.kept_strides, walk.reduced_dims,
          walk.reduced_shape, walk.reduced_strides, sum_offset, m.mantissa, m.shift, output_zp};
}

TEST(ReduceSum, Int8FollowsTheRealSum) {
  // in = 0.1 * (q - 5), out = 0.2 * (q + 3): SUM rescales by 0.5, MEAN by 0.5 / 3.
  const std::vector<int8_t> in = int8_input();
  for (const bool mean : {false, true}) {
    const double real = mean ? 0.5 / 3 : 0.5;
    const microaot_reduce_sum_params_q p = sum_params(kAxis1, -5 * 3, real, -3);
    std::vector<int8_t> out(8);
    microaot_reduce_sum_s8(&p, in.data(), out.data());
    for (int i = 0; i < 2; ++i) {
      for (int k = 0; k < 4; ++k) {
        double sum = 0;
        for (int j = 0; j < 3; ++j) sum += 0.1 * (at(in, i, j, k) - 5);
        if (mean) sum /= 3;
        const double want = std::clamp(std::round(sum / 0.2) - 3, -128.0, 127.0);
        EXPECT_NEAR(out[static_cast<size_t>(i * 4 + k)], want, 1.0) << mean << " " << i << "," << k;
      }
    }
  }
}

TEST(ReduceSum, Int16SumWrapsInThirtyTwoBitsAsTFLM) {
  // 2^17 + 1 copies of 32767 in one group: TFLM's int32 sum wraps; multiplier 1.
  const int32_t n = (1 << 17) + 1;
  const Walks one_group = consecutive(1, n);  // outlives p, which points into it
  const microaot_reduce_sum_params_q p = sum_params(one_group, 0, 1.0, 0);
  const std::vector<int16_t> in(static_cast<size_t>(n), 32767);
  int16_t out = 0;
  microaot_reduce_sum_s16(&p, in.data(), &out);
  const int64_t exact = static_cast<int64_t>(n) * 32767;
  const auto wrapped = static_cast<int32_t>(static_cast<uint32_t>(exact));
  EXPECT_LT(wrapped, 0);  // the wrap happened, so saturation goes to the low end
  EXPECT_EQ(out, INT16_MIN);
}

TEST(ReduceSum, FloatAddsInRowMajorOrderThenDivides) {
  const std::vector<float> in = {1e8f, 1.0f, -1e8f, 1.0f, 2.0f, 3.0f, 0.5f, 0.25f, 4.0f, 5.0f, 6.0f, 7.0f};
  // [3, 4] reduced over dimension 0: groups {in[k], in[4 + k], in[8 + k]}.
  Walks w;
  w.kept_shape = {4};
  w.kept_strides = {1};
  w.reduced_shape = {3};
  w.reduced_strides = {4};
  const microaot_reduce_params walk = walk_params(w);
  const microaot_reduce_sum_params_f32 p = {walk.kept_dims,     walk.kept_shape,      walk.kept_strides,
                                            walk.reduced_dims,  walk.reduced_shape,   walk.reduced_strides,
                                            3.0f};
  std::vector<float> out(4);
  microaot_reduce_sum_f32(&p, in.data(), out.data());
  for (int k = 0; k < 4; ++k) {
    float sum = 0.0f;
    for (int j = 0; j < 3; ++j) sum += in[static_cast<size_t>(j * 4 + k)];
    EXPECT_EQ(out[static_cast<size_t>(k)], sum / 3.0f) << k;  // same order, same float result
  }
  EXPECT_EQ(out[0], (1e8f + 2.0f + 4.0f) / 3.0f);
}

}  // namespace
