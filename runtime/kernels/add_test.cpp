// ADD kernels: hand-computed quantized sums, agreement with the real-valued sum, the broadcast walk
// against an explicitly materialized broadcast, in-place use, and the float clamp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "binary_kernel_test_util.h"
#include "microaot/kernels/add.h"

namespace {

using binary_test::quantize;

// TFLM's Prepare-time constants for scales s1, s2, so and zero points z1, z2, zo, no activation.
microaot_add_params_q make_params(int32_t size, float s1, int32_t z1, float s2, int32_t z2, float so, int32_t zo,
                                   int left_shift = 20, int32_t qmin = -128, int32_t qmax = 127) {
  const double twice_max = 2 * static_cast<double>(std::max(s1, s2));
  microaot_add_params_q p = {};
  binary_test::set_walk(p, size);
  binary_test::set_input_rescale(p, z1, quantize(s1 / twice_max), z2, quantize(s2 / twice_max), left_shift);
  binary_test::set_output_rescale(p, quantize(twice_max / ((1 << left_shift) * static_cast<double>(so))), zo, qmin,
                                  qmax);
  return p;
}

TEST(AddS8, HalfScalesRoundTiesAwayFromZero) {
  // 0.5 * a + 0.5 * b in units of 1.0: 3.5 -> 4, -3.5 -> -4, 0.5 -> 1, -0.5 -> -1.
  const microaot_add_params_q p = make_params(4, 0.5f, 0, 0.5f, 0, 1.0f, 0);
  ASSERT_EQ(p.input1_multiplier, 1 << 30);
  ASSERT_EQ(p.output_shift, -19);
  const std::vector<int8_t> a = {3, -3, 1, -1}, b = {4, -4, 0, 0};
  std::vector<int8_t> out(4);
  microaot_add_s8(&p, a.data(), b.data(), out.data());
  EXPECT_EQ(out, (std::vector<int8_t>{4, -4, 1, -1}));
}

TEST(AddS8, ZeroPointsAndClampApply) {
  // Same scale everywhere: out = (a - 10) + (b + 5) + 3, clamped to [0, 20] (a ReLU-like range).
  microaot_add_params_q p = make_params(3, 0.25f, 10, 0.25f, -5, 0.25f, 3);
  p.activation_min = 0;
  p.activation_max = 20;
  const std::vector<int8_t> a = {10, 20, 0}, b = {-5, 0, -5};
  std::vector<int8_t> out(3);
  microaot_add_s8(&p, a.data(), b.data(), out.data());
  EXPECT_EQ(out, (std::vector<int8_t>{3, 18, 0}));  // 3, 10 + 5 + 3, -10 + 3 -> 0
}

TEST(AddS8, AgreesWithTheRealSumWithinOneStep) {
  std::mt19937 rng(3);
  const float s1 = 0.0279757f, s2 = 0.0451786f, so = 0.0338336f;
  const int32_t z1 = -18, z2 = 14, zo = 2;
  const microaot_add_params_q p = make_params(256 * 256, s1, z1, s2, z2, so, zo);
  std::vector<int8_t> a, b;
  for (int i = -128; i < 128; ++i) {
    for (int j = -128; j < 128; ++j) {
      a.push_back(static_cast<int8_t>(i));
      b.push_back(static_cast<int8_t>(j));
    }
  }
  std::vector<int8_t> out(a.size());
  microaot_add_s8(&p, a.data(), b.data(), out.data());
  for (size_t k = 0; k < a.size(); ++k) {
    const double real = s1 * (a[k] - z1) + s2 * (b[k] - z2);
    const double want = std::clamp(std::round(real / so) + zo, -128.0, 127.0);
    ASSERT_NEAR(out[k], want, 1.0) << int(a[k]) << " + " << int(b[k]);
  }
}

TEST(AddS16, UsesLeftShift15) {
  const microaot_add_params_q p = make_params(3, 0.5f, 0, 0.25f, 0, 0.5f, 0, 15, -32768, 32767);
  const std::vector<int16_t> a = {1000, -32768, 32767}, b = {4, -32768, 32767};
  std::vector<int16_t> out(3);
  microaot_add_s16(&p, a.data(), b.data(), out.data());
  // a + b / 2 in the output scale; saturates at the type's range.
  EXPECT_EQ(out, (std::vector<int16_t>{1002, -32768, 32767}));
}

// Fills the full output-shaped copy of an input from its broadcast shape (both 3-D here).
std::vector<int8_t> materialize(const std::vector<int8_t>& x, const int (&shape)[3], const int (&out)[3]) {
  std::vector<int8_t> full;
  for (int i = 0; i < out[0]; ++i)
    for (int j = 0; j < out[1]; ++j)
      for (int k = 0; k < out[2]; ++k) {
        const int ii = shape[0] == 1 ? 0 : i, jj = shape[1] == 1 ? 0 : j, kk = shape[2] == 1 ? 0 : k;
        full.push_back(x[(ii * shape[1] + jj) * shape[2] + kk]);
      }
  return full;
}

TEST(AddS8, BroadcastWalkEqualsMaterializedBroadcast) {
  // [4, 1, 3] + [1, 5, 1] -> [4, 5, 3]: both inputs broadcast, along different dimensions.
  const int s1[3] = {4, 1, 3}, s2[3] = {1, 5, 1}, so[3] = {4, 5, 3};
  std::vector<int8_t> a(12), b(5);
  for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<int8_t>(i * 19 - 100);
  for (size_t i = 0; i < b.size(); ++i) b[i] = static_cast<int8_t>(i * 41 - 90);
  microaot_add_params_q p = make_params(60, 0.03f, 3, 0.05f, -7, 0.06f, 1);
  const int32_t shape[3] = {4, 5, 3}, strides1[3] = {3, 0, 1}, strides2[3] = {0, 1, 0};
  p.num_dims = 3;
  p.output_shape = shape;
  p.input1_strides = strides1;
  p.input2_strides = strides2;
  std::vector<int8_t> got(60), want(60);
  microaot_add_s8(&p, a.data(), b.data(), got.data());
  const std::vector<int8_t> fa = materialize(a, s1, so), fb = materialize(b, s2, so);
  microaot_add_params_q flat = p;
  flat.num_dims = 0;
  microaot_add_s8(&flat, fa.data(), fb.data(), want.data());
  EXPECT_EQ(got, want);
}

TEST(AddS8, SixDimensionWalkVisitsEveryElementOnce) {
  // Output [2,2,2,2,2,3]; input 2 broadcast along dims 1 and 4 (strides 0 there).
  const int32_t shape[6] = {2, 2, 2, 2, 2, 3};
  const int32_t strides1[6] = {48, 24, 12, 6, 3, 1};
  const int32_t strides2[6] = {12, 0, 6, 3, 0, 1};
  std::vector<int8_t> a(96), b(24);
  for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<int8_t>(i);
  for (size_t i = 0; i < b.size(); ++i) b[i] = static_cast<int8_t>(-static_cast<int>(i));
  microaot_add_params_q p = make_params(96, 1.0f, 0, 1.0f, 0, 1.0f, 0);
  p.num_dims = 6;
  p.output_shape = shape;
  p.input1_strides = strides1;
  p.input2_strides = strides2;
  std::vector<int8_t> out(96);
  microaot_add_s8(&p, a.data(), b.data(), out.data());
  int pos = 0;
  for (int i0 = 0; i0 < 2; ++i0)
    for (int i1 = 0; i1 < 2; ++i1)
      for (int i2 = 0; i2 < 2; ++i2)
        for (int i3 = 0; i3 < 2; ++i3)
          for (int i4 = 0; i4 < 2; ++i4)
            for (int i5 = 0; i5 < 3; ++i5, ++pos) {
              const int bi = i0 * 12 + i2 * 6 + i3 * 3 + i5;
              ASSERT_EQ(out[pos], pos - bi) << pos;
            }
}

// Walks of one and two dimensions take their own loop: every stride pattern against the direct index.
TEST(AddS8, OneAndTwoDimensionWalksReadEachInputAtItsStrides) {
  struct Walk {
    int32_t dims, shape[2], strides1[2], strides2[2];
  };
  const Walk walks[] = {{1, {7, 1}, {1, 0}, {0, 0}},      {1, {7, 1}, {0, 0}, {1, 0}},
                        {2, {5, 3}, {3, 1}, {0, 1}},      {2, {5, 3}, {0, 1}, {3, 1}},
                        {2, {5, 3}, {1, 0}, {3, 1}},      {2, {4, 6}, {6, 1}, {1, 0}},
                        {2, {3, 4}, {0, 1}, {1, 0}},      {2, {2, 5}, {5, 1}, {5, 1}}};
  for (const Walk& w : walks) {
    const int32_t rows = w.dims == 2 ? w.shape[0] : 1, inner = w.shape[w.dims - 1], n = rows * inner;
    std::vector<int8_t> a(32), b(32), out(static_cast<size_t>(n));
    for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<int8_t>(i * 3);
    for (size_t i = 0; i < b.size(); ++i) b[i] = static_cast<int8_t>(-static_cast<int>(i));
    microaot_add_params_q p = make_params(n, 1.0f, 0, 1.0f, 0, 1.0f, 0);
    p.num_dims = w.dims;
    p.output_shape = w.shape;
    p.input1_strides = w.strides1;
    p.input2_strides = w.strides2;
    microaot_add_s8(&p, a.data(), b.data(), out.data());
    const int d = w.dims - 1;
    for (int32_t r = 0; r < rows; ++r)
      for (int32_t c = 0; c < inner; ++c) {
        const int32_t ia = (d ? r * w.strides1[0] : 0) + c * w.strides1[d];
        const int32_t ib = (d ? r * w.strides2[0] : 0) + c * w.strides2[d];
        ASSERT_EQ(out[static_cast<size_t>(r * inner + c)], a[static_cast<size_t>(ia)] + b[static_cast<size_t>(ib)])
            << w.dims << " dims, row " << r << " element " << c;
      }
  }
}

TEST(AddS8, InPlaceOverTheFullSizeInput) {
  // [2, 3] + [3] -> written over input 1.
  std::vector<int8_t> a = {1, 2, 3, 4, 5, 6};
  const std::vector<int8_t> b = {10, 20, 30};
  microaot_add_params_q p = make_params(6, 1.0f, 0, 1.0f, 0, 1.0f, 0);
  const int32_t shape[2] = {2, 3}, strides1[2] = {3, 1}, strides2[2] = {0, 1};
  p.num_dims = 2;
  p.output_shape = shape;
  p.input1_strides = strides1;
  p.input2_strides = strides2;
  microaot_add_s8(&p, a.data(), b.data(), a.data());
  EXPECT_EQ(a, (std::vector<int8_t>{11, 22, 33, 14, 25, 36}));
}

TEST(AddF32, SumsAndClampsWithBroadcast) {
  const std::vector<float> a = {-1.0f, 0.5f, 7.0f, 2.0f}, b = {0.25f, 3.0f};
  const int32_t shape[2] = {2, 2}, strides1[2] = {2, 1}, strides2[2] = {0, 1};
  const microaot_binary_params_f32 p = {4, 2, shape, strides1, strides2, 0.0f, 6.0f};
  std::vector<float> out(4);
  microaot_add_f32(&p, a.data(), b.data(), out.data());
  EXPECT_EQ(out, (std::vector<float>{0.0f, 3.5f, 6.0f, 5.0f}));
  const microaot_binary_params_f32 flat = {4, 0, nullptr, nullptr, nullptr, -FLT_MAX, FLT_MAX};
  const std::vector<float> c = {1e-8f, -2.5f, 1e30f, 0.1f};
  microaot_add_f32(&flat, a.data(), c.data(), out.data());
  for (int i = 0; i < 4; ++i) EXPECT_EQ(out[i], a[i] + c[i]);
}

}  // namespace
