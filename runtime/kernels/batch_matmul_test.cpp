// BATCH_MATMUL kernels: a hand-computed 2x2 product, float with a transposed rhs and a broadcast lhs batch
// against a direct triple loop, int8 with zero points against the real product, and int16 through TFLite's
// 64-bit rescale (sums beyond 32 bits).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "microaot/kernels/batch_matmul.h"
#include "multiplier_test_util.h"

namespace {

// The shape fields for `batches` output matrices of [rows, cols] with depth `depth`: lhs row-major
// [rows, depth], rhs row-major [depth, cols] or, with adj_y, [cols, depth].
struct Geometry {
  std::vector<int32_t> shape, lhs_strides, rhs_strides;
  int32_t rows, cols, depth;
  bool adj_y;
};

template <typename Params>
Params shape_params(const Geometry& g) {
  Params p{};
  p.batch_dims = static_cast<int32_t>(g.shape.size());
  p.batch_shape = g.shape.data();
  p.lhs_batch_strides = g.lhs_strides.data();
  p.rhs_batch_strides = g.rhs_strides.data();
  p.rows = g.rows;
  p.cols = g.cols;
  p.depth = g.depth;
  p.lhs_row_stride = g.depth;
  p.lhs_depth_stride = 1;
  p.rhs_depth_stride = g.adj_y ? 1 : g.cols;
  p.rhs_col_stride = g.adj_y ? g.depth : 1;
  return p;
}

TEST(BatchMatmulF32, HandComputedTwoByTwo) {
  const Geometry g = {{1}, {0}, {0}, 2, 2, 2, false};
  const auto p = shape_params<microaot_batch_matmul_params_f32>(g);
  const std::vector<float> lhs = {1, 2, 3, 4}, rhs = {5, 6, 7, 8};
  std::vector<float> out(4);
  microaot_batch_matmul_f32(&p, lhs.data(), rhs.data(), out.data());
  EXPECT_EQ(out, (std::vector<float>{19, 22, 43, 50}));
}

TEST(BatchMatmulF32, BroadcastLhsAndTransposedRhsMatchALoop) {
  // lhs [1, 3, 4] shared by 2 batches of rhs [2, 5, 4] read transposed: out [2, 3, 5].
  const Geometry g = {{2}, {0}, {20}, 3, 5, 4, true};
  const auto p = shape_params<microaot_batch_matmul_params_f32>(g);
  std::vector<float> lhs, rhs;
  for (int k = 0; k < 12; ++k) lhs.push_back(0.5f * static_cast<float>(k % 7) - 1.0f);
  for (int k = 0; k < 40; ++k) rhs.push_back(0.25f * static_cast<float>(k % 9) - 0.75f);
  std::vector<float> out(30);
  microaot_batch_matmul_f32(&p, lhs.data(), rhs.data(), out.data());
  for (int b = 0; b < 2; ++b) {
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 5; ++j) {
        double sum = 0;
        for (int k = 0; k < 4; ++k) sum += double{lhs[static_cast<size_t>(i * 4 + k)]} * rhs[static_cast<size_t>(b * 20 + j * 4 + k)];
        EXPECT_NEAR(out[static_cast<size_t>(b * 15 + i * 5 + j)], sum, 1e-6) << b << i << j;
      }
    }
  }
}

TEST(BatchMatmulS8, FollowsTheRealProduct) {
  const double ls = 0.02, rs = 0.03, os = 0.05;
  const int32_t lzp = 7, rzp = -3, ozp = 2;
  const Geometry g = {{1}, {0}, {0}, 3, 4, 6, false};
  auto p = shape_params<microaot_batch_matmul_params_q>(g);
  const multiplier_test::Multiplier m = multiplier_test::quantize(static_cast<float>(ls * rs) / os);
  p.lhs_offset = -lzp;
  p.rhs_offset = -rzp;
  p.output_multiplier = m.mantissa;
  p.output_shift = m.shift;
  p.output_offset = ozp;
  std::vector<int8_t> lhs, rhs;
  for (int k = 0; k < 18; ++k) lhs.push_back(static_cast<int8_t>((k * 41) % 256 - 128));
  for (int k = 0; k < 24; ++k) rhs.push_back(static_cast<int8_t>((k * 67 + 5) % 256 - 128));
  std::vector<int8_t> out(12);
  microaot_batch_matmul_s8(&p, lhs.data(), rhs.data(), out.data());
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 4; ++j) {
      double real = 0;
      for (int k = 0; k < 6; ++k) real += ls * (lhs[static_cast<size_t>(i * 6 + k)] - lzp) * rs * (rhs[static_cast<size_t>(k * 4 + j)] - rzp);
      const double want = std::clamp(std::round(real / os) + ozp, -128.0, 127.0);
      EXPECT_NEAR(out[static_cast<size_t>(i * 4 + j)], want, 1.0) << i << "," << j;
    }
  }
}

TEST(BatchMatmulS16, SixtyFourBitSumsRescaled) {
  // One dot product of 4 x (32767 * 32767) ~ 2^32: beyond int32, exact in the 64-bit accumulator.
  const Geometry g = {{1}, {0}, {0}, 1, 1, 4, false};
  auto p = shape_params<microaot_batch_matmul_params_q>(g);
  const multiplier_test::Multiplier m = multiplier_test::quantize(1.0 / 262144);  // output = sum / 2^18
  p.output_multiplier = m.mantissa;
  p.output_shift = m.shift;
  const std::vector<int16_t> lhs(4, 32767), rhs(4, 32767);
  int16_t out = 0;
  microaot_batch_matmul_s16(&p, lhs.data(), rhs.data(), &out);
  EXPECT_EQ(out, static_cast<int16_t>(std::lround(4.0 * 32767 * 32767 / 262144)));
  // -4 * 32768 * 32767 / 2^18 = -16383.5: TFLite's 64-bit rescale rounds a half up, to -16383.
  const std::vector<int16_t> negative(4, -32768);
  microaot_batch_matmul_s16(&p, negative.data(), rhs.data(), &out);
  EXPECT_EQ(out, -16383);
}

}  // namespace
