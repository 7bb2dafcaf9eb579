// The DSP add_s8_linear and add_s8_folded (host: the C definitions of their instructions) against the portable
// add_s8_linear on random forms: flat rows of every length mod 16, the int8 clamp and narrower ones (both packed),
// broadcast rows and a broadcast scalar, and the output in place of either input; the folded forms (a scalar, a
// row constant, a per-channel vector on either side, every length mod 8, short and long vectors, biases at the
// int32 edge that take the one-by-one code), through both kernels. compiler/ops/add_linear_test.cpp checks the
// fitted forms.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "binary_kernel_test_util.h"
#include "microaot/kernels/add.h"

extern "C" void microaot_dsp_add_s8_linear(const microaot_add_params_q* params, const int8_t* input1,
                                           const int8_t* input2, const int32_t* form, int8_t* output);

namespace {

using binary_test::draw;
using binary_test::random_bytes;

// Slopes up to 2^27 (|term| < 2^26) and a bias within 2^29: every partial sum within int32, as the compiler
// guarantees; a form need not fit any layer for both implementations to agree on it.
std::vector<int32_t> random_form(std::mt19937& rng) {
  return {draw(rng, -(1 << 27), 1 << 27), draw(rng, -(1 << 27), 1 << 27), draw(rng, -(1 << 29), 1 << 29)};
}

// The int8 clamp, a lower bound, an upper bound (RELU6 at zero point -128), both.
void set_clamp(microaot_add_params_q& p, int i) {
  p.activation_min = i % 4 == 1 || i % 4 == 3 ? -20 : -128;
  p.activation_max = i % 4 >= 2 ? 50 : 127;
}

// A form whose sums reach near the int32 bounds (small slopes, the bias at an edge) one time in four: the folded
// forms' and the packed two-operand run's offset bias would leave int32 there and the kernels take the form's
// own code.
std::vector<int32_t> random_or_edge_form(std::mt19937& rng, int i) {
  if (i % 4 != 3) return random_form(rng);
  const int32_t edge = (i / 4) % 2 == 0 ? INT32_MAX - (1 << 21) : INT32_MIN + (1 << 21);
  return {draw(rng, -(1 << 20), 1 << 20), draw(rng, -(1 << 20), 1 << 20), edge};
}

// The portable kernel's output against both DSP kernels' (the lean one walks a folding layer without folding).
void expect_same(const microaot_add_params_q& p, const std::vector<int8_t>& a, const std::vector<int8_t>& b,
                 const std::vector<int32_t>& form, int i) {
  std::vector<int8_t> expected(static_cast<size_t>(p.flat_size)), lean(expected.size()), folded(expected.size());
  microaot_add_s8_linear(&p, a.data(), b.data(), form.data(), expected.data());
  microaot_dsp_add_s8_linear(&p, a.data(), b.data(), form.data(), lean.data());
  microaot_add_s8_folded(&p, a.data(), b.data(), form.data(), folded.data());
  ASSERT_EQ(lean, expected) << "case " << i << ", form " << form[0] << " " << form[1] << " " << form[2];
  ASSERT_EQ(folded, expected) << "case " << i << ", form " << form[0] << " " << form[1] << " " << form[2];
}

TEST(DspAddS8Linear, MatchesPortableOnFlatRowsAndClamps) {
  std::mt19937 rng(41);
  for (int i = 0; i < 100; ++i) {
    const int32_t n = i < 40 ? i + 1 : draw(rng, 100, 3000);  // every tail of the packed runs' sixteens
    microaot_add_params_q p{};
    binary_test::set_walk(p, n);
    set_clamp(p, i + i / 4);  // every clamp with and without an edge form
    const std::vector<int32_t> form = random_or_edge_form(rng, i);  // at the edge: the offset sums do not pack
    const std::vector<int8_t> a = random_bytes(rng, static_cast<size_t>(n)), b = random_bytes(rng, static_cast<size_t>(n));
    std::vector<int8_t> expected(a.size()), got(a.size());
    microaot_add_s8_linear(&p, a.data(), b.data(), form.data(), expected.data());
    microaot_dsp_add_s8_linear(&p, a.data(), b.data(), form.data(), got.data());
    ASSERT_EQ(got, expected) << "case " << i;
    // In place of input 1, then of input 2.
    std::vector<int8_t> in_place = a;
    microaot_dsp_add_s8_linear(&p, in_place.data(), b.data(), form.data(), in_place.data());
    ASSERT_EQ(in_place, expected) << "case " << i;
    in_place = b;
    microaot_dsp_add_s8_linear(&p, a.data(), in_place.data(), form.data(), in_place.data());
    ASSERT_EQ(in_place, expected) << "case " << i;
  }
}

TEST(DspAddS8Linear, MatchesPortableWhenBroadcasting) {
  std::mt19937 rng(43);
  // Input 2 a row of 7 over 33 rows; then a scalar input 1 over 231 elements.
  const int32_t shape[2] = {33, 7}, row1[2] = {7, 1}, row2[2] = {0, 1};
  const int32_t flat[1] = {231}, scalar[1] = {0}, dense[1] = {1};
  for (int i = 0; i < 12; ++i) {
    microaot_add_params_q p{};
    const bool rows = i % 2 == 0;
    if (rows) {
      binary_test::set_walk(p, 231, 2, shape, row1, row2);
    } else {
      binary_test::set_walk(p, 231, 1, flat, scalar, dense);
    }
    set_clamp(p, i);
    const std::vector<int32_t> form = random_form(rng);
    const std::vector<int8_t> a = random_bytes(rng, rows ? 231 : 1), b = random_bytes(rng, rows ? 7 : 231);
    expect_same(p, a, b, form, i);
  }
}

TEST(DspAddS8Linear, FoldsAScalarOrRowConstant) {
  std::mt19937 rng(47);
  for (int i = 0; i < 160; ++i) {
    microaot_add_params_q p{};
    const bool row_constant = i % 2 == 1, first = (i / 2) % 2 == 0;  // the broadcast operand: input 1 or 2
    const int32_t n = i < 80 ? i % 40 + 1 : draw(rng, 41, 700), rows = row_constant ? draw(rng, 1, 5) : 1;
    const int32_t shape[2] = {rows, n}, full[2] = {n, 1}, one[2] = {1, 0};
    if (row_constant) {
      binary_test::set_walk(p, rows * n, 2, shape, first ? one : full, first ? full : one);
    } else {
      binary_test::set_walk(p, n, 1, shape + 1, first ? one + 1 : full + 1, first ? full + 1 : one + 1);
    }
    set_clamp(p, i / 4);
    const std::vector<int32_t> form = random_or_edge_form(rng, i);
    const std::vector<int8_t> values = random_bytes(rng, static_cast<size_t>(rows * n)), vector = random_bytes(rng, rows);
    expect_same(p, first ? vector : values, first ? values : vector, form, i);
  }
}

TEST(DspAddS8Linear, FoldsAPerChannelVector) {
  std::mt19937 rng(53);
  const int32_t channel_counts[] = {1, 3, 4, 6, 8, 13, 32, 100, 127, 128, 129, 200, 300};
  int i = 0;
  for (const int32_t channels : channel_counts) {
    for (int k = 0; k < 8; ++k, ++i) {
      microaot_add_params_q p{};
      const bool first = k % 2 == 0;
      const int32_t rows = draw(rng, 1, 12) * (channels < 16 ? 6 : 1);  // short vectors: tables that start again
      const int32_t shape[2] = {rows, channels}, full[2] = {channels, 1}, vector_strides[2] = {0, 1};
      binary_test::set_walk(p, rows * channels, 2, shape, first ? vector_strides : full, first ? full : vector_strides);
      set_clamp(p, k / 2);
      const std::vector<int32_t> form = random_or_edge_form(rng, k);
      const std::vector<int8_t> values = random_bytes(rng, static_cast<size_t>(rows * channels));
      const std::vector<int8_t> vector = random_bytes(rng, static_cast<size_t>(channels));
      expect_same(p, first ? vector : values, first ? values : vector, form, i);
      // In place of the full operand.
      std::vector<int8_t> expected(values.size()), in_place = values;
      microaot_add_s8_linear(&p, first ? vector.data() : values.data(), first ? values.data() : vector.data(),
                             form.data(), expected.data());
      microaot_add_s8_folded(&p, first ? vector.data() : in_place.data(), first ? in_place.data() : vector.data(),
                             form.data(), in_place.data());
      ASSERT_EQ(in_place, expected) << "case " << i;
    }
  }
}

}  // namespace
