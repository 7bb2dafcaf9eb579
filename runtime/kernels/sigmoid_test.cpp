// LOGISTIC and TANH kernels: exact values at zero and saturation, agreement with the real function over every
// int8 input and across the int16 range (with a table of sigmoid(i / 24) built here), the float functions.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "microaot/kernels/sigmoid.h"
#include "unary_test_util.h"

namespace {

double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

// int8 params for input scale `scale` and zero point `zp`: x - zp in Q4.27, saturated beyond the radius.
microaot_sigmoid_params_s8 params_s8(int32_t size, double scale, int32_t zp) {
  const unary_test::Multiplier m = unary_test::quantize(scale * (1 << 27));
  const int32_t radius = static_cast<int32_t>(std::floor(15.0 * (1 << 27) / std::ldexp(1.0, m.shift)));
  return {size, zp, radius, m.mantissa, m.shift};
}

TEST(LogisticS8, FollowsTheRealFunctionOverAllInputs) {
  const double scale = 0.1;
  const microaot_sigmoid_params_s8 p = params_s8(256, scale, 5);
  const std::vector<int8_t> in = unary_test::all_int8();
  std::vector<int8_t> out(in.size());
  microaot_logistic_s8(&p, in.data(), out.data());
  EXPECT_EQ(out[5 + 128], 0);  // 1/2 at the zero point: 128 / 256 - 128
  for (size_t k = 0; k < in.size(); ++k) {
    const double want = std::clamp(std::round(sigmoid(scale * (in[k] - 5)) * 256) - 128, -128.0, 127.0);
    ASSERT_NEAR(out[k], want, 1.0) << int(in[k]);
  }
}

TEST(TanhS8, FollowsTheRealFunctionAndSaturates) {
  const double scale = 0.2;
  const microaot_sigmoid_params_s8 p = params_s8(256, scale, -3);
  const std::vector<int8_t> in = unary_test::all_int8();
  std::vector<int8_t> out(in.size());
  microaot_tanh_s8(&p, in.data(), out.data());
  EXPECT_EQ(out[-3 + 128], 0);
  EXPECT_EQ(out.front(), -128);
  EXPECT_EQ(out.back(), 127);
  for (size_t k = 0; k < in.size(); ++k) {
    const double want = std::clamp(std::round(std::tanh(scale * (in[k] + 3)) * 128), -128.0, 127.0);
    ASSERT_NEAR(out[k], want, 1.0) << int(in[k]);
  }
}

// int16 params for the input scale 2^-12 (multiplier 3, no shift) with sigmoid(i / 24) rounded to Q0.16.
struct Int16Setup {
  std::vector<int16_t> table;
  microaot_sigmoid_params_s16 params;
  explicit Int16Setup(int32_t size) : table(256) {
    for (int i = 0; i < 255; ++i) table[i] = static_cast<int16_t>(std::lround(sigmoid(i / 24.0) * 65536) - 32768);
    table[255] = 32767;
    params = {size, 3, 0, table.data()};
  }
};

using KernelS16 = void (*)(const microaot_sigmoid_params_s16*, const int16_t*, int16_t*);

// The kernel over samples of the whole int16 range against round(f(x / 4096) * 32768), within `tolerance`.
void expect_follows(KernelS16 kernel, double (*f)(double), double tolerance) {
  std::vector<int16_t> in;
  for (int v = -32768; v < 32768; v += 61) in.push_back(static_cast<int16_t>(v));
  in.push_back(32767);
  const Int16Setup setup(static_cast<int32_t>(in.size()));
  std::vector<int16_t> out(in.size());
  kernel(&setup.params, in.data(), out.data());
  for (size_t k = 0; k < in.size(); ++k) {
    const double want = std::clamp(std::round(f(in[k] / 4096.0) * 32768), -32768.0, 32767.0);
    ASSERT_NEAR(out[k], want, tolerance) << in[k];
  }
}

TEST(LogisticS16, FollowsTheRealFunction) { expect_follows(microaot_logistic_s16, sigmoid, 2.0); }

TEST(TanhS16, FollowsTheRealFunction) {
  expect_follows(microaot_tanh_s16, [](double x) { return std::tanh(x); }, 3.0);
}

TEST(SigmoidF32, Values) {
  const std::vector<float> in = {-20.0f, -1.0f, 0.0f, 3.0f, 20.0f};
  const microaot_unary_params p = {5};
  std::vector<float> out(5);
  microaot_logistic_f32(&p, in.data(), out.data());
  EXPECT_FLOAT_EQ(out[0], std::exp(-20.0f));
  EXPECT_FLOAT_EQ(out[1], 1.0f / (1.0f + std::exp(1.0f)));
  EXPECT_EQ(out[2], 0.5f);
  EXPECT_EQ(out[4], 1.0f);
  microaot_tanh_f32(&p, in.data(), out.data());
  EXPECT_FLOAT_EQ(out[3], std::tanh(3.0f));
}

}  // namespace
