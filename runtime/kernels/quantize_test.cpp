// Tests of the QUANTIZE / DEQUANTIZE kernels: hand-computed values, clamping and rounding edges, and
// comparisons with a straightforward 64-bit reimplementation of TFLM's requantization arithmetic.
#include "microaot/kernels/quantize.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

namespace {

// TFLite's QuantizeMultiplier: Q31 mantissa rounded half away from zero, and the binary exponent.
microaot_requantize_params requant_params(int32_t size, double in_scale, int32_t in_zp, double out_scale,
                                          int32_t out_zp) {
  int exponent = 0;
  const double fraction = std::frexp(in_scale / out_scale, &exponent);
  int64_t mantissa = std::llround(fraction * 2147483648.0);
  if (mantissa == (int64_t{1} << 31)) {
    mantissa /= 2;
    ++exponent;
  }
  return {size, -in_zp, static_cast<int32_t>(mantissa), exponent, out_zp};
}

int64_t floor_div(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0)) ? 1 : 0); }

// Independent model of TFLM's MultiplyByQuantizedMultiplier: high multiply rounding half up, then a
// right shift rounding half away from zero, both with plain 64-bit arithmetic.
int64_t reference_requantize(int32_t q, const microaot_requantize_params& p, int64_t lo, int64_t hi) {
  const int64_t x = static_cast<int64_t>(q + p.input_offset) * (p.output_shift > 0 ? (1 << p.output_shift) : 1);
  const int64_t high = floor_div(x * p.output_multiplier + (int64_t{1} << 30), int64_t{1} << 31);
  int64_t result = high;
  if (p.output_shift < 0) {
    const int64_t half = int64_t{1} << (-p.output_shift - 1);
    const int64_t magnitude = ((high < 0 ? -high : high) + half) >> -p.output_shift;
    result = high < 0 ? -magnitude : magnitude;
  }
  result += p.output_offset;
  return result < lo ? lo : (result > hi ? hi : result);
}

TEST(QuantizeF32S8, RoundsHalfAwayFromZeroAndClamps) {
  const float input[] = {0.0f, 0.25f, -0.25f, 0.75f, -0.75f, 1.0f, 100.0f, -1000.0f, 0.2f};
  const microaot_quantize_params p = {9, 0.5f, -3};
  int8_t out[9];
  microaot_quantize_f32_s8(&p, input, out);
  // x / 0.5 = 0, 0.5, -0.5, 1.5, -1.5, 2, 200, -2000, 0.4 -> 0, 1, -1, 2, -2, 2, clamp, clamp, 0; then -3.
  const int8_t expected[] = {-3, -2, -4, -1, -5, -1, 127, -128, -3};
  for (int i = 0; i < 9; ++i) EXPECT_EQ(out[i], expected[i]) << i;
}

TEST(QuantizeF32S8, InfinitiesClampAndNanIsTheZeroPoint) {
  const float input[] = {INFINITY, -INFINITY, NAN, -NAN};
  const microaot_quantize_params p = {4, 0.02f, 10};
  int8_t out[4];
  microaot_quantize_f32_s8(&p, input, out);
  EXPECT_EQ(out[0], 127);
  EXPECT_EQ(out[1], -128);
  EXPECT_EQ(out[2], 10);
  EXPECT_EQ(out[3], 10);
}

// Quotients on every tie k + 1/2 and one float step either side, across and beyond both types' ranges (where
// the kernels' trunc(2q) saturates: 2^15 for int8, 2^17 for int16), with zero points at the extremes: the
// kernels against round half away from zero in float, NaN as the zero point. Scale 1 makes x the quotient.
template <typename T, typename Kernel>
void expect_ties_round_away(Kernel kernel, int32_t zero_point) {
  std::vector<float> input;
  for (const float tie_base : {0.0f, 126.0f, 127.0f, 255.0f, 16382.0f, 16383.0f, 16384.0f, 32766.0f, 65534.0f,
                               65535.0f, 65536.0f, 131070.0f, 1e7f}) {
    for (int k = -3; k <= 3; ++k) {
      for (const float sign : {1.0f, -1.0f}) {
        const float tie = sign * (tie_base + static_cast<float>(k) + 0.5f);
        input.insert(input.end(), {tie, std::nextafter(tie, 0.0f), std::nextafter(tie, 2 * tie), std::round(tie)});
      }
    }
  }
  input.insert(input.end(), {0.0f, -0.0f, 1e-45f, -1e-45f, 3e38f, -3e38f, NAN});
  const microaot_quantize_params p = {static_cast<int32_t>(input.size()), 1.0f, zero_point};
  std::vector<T> out(input.size());
  kernel(&p, input.data(), out.data());
  const double lo = std::numeric_limits<T>::min(), hi = std::numeric_limits<T>::max();
  for (size_t i = 0; i < input.size(); ++i) {
    const double q = std::isnan(input[i]) ? 0.0 : std::round(static_cast<double>(input[i]));
    ASSERT_EQ(out[i], static_cast<T>(std::min(std::max(q + zero_point, lo), hi))) << "x=" << input[i];
  }
}

