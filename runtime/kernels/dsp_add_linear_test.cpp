// The DSP add_s8_linear (host: the C definitions of its instructions) against the portable one on random forms:
// flat rows of every length mod 4, the int8 clamp and narrower ones, broadcast rows and a broadcast scalar, and
// the output in place of either input. compiler/ops/add_linear_test.cpp checks the fitted forms themselves.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "binary_kernel_test_util.h"
#include "microaot/kernels/add.h"

extern "C" void microaot_dsp_add_s8_linear(const microaot_add_params_q* params, const int8_t* input1,
                                           const int8_t* input2, const int32_t* form, int8_t* output);

namespace {

int draw(std::mt19937& rng, int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }

std::vector<int8_t> random_bytes(std::mt19937& rng, size_t n) {
  std::vector<int8_t> v(n);
  for (int8_t& x : v) x = static_cast<int8_t>(draw(rng, -128, 127));
  return v;
}

// Slopes up to 2^27 (|term| < 2^26) and a bias within 2^29: every partial sum within int32, as the compiler
// guarantees; a form need not fit any layer for both implementations to agree on it.
std::vector<int32_t> random_form(std::mt19937& rng) {
  return {draw(rng, -(1 << 27), 1 << 27), draw(rng, -(1 << 27), 1 << 27), draw(rng, -(1 << 29), 1 << 29)};
}

void set_clamp(microaot_add_params_q& p, int i) {
  p.activation_min = i % 3 == 1 ? -20 : -128;
  p.activation_max = i % 3 == 2 ? 50 : 127;
}

TEST(DspAddS8Linear, MatchesPortableOnFlatRowsAndClamps) {
  std::mt19937 rng(41);
  for (int i = 0; i < 60; ++i) {
    const int32_t n = i < 20 ? i + 1 : draw(rng, 100, 3000);
    microaot_add_params_q p{};
    binary_test::set_walk(p, n);
    set_clamp(p, i);
    const std::vector<int32_t> form = random_form(rng);
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
    std::vector<int8_t> expected(231), got(231);
    microaot_add_s8_linear(&p, a.data(), b.data(), form.data(), expected.data());
    microaot_dsp_add_s8_linear(&p, a.data(), b.data(), form.data(), got.data());
    ASSERT_EQ(got, expected) << "case " << i;
  }
}

}  // namespace
