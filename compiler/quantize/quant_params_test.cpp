#include "quantize/quant_params.h"

#include <gtest/gtest.h>

#include <cmath>

#include "support/diagnostics.h"

namespace microaot {
namespace {

TEST(QuantParams, ActivationRangeIsWidenedToHoldZero) {
  const AffineParams positive = int8_activation_params(2.0f, 6.0f);  // as [0, 6]
  EXPECT_FLOAT_EQ(positive.scale, 6.0f / 255.0f);
  EXPECT_EQ(positive.zero_point, -128);
  const AffineParams negative = int8_activation_params(-4.0f, -1.0f);  // as [-4, 0]
  EXPECT_FLOAT_EQ(negative.scale, 4.0f / 255.0f);
  EXPECT_EQ(negative.zero_point, 127);
}

TEST(QuantParams, ZeroIsExactInAnAsymmetricRange) {
  const AffineParams p = int8_activation_params(-1.0f, 3.0f);
  EXPECT_FLOAT_EQ(p.scale, 4.0f / 255.0f);
  EXPECT_EQ(p.zero_point, static_cast<int32_t>(std::round(-128.0 + 1.0 / (4.0 / 255.0))));  // -64
  EXPECT_EQ(p.zero_point, -64);
  EXPECT_EQ(dequantize_int8(quantize_int8(0.0f, p), p), 0.0f);
  EXPECT_EQ(quantize_int8(100.0f, p), 127);  // saturates
  EXPECT_EQ(quantize_int8(-100.0f, p), -128);
}

TEST(QuantParams, Int16ActivationsAreSymmetric) {
  const AffineParams p = int16_activation_params(-2.0f, 6.0f);
  EXPECT_FLOAT_EQ(p.scale, 6.0f / 32767.0f);
  EXPECT_EQ(p.zero_point, 0);
  EXPECT_EQ(quantize_value(6.0f, p, DType::kInt16), 32767);
  EXPECT_EQ(quantize_value(-2.0f, p, DType::kInt16), -10922);
  EXPECT_EQ(quantize_value(-100.0f, p, DType::kInt16), -32768);  // saturates
  EXPECT_EQ(quantize_value(300.0f, {1.0f, 0}, DType::kUInt8), 255);
  EXPECT_GT(int16_activation_params(0.0f, 0.0f).scale, 0.0f);
}

TEST(QuantParams, Int64BiasIsNotCutAtInt32) {
  const std::vector<int64_t> b = quantize_bias({3.0f}, 1e-6f, {1e-4f}, DType::kInt64);  // 3 / 1e-10
  EXPECT_NEAR(static_cast<double>(b[0]), 3e10, 3e4);
  EXPECT_EQ(quantize_bias({3.0f}, 1e-6f, {1e-4f}, DType::kInt32)[0], 2147483647);
}

// Bias correction: (dequantized - float weight) x the input channel's mean, summed per output channel.
TEST(QuantParams, WeightErrorShiftIsTheErrorTimesTheInputMean) {
  const std::vector<float> w = {1.0f, 0.004f};  // [1 output, 2 inputs]
  const std::vector<float> scales = {1.0f / 127.0f};
  const std::vector<int8_t> q = quantize_int8_weights(w, {1, 2}, 0, scales);
  ASSERT_EQ(q, (std::vector<int8_t>{127, 1}));
  const std::vector<float> shift = weight_error_shift(w, q, {1, 2}, 0, scales, {2.0f, 10.0f}, 1);
  ASSERT_EQ(shift.size(), 1u);
  EXPECT_NEAR(shift[0], (1.0 / 127.0 - 0.004) * 10.0, 1e-6);
  // Depthwise [1, 1, 1, 4] with multiplier 2: output channels 2 and 3 read input channel 1.
  const std::vector<float> dw = {0.0f, 0.0f, 0.004f, 0.0f};
  const std::vector<int8_t> dq = {0, 0, 1, 0};
  const std::vector<float> dshift = weight_error_shift(dw, dq, {1, 1, 1, 4}, 3, scales, {5.0f, 3.0f}, 2);
  EXPECT_NEAR(dshift[2], (1.0 / 127.0 - 0.004) * 3.0, 1e-6);
  EXPECT_EQ(dshift[0], 0.0f);
}

TEST(QuantParams, EmptyRangeGetsAUsableScale) {
  const AffineParams p = int8_activation_params(0.0f, 0.0f);
  EXPECT_GT(p.scale, 0.0f);
  EXPECT_EQ(quantize_int8(0.0f, p), p.zero_point);
}

TEST(QuantParams, WeightScalesPerOutputChannel) {
  // [2 channels, 3] along axis 0: max |w| 1.27 and 0.254.
  const std::vector<float> w = {1.27f, -0.5f, 0.1f, 0.0f, -0.254f, 0.1f};
  const std::vector<float> scales = int8_weight_scales(w, {2, 3}, 0, true);
  ASSERT_EQ(scales.size(), 2u);
  EXPECT_FLOAT_EQ(scales[0], 0.01f);
  EXPECT_FLOAT_EQ(scales[1], 0.002f);
  const std::vector<int8_t> q = quantize_int8_weights(w, {2, 3}, 0, scales);
  EXPECT_EQ(q, (std::vector<int8_t>{127, -50, 10, 0, -127, 50}));
  EXPECT_EQ(int8_weight_scales(w, {2, 3}, 0, false), std::vector<float>{0.01f});
}

TEST(QuantParams, DepthwiseWeightsAlongTheLastAxis) {
  // [1, 2, 1, 2]: channel = index % 2.
  const std::vector<float> w = {1.5f, 0.5f, -2.0f, 0.2f};
  const std::vector<float> scales = int8_weight_scales(w, {1, 2, 1, 2}, 3, true);
  ASSERT_EQ(scales.size(), 2u);
  EXPECT_FLOAT_EQ(scales[0], 2.0f / 127.0f);
  EXPECT_FLOAT_EQ(scales[1], 0.5f / 127.0f);
  EXPECT_EQ(quantize_int8_weights(w, {1, 2, 1, 2}, 3, scales), (std::vector<int8_t>{95, 127, -127, 51}));
}

TEST(QuantParams, ZeroChannelGetsScaleOne) {
  EXPECT_EQ(int8_weight_scales({0.0f, 0.0f}, {2, 1}, 0, true), (std::vector<float>{1.0f, 1.0f}));
}

TEST(QuantParams, BiasScaleIsInputTimesWeightScale) {
  const std::vector<int32_t> b = quantize_int32_bias({1.0f, -0.5f}, 0.5f, {0.01f, 0.1f});
  EXPECT_EQ(b, (std::vector<int32_t>{200, -10}));
  EXPECT_EQ(quantize_int32_bias({1e12f}, 1e-3f, {1e-3f})[0], INT32_MAX);  // saturates
}

TEST(QuantParams, DeadChannelScaleWidensSoTheBiasFits) {
  std::vector<float> scales = {1e-9f, 0.01f};
  fit_bias_in_weight_scales(scales, {10.0f, 0.5f}, 0.5f);
  EXPECT_NEAR(scales[0], 10.0 / (0.5 * (1 << 30)), 1e-12);
  EXPECT_FLOAT_EQ(scales[1], 0.01f);  // fits already: unchanged
  const std::vector<int32_t> b = quantize_int32_bias({10.0f, 0.5f}, 0.5f, scales);
  EXPECT_LE(b[0], 1 << 30);
  EXPECT_GT(b[0], (1 << 30) - (1 << 30) / 100000);  // just under: the scale is a float, widened by 1e-6
}

TEST(QuantParams, RangeMethods) {
  std::vector<float> v;
  for (int i = 0; i < 100000; ++i) v.push_back(static_cast<float>(i % 1000) / 1000.0f);
  v.push_back(50.0f);  // one outlier
  const Range minmax = estimate_range(v, RangeMethod::kMinMax);
  EXPECT_EQ(minmax.max, 50.0f);
  const Range pct = estimate_range(v, RangeMethod::kPercentile);
  EXPECT_LT(pct.max, 1.0f);
  EXPECT_GT(pct.max, 0.99f);
  const Range mse = estimate_range(v, RangeMethod::kMse);
  EXPECT_LT(mse.max, minmax.max);  // clipping the outlier lowers the error of the rest
  EXPECT_EQ(parse_range_method("mse"), RangeMethod::kMse);
  EXPECT_THROW(parse_range_method("kl"), UsageError);
}

TEST(QuantParams, Sqnr) {
  EXPECT_NEAR(sqnr_db({1.0f, 1.0f}, {1.1f, 0.9f}), 20.0, 1e-4);
  EXPECT_TRUE(std::isinf(sqnr_db({1.0f}, {1.0f})));
}

}  // namespace
}  // namespace microaot
