// int16 ADD, SUB and MUL: the portable kernels' one-rounding path (microaot/internal/rescale_s16.h) and the DSP
// kernels (host: microaot/internal/dsp.h's C definitions) against TFLM's arithmetic as written
// (microaot_<op>_s16_reference: MICROAOT_ADD_QUANTIZED, MICROAOT_SUB_QUANTIZED, MICROAOT_MUL_QUANTIZED over the
// walk). Random walks of up to three dimensions (each input stepping by one, broadcast or strided, rows of odd and
// even lengths), [rows, n] with an input's row repeated (per-channel broadcasting), flat runs, scales as TFLM's Prepare makes them (equal, far apart, the output's wide or narrow),
// no activation, ReLU and ReLU6, values at -32768 and 32767, and parameters outside the fast path (input offsets,
// left shifts, an output offset) that take the reference's code.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "binary_kernel_test_util.h"
#include "microaot/internal/rescale_s16.h"

extern "C" {
void microaot_add_s16_reference(const microaot_add_params_q*, const int16_t*, const int16_t*, int16_t*);
void microaot_sub_s16_reference(const microaot_add_params_q*, const int16_t*, const int16_t*, int16_t*);
void microaot_mul_s16_reference(const microaot_mul_params_q*, const int16_t*, const int16_t*, int16_t*);
void microaot_dsp_add_s16(const microaot_add_params_q*, const int16_t*, const int16_t*, int16_t*);
void microaot_dsp_sub_s16(const microaot_add_params_q*, const int16_t*, const int16_t*, int16_t*);
void microaot_dsp_mul_s16(const microaot_mul_params_q*, const int16_t*, const int16_t*, int16_t*);
}

