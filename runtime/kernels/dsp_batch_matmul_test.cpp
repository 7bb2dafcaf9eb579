// The DSP int8 BATCH_MATMUL (dsp/batch_matmul_s8_dot.c, host build through microaot/internal/dsp.h's C
// definitions) against the portable kernel on random layers: every adj_x / adj_y pair (strided and contiguous
// reads of either operand), 1 to 4 batch dimensions with either operand broadcast, odd and even rows, columns and
// depths from 1 (a lone row or column of a pair, tails of 1 to 3 after the groups of four), zero points anywhere in
// int8, and rescales that saturate part of the outputs, shift left, or shift right by 21; the scratch, filled
// with garbage, is exactly what microaot/fit/batch_matmul.h sizes.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "microaot/fit/batch_matmul.h"
#include "microaot/kernels/batch_matmul.h"
#include "multiplier_test_util.h"

namespace {

int32_t draw(std::mt19937& rng, int32_t lo, int32_t hi) { return std::uniform_int_distribution<int32_t>(lo, hi)(rng); }

// A layer: its batch walk (shape and each operand's batch strides, 0 where broadcast) and params.
struct Layer {
  std::vector<int32_t> shape, lhs_strides, rhs_strides;
  microaot_batch_matmul_params_q p{};
  size_t lhs_size = 0, rhs_size = 0, out_size = 0;
};

Layer random_layer(std::mt19937& rng, int i) {
  Layer l;
  const bool adj_x = i % 4 >= 2, adj_y = i % 2 == 1;
  const int32_t dims = draw(rng, 1, 4);
  int64_t lhs_batches = 1, rhs_batches = 1, batches = 1;
  const int32_t rows = i % 7 == 0 ? draw(rng, 1, 3) : draw(rng, 1, 40);
  const int32_t cols = i % 5 == 0 ? draw(rng, 1, 3) : draw(rng, 1, 40);
  const int32_t depth = i % 6 == 0 ? draw(rng, 1, 5) : draw(rng, 1, 70);
  for (int32_t d = 0; d < dims; ++d) {
    const int32_t n = draw(rng, 1, 3), broadcast = draw(rng, 0, 3);  // 1: lhs broadcast, 2: rhs
    l.shape.push_back(n);
    l.lhs_strides.push_back(broadcast == 1 ? 0 : 1);
    l.rhs_strides.push_back(broadcast == 2 ? 0 : 1);
  }
  // Row-major strides over the dimensions each operand has, in matrices.
  for (int32_t d = dims - 1; d >= 0; --d) {
    const size_t k = static_cast<size_t>(d);
    const int64_t n = l.shape[k];
    batches *= n;
    if (l.lhs_strides[k] != 0) l.lhs_strides[k] = static_cast<int32_t>(lhs_batches * rows * depth), lhs_batches *= n;
    if (l.rhs_strides[k] != 0) l.rhs_strides[k] = static_cast<int32_t>(rhs_batches * depth * cols), rhs_batches *= n;
  }
  microaot_batch_matmul_params_q& p = l.p;
  p.batch_dims = dims;
  p.batch_shape = l.shape.data();
  p.lhs_batch_strides = l.lhs_strides.data();
  p.rhs_batch_strides = l.rhs_strides.data();
  p.rows = rows, p.cols = cols, p.depth = depth;
  p.lhs_row_stride = adj_x ? 1 : depth;
  p.lhs_depth_stride = adj_x ? rows : 1;
  p.rhs_depth_stride = adj_y ? 1 : cols;
  p.rhs_col_stride = adj_y ? depth : 1;
  p.lhs_offset = -draw(rng, -128, 127);
  p.rhs_offset = -draw(rng, -128, 127);
  p.output_offset = draw(rng, -128, 127);
  // About 1 / (depth x 128) puts most outputs inside int8; a wider draw saturates some. Now and then a left shift
  // (sums that wrap or saturate when shifted) or the right shift of 21 the DSP output step takes at the most.
  double scale = std::uniform_real_distribution<double>(0.1, 3.0)(rng) / (128.0 * depth);
  if (i % 9 == 4) scale = std::uniform_real_distribution<double>(1.0, 300.0)(rng);
  if (i % 11 == 5) scale = std::uniform_real_distribution<double>(0.5, 0.99)(rng) / (1 << 21);
  const multiplier_test::Multiplier m = multiplier_test::quantize(scale);
  p.output_multiplier = m.mantissa;
  p.output_shift = m.shift;
  l.lhs_size = static_cast<size_t>(lhs_batches * rows * depth);
  l.rhs_size = static_cast<size_t>(rhs_batches * depth * cols);
  l.out_size = static_cast<size_t>(batches * rows * cols);
  return l;
}

std::vector<int8_t> random_bytes(std::mt19937& rng, size_t n) {
  std::vector<int8_t> v(n);
  for (int8_t& x : v) x = static_cast<int8_t>(draw(rng, -128, 127));
  return v;
}

TEST(DspBatchMatmulS8, MatchesPortableOnRandomLayers) {
  std::mt19937 rng(71);
  for (int i = 0; i < 400; ++i) {
    const Layer l = random_layer(rng, i);
    ASSERT_TRUE(microaot_fit_bmm_dot(&l.p)) << "layer " << i;
    const std::vector<int8_t> lhs = random_bytes(rng, l.lhs_size), rhs = random_bytes(rng, l.rhs_size);
    std::vector<int8_t> expected(l.out_size), got(l.out_size, 0x5A);
    std::vector<uint32_t> scratch(static_cast<size_t>(microaot_bmm_dot_scratch_bytes(&l.p) / 4), 0xA5A5A5A5u);
    microaot_batch_matmul_s8(&l.p, lhs.data(), rhs.data(), expected.data());
    microaot_batch_matmul_s8_dot(&l.p, lhs.data(), rhs.data(), got.data(), scratch.data());
    ASSERT_EQ(got, expected) << "layer " << i << ": " << l.p.rows << "x" << l.p.depth << " by " << l.p.depth << "x"
                             << l.p.cols << ", strides " << l.p.lhs_depth_stride << "/" << l.p.rhs_depth_stride;
  }
}

// The int8 extremes: every element -128 or 127 against zero points at the ends, the sums at their largest.
TEST(DspBatchMatmulS8, MatchesPortableAtTheExtremes) {
  std::mt19937 rng(73);
  for (int i = 0; i < 16; ++i) {
    Layer l = random_layer(rng, i);
    l.p.lhs_offset = i % 2 ? 128 : -127;
    l.p.rhs_offset = i % 4 >= 2 ? 128 : -127;
    const std::vector<int8_t> lhs(l.lhs_size, i % 3 ? -128 : 127), rhs(l.rhs_size, i % 5 ? 127 : -128);
    std::vector<int8_t> expected(l.out_size), got(l.out_size);
    std::vector<uint32_t> scratch(static_cast<size_t>(microaot_bmm_dot_scratch_bytes(&l.p) / 4));
    microaot_batch_matmul_s8(&l.p, lhs.data(), rhs.data(), expected.data());
    microaot_batch_matmul_s8_dot(&l.p, lhs.data(), rhs.data(), got.data(), scratch.data());
    EXPECT_EQ(got, expected) << "layer " << i;
  }
}

}  // namespace