TEST(QuantizeF32S8, TiesRoundAwayFromZeroUpToSaturation) {
  for (const int32_t zp : {-128, -3, 0, 127}) expect_ties_round_away<int8_t>(microaot_quantize_f32_s8, zp);
}

TEST(QuantizeF32S16, TiesRoundAwayFromZeroUpToSaturation) {
  for (const int32_t zp : {-32768, -5, 0, 32767}) expect_ties_round_away<int16_t>(microaot_quantize_f32_s16, zp);
}

TEST(QuantizeF32S8, DividesInFloatLikeTflm) {
  // Compare with round(x / scale) in float over many values, including ties produced by the division.
  const float scale = 0.035f;
  const int32_t zp = 10;
  std::mt19937 rng(7);
  std::normal_distribution<float> dist(0.0f, 2.0f);
  std::vector<float> input(4000);
  for (size_t i = 0; i < input.size(); ++i) {
    // Every fourth value sits near a rounding tie of x / scale.
    input[i] = i % 4 == 0 ? scale * (0.5f + static_cast<float>(i % 301) - 150.0f) : dist(rng);
  }
  std::vector<int8_t> out(input.size());
  const microaot_quantize_params p = {static_cast<int32_t>(input.size()), scale, zp};
  microaot_quantize_f32_s8(&p, input.data(), out.data());
  for (size_t i = 0; i < input.size(); ++i) {
    const float q = std::round(input[i] / scale);
    const float clamped = std::min(std::max(q + static_cast<float>(zp), -128.0f), 127.0f);
    ASSERT_EQ(out[i], static_cast<int8_t>(clamped)) << "x=" << input[i];
  }
}

TEST(QuantizeF32S16, UsesTheInt16Range) {
  const float input[] = {0.0f, 1.0f, -1.0f, 8.0f, -8.0f, 0.00012207031f};
  const microaot_quantize_params p = {6, 0.000244140625f, 0};  // 2^-12
  int16_t out[6];
  microaot_quantize_f32_s16(&p, input, out);
  const int16_t expected[] = {0, 4096, -4096, 32767, -32768, 1};  // 0.5 rounds away from zero
  for (int i = 0; i < 6; ++i) EXPECT_EQ(out[i], expected[i]) << i;
}

TEST(RequantizeS8S16, HandComputedWithExactRatio) {
  // 0.5 / 0.002 = 250 exactly: q_out = 250 * (q - 7).
  const microaot_requantize_params p = requant_params(5, 0.5, 7, 0.002, 0);
  const int8_t input[] = {7, 8, 6, 127, -128};
  int16_t out[5];
  microaot_requantize_s8_s16(&p, input, out);
  const int16_t expected[] = {0, 250, -250, 30000, -32768};
  for (int i = 0; i < 5; ++i) EXPECT_EQ(out[i], expected[i]) << i;
}

TEST(RequantizeS8S8, SameScaleOnlyMovesTheZeroPoint) {
  const microaot_requantize_params p = requant_params(256, 0.04, 3, 0.04, -10);
  EXPECT_EQ(p.output_multiplier, 1 << 30);
  EXPECT_EQ(p.output_shift, 1);
  std::vector<int8_t> input(256), out(256);
  for (int i = 0; i < 256; ++i) input[i] = static_cast<int8_t>(i - 128);
  microaot_requantize_s8_s8(&p, input.data(), out.data());
  for (int i = 0; i < 256; ++i) {
    const int expected = std::max(-128, std::min(127, input[i] - 3 - 10));
    EXPECT_EQ(out[i], expected) << i;
  }
}