namespace {

using binary_test::draw;
using binary_test::input_strides;
using binary_test::quantize;

struct Walk {
  int32_t flat = 0, dims = 0;
  std::vector<int32_t> shape, strides1, strides2;
  int32_t span1 = 0, span2 = 0;
};

Walk random_walk(std::mt19937& rng) {
  Walk w;
  if (draw(rng, 0, 3) == 0) {  // [rows, n], each input moving on or repeating its row (per-channel broadcasting)
    const int32_t rows = draw(rng, 1, 9), n = draw(rng, 1, 19);
    const int kind = draw(rng, 0, 3);
    w.dims = 2, w.flat = rows * n, w.shape = {rows, n};
    w.strides1 = {kind & 1 ? 0 : n, 1}, w.strides2 = {kind & 2 ? 0 : n, 1};
    w.span1 = kind & 1 ? n : rows * n, w.span2 = kind & 2 ? n : rows * n;
    return w;
  }
  w.dims = draw(rng, 0, 3);
  w.flat = 1;
  for (int d = 0; d < w.dims; ++d) w.shape.push_back(d + 1 == w.dims ? draw(rng, 1, 19) : draw(rng, 1, 4));
  for (int32_t s : w.shape) w.flat *= s;
  if (w.dims == 0) w.flat = draw(rng, 1, 300);
  w.span1 = w.span2 = w.flat;
  if (w.dims > 0) {
    w.strides1 = input_strides(rng, w.shape, &w.span1);
    w.strides2 = input_strides(rng, w.shape, &w.span2);
  }
  return w;
}

template <typename P>
void set_walk(P& p, const Walk& w) {
  binary_test::set_walk(p, w.flat, w.dims, w.shape.data(), w.strides1.data(), w.strides2.data());
}

// Values at the extremes now and then, else random.
std::vector<int16_t> values(std::mt19937& rng, int32_t n, int trial) {
  std::vector<int16_t> v(static_cast<size_t>(n));
  for (int16_t& x : v) {
    const int kind = draw(rng, 0, 9);
    const int extreme = trial % 3 == 0 ? -32768 : 32767;
    x = static_cast<int16_t>(kind == 0 ? extreme : kind == 1 ? -extreme - 1 : draw(rng, -32768, 32767));
  }
  return v;
}

// The clamp of no activation, a ReLU or a ReLU6 (6 / scale) with the output offset zo.
void set_clamp(std::mt19937& rng, int32_t& lo, int32_t& hi, int32_t zo, double scale) {
  const int kind = draw(rng, 0, 2);
  lo = kind == 0 ? -32768 : std::max(-32768, zo);
  hi = kind == 2 ? static_cast<int32_t>(std::min(32767.0, zo + std::round(6.0 / scale))) : 32767;
}

double log_uniform(std::mt19937& rng, double lo, double hi) {
  return std::exp(std::uniform_real_distribution<double>(std::log(lo), std::log(hi))(rng));
}

TEST(BinaryS16, AddAndSubMatchTheReference) {
  std::mt19937 rng(31);
  int one_rounding = 0;  // trials the fast path took
  for (int trial = 0; trial < 600; ++trial) {
    const Walk w = random_walk(rng);
    // Scales as TFLM's Prepare: input scales equal one time in four (both exact), else up to 2^12 apart; powers
    // of two apart one time in three (the rescalings' ties, where a negative value rounds away from zero).
    const bool pot = trial % 3 == 1;
    const double s1 = log_uniform(rng, 1e-5, 1e-2);
    const double s2 = trial % 4 == 0 ? s1
                      : pot          ? std::ldexp(s1, draw(rng, -12, 12))
                                     : s1 * log_uniform(rng, 1.0 / 4096, 4096);
    const double twice_max = 2 * std::max(s1, s2);
    const double so = pot ? std::ldexp(std::max(s1, s2), draw(rng, -4, 6))
                          : std::max(s1, s2) * log_uniform(rng, 0.05, 64);
    microaot_add_params_q p{};
    set_walk(p, w);
    const bool fast = trial % 10 != 9;  // else input offsets or another left shift: the reference's code
    const int left_shift = fast || trial % 20 == 9 ? 15 : 14;
    binary_test::set_input_rescale(p, fast ? 0 : draw(rng, -5, 5), quantize(s1 / twice_max), fast ? 0 : 3,
                                   quantize(s2 / twice_max), left_shift);
    const int32_t zo = trial % 7 == 3 ? draw(rng, -100, 100) : 0;
    const multiplier_test::Multiplier m = quantize(twice_max / ((1 << left_shift) * so));
    if (m.shift > 0) continue;  // TFLM refuses an output scale so small
    binary_test::set_output_rescale(p, m, zo, -32768, 32767);
    set_clamp(rng, p.activation_min, p.activation_max, zo, so);
    const std::vector<int16_t> a = values(rng, w.span1, trial), b = values(rng, w.span2, trial + 1);
    std::vector<int16_t> want(static_cast<size_t>(w.flat)), got(want.size(), 0x5555), dsp(want.size(), 0x5555);
    microaot_add_s16_constants k;
    one_rounding += microaot_add_s16_constants_of(&p, 0, &k);
    microaot_add_s16_reference(&p, a.data(), b.data(), want.data());
    microaot_add_s16(&p, a.data(), b.data(), got.data());
    microaot_dsp_add_s16(&p, a.data(), b.data(), dsp.data());
    ASSERT_EQ(got, want) << "add, trial " << trial;
    ASSERT_EQ(dsp, want) << "add (dsp), trial " << trial;
    microaot_sub_s16_reference(&p, a.data(), b.data(), want.data());
    microaot_sub_s16(&p, a.data(), b.data(), got.data());
    microaot_dsp_sub_s16(&p, a.data(), b.data(), dsp.data());
    ASSERT_EQ(got, want) << "sub, trial " << trial;
    ASSERT_EQ(dsp, want) << "sub (dsp), trial " << trial;
  }
  EXPECT_GT(one_rounding, 450);
}

TEST(BinaryS16, MulMatchesTheReference) {
  std::mt19937 rng(37);
  int one_rounding = 0;  // trials the fast path took
  for (int trial = 0; trial < 600; ++trial) {
    const Walk w = random_walk(rng);
    microaot_mul_params_q p{};
    set_walk(p, w);
    const bool fast = trial % 10 != 9;  // else input offsets: the reference's code
    p.input1_offset = fast ? 0 : draw(rng, -3, 3);
    p.input2_offset = fast ? 0 : -1;
    // real multipliers from 2^-31 to 2 (shifts of 0 and 1: element by element and the reference's code), powers of
    // two one time in three (ties)
    const double real = std::ldexp(trial % 3 == 1 ? 0.5 : log_uniform(rng, 0.5, 1.0), draw(rng, -30, 1));
    const int32_t zo = trial % 7 == 3 ? draw(rng, -100, 100) : 0;
    binary_test::set_output_rescale(p, quantize(real), zo, -32768, 32767);
    set_clamp(rng, p.activation_min, p.activation_max, zo, log_uniform(rng, 1e-4, 1e-2));
    const std::vector<int16_t> a = values(rng, w.span1, trial), b = values(rng, w.span2, trial + 1);
    std::vector<int16_t> want(static_cast<size_t>(w.flat)), got(want.size(), 0x5555), dsp(want.size(), 0x5555);
    microaot_mul_s16_constants k;
    one_rounding += microaot_mul_s16_constants_of(&p, &k);
    microaot_mul_s16_reference(&p, a.data(), b.data(), want.data());
    microaot_mul_s16(&p, a.data(), b.data(), got.data());
    microaot_dsp_mul_s16(&p, a.data(), b.data(), dsp.data());
    ASSERT_EQ(got, want) << "mul, trial " << trial;
    ASSERT_EQ(dsp, want) << "mul (dsp), trial " << trial;
  }
  EXPECT_GT(one_rounding, 450);
}

// Every pair of the extremes and their neighbours, flat, for equal and unequal scales: the products and sums at
// the bounds of the fast path's ranges (-32768 * -32768 = 2^30, the sum of two -32768 at -2^30).
TEST(BinaryS16, ExtremePairsMatchTheReference) {
  const int16_t edges[] = {-32768, -32767, -32766, -1, 0, 1, 32766, 32767};
  std::vector<int16_t> a, b;
  for (int16_t x : edges) {
    for (int16_t y : edges) a.push_back(x), b.push_back(y);
  }
  const int32_t n = static_cast<int32_t>(a.size());
  std::vector<int16_t> want(a.size()), got(a.size()), dsp(a.size());
  for (double ratio : {1.0, 0.5, 0.3, 1e-3}) {
    for (double out : {0.05, 1.0, 3.0}) {
      microaot_add_params_q p{};
      binary_test::set_walk(p, n);
      binary_test::set_input_rescale(p, 0, quantize(0.5), 0, quantize(0.5 * ratio), 15);
      binary_test::set_output_rescale(p, quantize(2.0 / ((1 << 15) * out)), 0, -32768, 32767);
      microaot_add_s16_reference(&p, a.data(), b.data(), want.data());
      microaot_add_s16(&p, a.data(), b.data(), got.data());
      microaot_dsp_add_s16(&p, a.data(), b.data(), dsp.data());
      EXPECT_EQ(got, want) << ratio << " " << out;
      EXPECT_EQ(dsp, want) << ratio << " " << out;
      microaot_sub_s16_reference(&p, a.data(), b.data(), want.data());
      microaot_sub_s16(&p, a.data(), b.data(), got.data());
      microaot_dsp_sub_s16(&p, a.data(), b.data(), dsp.data());
      EXPECT_EQ(got, want) << ratio << " " << out;
      EXPECT_EQ(dsp, want) << ratio << " " << out;
    }
  }
  for (double real : {std::ldexp(1.0, -15), std::ldexp(0.75, -16), std::ldexp(0.999, -1)}) {
    microaot_mul_params_q p{};
    binary_test::set_walk(p, n);
    binary_test::set_output_rescale(p, quantize(real), 0, -32768, 32767);
    microaot_mul_s16_reference(&p, a.data(), b.data(), want.data());
    microaot_mul_s16(&p, a.data(), b.data(), got.data());
    microaot_dsp_mul_s16(&p, a.data(), b.data(), dsp.data());
    EXPECT_EQ(got, want) << real;
    EXPECT_EQ(dsp, want) << real;
  }
}

}  // namespace
