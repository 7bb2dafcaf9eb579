// The element-wise kernels (QUANTIZE / requantize, DEQUANTIZE, ADD without broadcast of the overlapped
// input, SOFTMAX) run unchanged with the output over the input at the compiler's element-wise bound
// (in_place_bounds.h) and below: bit-identical to separate buffers. One element above the bound must break
// some runs, which shows the runs really overlap.
#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "../../compiler/ops/in_place_bounds.h"
#include "microaot/kernels/add.h"
#include "microaot/kernels/quantize.h"
#include "microaot/kernels/softmax.h"
#include "overlap_harness.h"

namespace {

using overlap_test::bytes_of;
using overlap_test::run_overlapped;

const int kSizes[] = {1, 2, 7, 33};

template <typename T>
std::vector<T> random_values(size_t n, std::mt19937& rng) {
  return overlap_test::random_values<T>(n, rng, 3.0f, INT16_MIN, INT16_MAX);
}

// kernel(const In* input, Out* output) over input.size() elements; counts runs that differ one element
// (the larger size: a store into the low bytes of a float may not change what it rounds to) above the bound.
template <typename In, typename Out, typename Kernel>
void check_element_wise(const std::vector<In>& input, Kernel kernel, int* unsafe_above) {
  const auto n = static_cast<int64_t>(input.size());
  SCOPED_TRACE("elements " + std::to_string(n));
  std::vector<Out> expected(input.size());
  kernel(input.data(), expected.data());
  const std::vector<uint8_t> expected_bytes = bytes_of(expected);
  const auto si = static_cast<int64_t>(sizeof(In));
  const auto so = static_cast<int64_t>(sizeof(Out));
  const int64_t step = std::min(si, so);
  const int64_t bound = microaot::element_wise_max_shift(n, si, so);
  auto run = [&](int64_t shift) {
    return run_overlapped(bytes_of(input), expected_bytes.size(), shift, 0, si, so,
                          [&](uint8_t* in, uint8_t* out, void*) {
                            kernel(reinterpret_cast<const In*>(in), reinterpret_cast<Out*>(out));
                          });
  };
  for (int64_t shift : {bound, bound - step, bound - 4 * step, -n * so}) {
    EXPECT_EQ(run(shift), expected_bytes) << "shift " << shift << " (bound " << bound << ")";
  }
  if (n > 1 && run(bound + std::max(si, so)) != expected_bytes) ++*unsafe_above;
}

template <typename In, typename Out, typename Kernel>
void check_sizes(Kernel kernel, std::mt19937& rng) {
  int unsafe_above = 0;
  for (int n : kSizes)
    check_element_wise<In, Out>(
        random_values<In>(n, rng), [&](const In* in, Out* out) { kernel(n, in, out); }, &unsafe_above);
  EXPECT_GT(unsafe_above, 0);
}

// check_sizes for kernel(const Params*, const In*, Out*) with the params make_params(n) gives for n elements.
template <typename In, typename Out, typename Params, typename MakeParams>
void check_kernel(void (*kernel)(const Params*, const In*, Out*), MakeParams make_params, std::mt19937& rng) {
  check_sizes<In, Out>(
      [&](int n, const In* in, Out* out) {
        const Params p = make_params(n);
        kernel(&p, in, out);
      },
      rng);
}

TEST(OverlapElementWise, Requantize) {
  std::mt19937 rng(1);
  auto params = [](int32_t shift) {
    return [shift](int n) { return microaot_requantize_params{n, 3, 1518500250, shift, -7}; };
  };
  check_kernel(microaot_requantize_s8_s8, params(-1), rng);
  check_kernel(microaot_requantize_s8_s16, params(-1), rng);
  check_kernel(microaot_requantize_s8_u8, params(-1), rng);
  check_kernel(microaot_requantize_u8_s8, params(-1), rng);
  check_kernel(microaot_requantize_s16_s8, params(-9), rng);
  check_kernel(microaot_requantize_s16_s16, params(-1), rng);
}

TEST(OverlapElementWise, QuantizeAndDequantize) {
  std::mt19937 rng(2);
  check_kernel(microaot_quantize_f32_s8, [](int n) { return microaot_quantize_params{n, 0.02f, 5}; }, rng);
  check_kernel(microaot_quantize_f32_s16, [](int n) { return microaot_quantize_params{n, 0.0004f, 0}; }, rng);
  check_kernel(microaot_dequantize_s8_f32, [](int n) { return microaot_dequantize_params{n, 0.05f, 3}; }, rng);
  check_kernel(microaot_dequantize_s16_f32, [](int n) { return microaot_dequantize_params{n, 0.001f, 0}; }, rng);
}

microaot_add_params_q add_params(int32_t n, int left_shift) {
  return {n,  0,    nullptr,    nullptr, nullptr,    4,       1 << 30,
          0,  -9,   1395864371, -1,      left_shift, 1 << 30, left_shift == 20 ? -19 : -14,
          -3, -128, 127};
}

TEST(OverlapElementWise, AddFlat) {
  std::mt19937 rng(3);
  for (int n : kSizes) {
    int unsafe_above = 0;
    const std::vector<int8_t> other8 = random_values<int8_t>(n, rng);
    const std::vector<int16_t> other16 = random_values<int16_t>(n, rng);
    const std::vector<float> other32 = random_values<float>(n, rng);
    microaot_add_params_q p8 = add_params(n, 20);
    microaot_add_params_q p16 = add_params(n, 15);
    p16.activation_min = -32768, p16.activation_max = 32767;
    const microaot_binary_params_f32 pf{n, 0, nullptr, nullptr, nullptr, -FLT_MAX, FLT_MAX};
    check_element_wise<int8_t, int8_t>(
        random_values<int8_t>(n, rng),
        [&](const int8_t* in, int8_t* out) { microaot_add_s8(&p8, in, other8.data(), out); }, &unsafe_above);
    check_element_wise<int8_t, int8_t>(
        random_values<int8_t>(n, rng),
        [&](const int8_t* in, int8_t* out) { microaot_add_s8(&p8, other8.data(), in, out); }, &unsafe_above);
    check_element_wise<int16_t, int16_t>(
        random_values<int16_t>(n, rng),
        [&](const int16_t* in, int16_t* out) { microaot_add_s16(&p16, in, other16.data(), out); }, &unsafe_above);
    check_element_wise<float, float>(
        random_values<float>(n, rng),
        [&](const float* in, float* out) { microaot_add_f32(&pf, other32.data(), in, out); }, &unsafe_above);
    if (n > 1) {
      EXPECT_GT(unsafe_above, 0);
    }
  }
}

// [rows, cols] + [cols]: the full-size input may be overlapped, in either position.
TEST(OverlapElementWise, AddWithTheOtherInputBroadcast) {
  std::mt19937 rng(4);
  const int32_t rows = 5, cols = 6, n = rows * cols;
  const int32_t shape[] = {rows, cols}, full[] = {cols, 1}, broadcast[] = {0, 1};
  const std::vector<int8_t> row8 = random_values<int8_t>(cols, rng);
  const std::vector<float> row32 = random_values<float>(cols, rng);
  microaot_add_params_q first = add_params(n, 20), second = add_params(n, 20);
  first.num_dims = second.num_dims = 2;
  first.output_shape = second.output_shape = shape;
  first.input1_strides = second.input2_strides = full;
  first.input2_strides = second.input1_strides = broadcast;
  const microaot_binary_params_f32 pf{n, 2, shape, broadcast, full, -1.0f, 1.0f};
  int unsafe_above = 0;
  check_element_wise<int8_t, int8_t>(
      random_values<int8_t>(n, rng),
      [&](const int8_t* in, int8_t* out) { microaot_add_s8(&first, in, row8.data(), out); }, &unsafe_above);
  check_element_wise<int8_t, int8_t>(
      random_values<int8_t>(n, rng),
      [&](const int8_t* in, int8_t* out) { microaot_add_s8(&second, row8.data(), in, out); }, &unsafe_above);
  check_element_wise<float, float>(
      random_values<float>(n, rng), [&](const float* in, float* out) { microaot_add_f32(&pf, row32.data(), in, out); },
      &unsafe_above);
  EXPECT_GT(unsafe_above, 0);
}

TEST(OverlapElementWise, Softmax) {
  std::mt19937 rng(5);
  std::vector<int16_t> exp_lut(513), reciprocal_lut(513);
  for (int i = 0; i <= 512; ++i) {
    exp_lut[i] = static_cast<int16_t>(std::lround(32767.0 * std::exp(10.0 * (i - 512) / 512.0)));
    reciprocal_lut[i] = static_cast<int16_t>(std::lround(32767.0 / (1.0 + i / 512.0)));
  }
  for (int depth : {1, 3, 8}) {
    for (int outer : {1, 4}) {
      SCOPED_TRACE(std::to_string(outer) + " rows of " + std::to_string(depth));
      const int n = outer * depth;
      const microaot_softmax_params_s8 p8{outer, depth, 1 << 30, 23, -248};
      const microaot_softmax_params_s16 p16{outer, depth, 1 << 30, 4, exp_lut.data(), reciprocal_lut.data()};
      const microaot_softmax_params_f32 pf{outer, depth, 0.7f};
      int unsafe_above = 0;
      check_element_wise<int8_t, int8_t>(
          random_values<int8_t>(n, rng), [&](const int8_t* in, int8_t* out) { microaot_softmax_s8(&p8, in, out); },
          &unsafe_above);
      check_element_wise<int8_t, int16_t>(
          random_values<int8_t>(n, rng), [&](const int8_t* in, int16_t* out) { microaot_softmax_s8_s16(&p8, in, out); },
          &unsafe_above);
      check_element_wise<int16_t, int16_t>(
          random_values<int16_t>(n, rng), [&](const int16_t* in, int16_t* out) { microaot_softmax_s16(&p16, in, out); },
          &unsafe_above);
      check_element_wise<float, float>(
          random_values<float>(n, rng), [&](const float* in, float* out) { microaot_softmax_f32(&pf, in, out); },
          &unsafe_above);
      if (depth > 1) {  // a row of one element always gives 1
        EXPECT_GT(unsafe_above, 0);
      }
    }
  }
}

}  // namespace