TEST(RequantizeS8S8, HalvingRoundsTiesUpward) {
  // Ratio 0.5: multiplier 2^30, shift 0, so only the doubling high multiply rounds, and it rounds ties
  // toward +infinity (TFLM's nudge): 0.5 -> 1, -0.5 -> 0, 1.5 -> 2, -1.5 -> -1.
  const microaot_requantize_params p = requant_params(6, 0.1, 0, 0.2, 0);
  EXPECT_EQ(p.output_multiplier, 1 << 30);
  EXPECT_EQ(p.output_shift, 0);
  const int8_t input[] = {1, -1, 3, -3, 4, -128};
  int8_t out[6];
  microaot_requantize_s8_s8(&p, input, out);
  const int8_t expected[] = {1, 0, 2, -1, 2, -64};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(out[i], expected[i]) << i;
}

TEST(RequantizeS8S8, RightShiftRoundsTiesAwayFromZero) {
  // Ratio 0.25: multiplier 2^30, shift -1; the high multiply halves exactly for even inputs, then the
  // rounding right shift takes ties away from zero: 2 -> 0.5 -> 1, -2 -> -1, 6 -> 2, -6 -> -2.
  const microaot_requantize_params p = requant_params(4, 0.25, 0, 1.0, 0);
  EXPECT_EQ(p.output_shift, -1);
  const int8_t input[] = {2, -2, 6, -6};
  int8_t out[4];
  microaot_requantize_s8_s8(&p, input, out);
  const int8_t expected[] = {1, -1, 2, -2};
  for (int i = 0; i < 4; ++i) EXPECT_EQ(out[i], expected[i]) << i;
}

// Every input value for several scale pairs against the 64-bit reference (float scales as stored).
TEST(Requantize, AllTypePairsMatchTheReference) {
  const float scales[][2] = {{0.04f, 0.07f}, {0.1f, 0.08f}, {0.05f, 0.0002f}, {0.0003f, 0.05f},
                             {0.0003f, 0.0005f}, {0.013f, 0.013f}, {1.7f, 0.0001f}};
  for (const auto& s : scales) {
    const double in_scale = s[0], out_scale = s[1];
    {
      const microaot_requantize_params p = requant_params(256, in_scale, -20, out_scale, 5);
      std::vector<int8_t> in(256), o8(256);
      std::vector<int16_t> o16(256);
      std::vector<uint8_t> ou8(256);
      for (int i = 0; i < 256; ++i) in[i] = static_cast<int8_t>(i - 128);
      microaot_requantize_s8_s8(&p, in.data(), o8.data());
      microaot_requantize_s8_s16(&p, in.data(), o16.data());
      microaot_requantize_s8_u8(&p, in.data(), ou8.data());
      for (int i = 0; i < 256; ++i) {
        ASSERT_EQ(o8[i], reference_requantize(in[i], p, -128, 127)) << s[0] << "/" << s[1] << " q=" << i - 128;
        ASSERT_EQ(o16[i], reference_requantize(in[i], p, -32768, 32767)) << s[0] << "/" << s[1];
        ASSERT_EQ(ou8[i], reference_requantize(in[i], p, 0, 255)) << s[0] << "/" << s[1];
      }
    }
    {
      const microaot_requantize_params p = requant_params(256, in_scale, 128, out_scale, -3);
      std::vector<uint8_t> in(256);
      std::vector<int8_t> out(256);
      for (int i = 0; i < 256; ++i) in[i] = static_cast<uint8_t>(i);
      microaot_requantize_u8_s8(&p, in.data(), out.data());
      for (int i = 0; i < 256; ++i) ASSERT_EQ(out[i], reference_requantize(in[i], p, -128, 127)) << i;
    }
    {
      const int n = 65536;
      const microaot_requantize_params p = requant_params(n, in_scale, 0, out_scale, 0);
      std::vector<int16_t> in(n), o8(n), o16(n);
      std::vector<int8_t> out8(n);
      for (int i = 0; i < n; ++i) in[i] = static_cast<int16_t>(i - 32768);
      microaot_requantize_s16_s8(&p, in.data(), out8.data());
      microaot_requantize_s16_s16(&p, in.data(), o16.data());
      for (int i = 0; i < n; ++i) {
        ASSERT_EQ(out8[i], reference_requantize(in[i], p, -128, 127)) << s[0] << "/" << s[1] << " q=" << in[i];
        ASSERT_EQ(o16[i], reference_requantize(in[i], p, -32768, 32767)) << s[0] << "/" << s[1];
      }
    }
  }
}

