// The DSP mul_s8_folded (host: the C definitions of its instructions) on random forms against the form computed
// directly in int64: a scalar and a row constant on either side, per-channel vectors short and long (blocks of
// the table) on either side, every length mod 8, the int8 clamp and narrower ones, the output in place of the
// full operand, and walks it does not fold (both operands stepping). compiler/ops/mul_folded_test.cpp checks the
// fitted forms against the portable kernel on every pair.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "binary_kernel_test_util.h"
#include "microaot/kernels/mul.h"

namespace {

using binary_test::draw;
using binary_test::random_bytes;

struct Forms {
  std::vector<int32_t> data;  // slopes[256], offset biases[256], broadcast input
  int32_t offset = 0;         // c * 2^16 of the clamp
};

// Slopes up to 2^27 and biases within 2^29 (every sum within int32 after the offset), for input `broadcast`.
Forms random_forms(std::mt19937& rng, int broadcast, int32_t lo, int32_t hi) {
  Forms f;
  f.offset = (lo != -128 || hi != 127 ? 255 - hi : 128) * 65536;
  f.data.resize(513);
  for (int v = 0; v < 256; ++v) {
    f.data[static_cast<size_t>(v)] = draw(rng, -(1 << 27), 1 << 27);
    f.data[static_cast<size_t>(256 + v)] = draw(rng, -(1 << 29), 1 << 29) + f.offset;
  }
  f.data[512] = broadcast;
  return f;
}

// The form for value v of the broadcast input and q of the other, in int64.
int8_t expected_element(const Forms& f, int32_t v, int32_t q, int32_t lo, int32_t hi) {
  const int64_t m = f.data[static_cast<size_t>(v + 128)], bias = f.data[static_cast<size_t>(256 + v + 128)] - f.offset;
  const int64_t sum = bias + ((m * q) >> 8);
  const int64_t out = sum >> 16;  // floor
  return static_cast<int8_t>(out < lo ? lo : (out > hi ? hi : out));
}

void set_clamp(microaot_mul_params_q& p, int i) {
  p.activation_min = i % 3 == 1 ? -20 : -128;
  p.activation_max = i % 3 == 2 ? 50 : 127;
}

// Runs the kernel on the walk of p and checks every element; `full_size` elements of the full input, the other
// input `vector` indexed by the walk.
void expect_walk(const microaot_mul_params_q& p, const Forms& f, const std::vector<int8_t>& in1,
                 const std::vector<int8_t>& in2, int i) {
  std::vector<int8_t> got(static_cast<size_t>(p.flat_size)), want(got.size());
  microaot_mul_s8_folded(&p, in1.data(), in2.data(), f.data.data(), got.data());
  // the walk by hand: at most two dimensions here
  const int32_t rows = p.num_dims == 2 ? p.output_shape[0] : 1, n = p.num_dims == 0 ? p.flat_size : p.output_shape[p.num_dims - 1];
  for (int32_t r = 0; r < rows; ++r) {
    for (int32_t c = 0; c < n; ++c) {
      const int32_t at1 = p.num_dims == 0 ? c : (p.num_dims == 2 ? r * p.input1_strides[0] : 0) + c * p.input1_strides[p.num_dims - 1];
      const int32_t at2 = p.num_dims == 0 ? c : (p.num_dims == 2 ? r * p.input2_strides[0] : 0) + c * p.input2_strides[p.num_dims - 1];
      const int32_t v = f.data[512] == 0 ? in1[static_cast<size_t>(at1)] : in2[static_cast<size_t>(at2)];
      const int32_t q = f.data[512] == 0 ? in2[static_cast<size_t>(at2)] : in1[static_cast<size_t>(at1)];
      want[static_cast<size_t>(r * n + c)] = expected_element(f, v, q, p.activation_min, p.activation_max);
    }
  }
  ASSERT_EQ(got, want) << "case " << i;
}

TEST(DspMulS8Folded, ScalarsAndRowConstants) {
  std::mt19937 rng(59);
  for (int i = 0; i < 120; ++i) {
    microaot_mul_params_q p{};
    const bool row_constant = i % 2 == 1;
    const int broadcast = (i / 2) % 2;
    const int32_t n = i < 60 ? i % 30 + 1 : draw(rng, 31, 600), rows = row_constant ? draw(rng, 1, 5) : 1;
    const int32_t shape[2] = {rows, n}, full[2] = {n, 1}, one[2] = {1, 0};
    if (row_constant) {
      binary_test::set_walk(p, rows * n, 2, shape, broadcast == 0 ? one : full, broadcast == 0 ? full : one);
    } else {
      binary_test::set_walk(p, n, 1, shape + 1, broadcast == 0 ? one + 1 : full + 1, broadcast == 0 ? full + 1 : one + 1);
    }
    set_clamp(p, i / 4);
    const Forms f = random_forms(rng, broadcast, p.activation_min, p.activation_max);
    const std::vector<int8_t> values = random_bytes(rng, static_cast<size_t>(rows * n)), vector = random_bytes(rng, rows);
    expect_walk(p, f, broadcast == 0 ? vector : values, broadcast == 0 ? values : vector, i);
  }
}

TEST(DspMulS8Folded, PerChannelVectors) {
  std::mt19937 rng(67);
  const int32_t channel_counts[] = {1, 3, 4, 7, 8, 16, 63, 64, 65, 100, 130};
  int i = 0;
  for (const int32_t channels : channel_counts) {
    for (int k = 0; k < 6; ++k, ++i) {
      microaot_mul_params_q p{};
      const int broadcast = k % 2;
      const int32_t rows = draw(rng, 1, 12) * (channels < 16 ? 6 : 1);  // short vectors: tables that start again
      const int32_t shape[2] = {rows, channels}, full[2] = {channels, 1}, vector_strides[2] = {0, 1};
      binary_test::set_walk(p, rows * channels, 2, shape, broadcast == 0 ? vector_strides : full,
                            broadcast == 0 ? full : vector_strides);
      set_clamp(p, k / 2);
      const Forms f = random_forms(rng, broadcast, p.activation_min, p.activation_max);
      const std::vector<int8_t> values = random_bytes(rng, static_cast<size_t>(rows * channels));
      const std::vector<int8_t> vector = random_bytes(rng, static_cast<size_t>(channels));
      expect_walk(p, f, broadcast == 0 ? vector : values, broadcast == 0 ? values : vector, i);
      // In place of the full operand.
      std::vector<int8_t> want(values.size()), in_place = values;
      microaot_mul_s8_folded(&p, broadcast == 0 ? vector.data() : values.data(), broadcast == 0 ? values.data() : vector.data(),
                             f.data.data(), want.data());
      microaot_mul_s8_folded(&p, broadcast == 0 ? vector.data() : in_place.data(),
                             broadcast == 0 ? in_place.data() : vector.data(), f.data.data(), in_place.data());
      ASSERT_EQ(in_place, want) << "case " << i;
    }
  }
}

// A walk it does not fold (flat: both operands step) still gives the forms' outputs, one by one.
TEST(DspMulS8Folded, OtherWalksElementByElement) {
  std::mt19937 rng(71);
  microaot_mul_params_q p{};
  binary_test::set_walk(p, 37);
  set_clamp(p, 0);
  const Forms f = random_forms(rng, 1, p.activation_min, p.activation_max);
  const std::vector<int8_t> a = random_bytes(rng, 37), b = random_bytes(rng, 37);
  expect_walk(p, f, a, b, 0);
}

}  // namespace