// int8 and int16 to int32: every input value for several scale pairs against the 64-bit reference.
TEST(Requantize, ToInt32MatchesTheReference) {
  const float scales[][2] = {{0.04f, 0.07f}, {0.05f, 0.00002f}, {0.0003f, 0.05f}, {0.013f, 0.013f}};
  for (const auto& s : scales) {
    const microaot_requantize_params p8 = requant_params(256, s[0], -20, s[1], 1000);
    std::vector<int8_t> in8(256);
    std::vector<int32_t> out8(256);
    for (int i = 0; i < 256; ++i) in8[i] = static_cast<int8_t>(i - 128);
    microaot_requantize_s8_s32(&p8, in8.data(), out8.data());
    for (int i = 0; i < 256; ++i) ASSERT_EQ(out8[i], reference_requantize(in8[i], p8, INT32_MIN, INT32_MAX)) << i;
    const int n = 65536;
    const microaot_requantize_params p16 = requant_params(n, s[0], 0, s[1], -7);
    ASSERT_LE(p16.output_shift, 15);  // 2^15 << 15 stays within int32, where the reference is exact
    std::vector<int16_t> in16(n);
    std::vector<int32_t> out16(n);
    for (int i = 0; i < n; ++i) in16[i] = static_cast<int16_t>(i - 32768);
    microaot_requantize_s16_s32(&p16, in16.data(), out16.data());
    for (int i = 0; i < n; ++i) {
      ASSERT_EQ(out16[i], reference_requantize(in16[i], p16, INT32_MIN, INT32_MAX)) << s[0] << "/" << s[1] << " " << i;
    }
  }
}

// int32 to int8 and int16: values across the int32 range (those TFLM's int32 arithmetic computes without
// overflow) against the 64-bit reference, clamped to the output type.
TEST(Requantize, FromInt32MatchesTheReference) {
  const float scales[][2] = {{0.0001f, 0.07f}, {0.00002f, 0.0005f}, {0.3f, 0.05f}, {0.013f, 0.013f}};
  std::mt19937 rng(11);
  std::vector<int32_t> in;
  for (int32_t v = -70000; v <= 70000; v += 7) in.push_back(v);
  std::uniform_int_distribution<int32_t> wide(-(1 << 27), 1 << 27);
  for (int i = 0; i < 20000; ++i) in.push_back(wide(rng));
  const auto n = static_cast<int32_t>(in.size());
  for (const auto& s : scales) {
    const microaot_requantize_params p = requant_params(n, s[0], 3, s[1], -5);
    ASSERT_LE(p.output_shift, 3);  // (1 << 27) << 3 stays within int32, where the reference is exact
    std::vector<int8_t> o8(in.size());
    std::vector<int16_t> o16(in.size());
    microaot_requantize_s32_s8(&p, in.data(), o8.data());
    microaot_requantize_s32_s16(&p, in.data(), o16.data());
    for (size_t i = 0; i < in.size(); ++i) {
      ASSERT_EQ(o8[i], reference_requantize(in[i], p, -128, 127)) << s[0] << "/" << s[1] << " q=" << in[i];
      ASSERT_EQ(o16[i], reference_requantize(in[i], p, -32768, 32767)) << s[0] << "/" << s[1] << " q=" << in[i];
    }
  }
}

// Where TFLM's int32 arithmetic would overflow (undefined there), the kernels stay defined: the zero point
// subtraction wraps, an int32 result saturates.
TEST(Requantize, Int32ExtremesStayDefined) {
  const int32_t in[] = {INT32_MAX, INT32_MIN, 0};
  microaot_requantize_params p = requant_params(3, 0.5, -5, 1.0, 0);  // input_offset +5, ratio 1/2
  int8_t o8[3];
  microaot_requantize_s32_s8(&p, in, o8);
  EXPECT_EQ(o8[0], -128);  // INT32_MAX + 5 wraps to INT32_MIN + 4
  EXPECT_EQ(o8[1], -128);
  EXPECT_EQ(o8[2], 3);  // 2.5 rounds up
  const int16_t in16[] = {32767, -32768};
  p = requant_params(2, 1.0, 0, 1.0, INT32_MAX);
  int32_t o32[2];
  microaot_requantize_s16_s32(&p, in16, o32);
  EXPECT_EQ(o32[0], INT32_MAX);  // saturates
  EXPECT_EQ(o32[1], INT32_MAX - 32768);
}

// The 8- and 16-bit inputs' shorter loop (requantize_narrow) against the int32 input's general one on the same
// values, over params a blob may hold: offsets at and past the narrow loop's bounds, multipliers of INT32_MIN and
// below 2^30, left and right shifts.
TEST(Requantize, NarrowInputsAgreeWithTheGeneralLoopOverAnyParams) {
  std::mt19937 rng(23);
  const int32_t input_offsets[] = {0, 128, -32768, 65536, -65536, 65537, INT32_MAX - 5, INT32_MIN + 5};
  const int32_t output_offsets[] = {0, -128, 1 << 30, -(1 << 30), (1 << 30) + 1, INT32_MAX, INT32_MIN};
  const int32_t multipliers[] = {INT32_MIN, 1 << 30, INT32_MAX, 12345, 1518500250};
  std::vector<int16_t> in16;
  std::vector<int32_t> in32;
  for (int v = -32768; v < 32768; v += 61) in16.push_back(static_cast<int16_t>(v));
  in16.push_back(32767);
  for (int16_t v : in16) in32.push_back(v);
  const auto size = static_cast<int32_t>(in16.size());
  for (int trial = 0; trial < 300; ++trial) {
    const microaot_requantize_params p = {size, input_offsets[rng() % 8], multipliers[rng() % 5],
                                          static_cast<int32_t>(rng() % 40) - 31, output_offsets[rng() % 7]};
    std::vector<int8_t> fast(in16.size()), general(in16.size());
    microaot_requantize_s16_s8(&p, in16.data(), fast.data());
    microaot_requantize_s32_s8(&p, in32.data(), general.data());
    ASSERT_EQ(fast, general) << "trial " << trial << " offset " << p.input_offset << " multiplier "
                             << p.output_multiplier << " shift " << p.output_shift << " out " << p.output_offset;
  }
}

TEST(Requantize, StaysWithinOneStepOfTheRealValue) {
  const microaot_requantize_params p = requant_params(256, 0.04f, 3, 0.07f, -10);
  std::vector<int8_t> in(256), out(256);
  for (int i = 0; i < 256; ++i) in[i] = static_cast<int8_t>(i - 128);
  microaot_requantize_s8_s8(&p, in.data(), out.data());
  for (int i = 0; i < 256; ++i) {
    const double real = static_cast<double>(0.04f) * (in[i] - 3) / static_cast<double>(0.07f) - 10.0;
    EXPECT_LE(std::fabs(out[i] - std::max(-128.0, std::min(127.0, real))), 0.5 + 1e-6) << i;
  }
}

TEST(DequantizeS8F32, OneFloatMultiply) {
  const int8_t input[] = {17, 27, -128, 127, 16};
  const microaot_dequantize_params p = {5, 0.1f, -17};
  float out[5];
  microaot_dequantize_s8_f32(&p, input, out);
  EXPECT_EQ(out[0], 0.0f);
  EXPECT_EQ(out[1], 0.1f * 10.0f);
  EXPECT_EQ(out[2], 0.1f * -145.0f);
  EXPECT_EQ(out[3], 0.1f * 110.0f);
  EXPECT_EQ(out[4], -0.1f);
}

TEST(DequantizeS16F32, CoversTheWholeRange) {
  const int n = 65536;
  std::vector<int16_t> in(n);
  std::vector<float> out(n);
  for (int i = 0; i < n; ++i) in[i] = static_cast<int16_t>(i - 32768);
  const microaot_dequantize_params p = {n, 0.0004f, 0};
  microaot_dequantize_s16_f32(&p, in.data(), out.data());
  for (int i = 0; i < n; ++i) ASSERT_EQ(out[i], 0.0004f * static_cast<float>(in[i])) << in[i];
}

TEST(QuantizeKernels, DequantizeThenQuantizeRoundTrips) {
  const microaot_dequantize_params dq = {256, 0.02f, 5};
  const microaot_quantize_params q = {256, 0.02f, -5};
  std::vector<int8_t> in(256), back(256);
  std::vector<float> real(256);
  for (int i = 0; i < 256; ++i) in[i] = static_cast<int8_t>(i - 128);
  microaot_dequantize_s8_f32(&dq, in.data(), real.data());
  microaot_quantize_f32_s8(&q, real.data(), back.data());
  EXPECT_EQ(back, in);
}

}  // namespace
