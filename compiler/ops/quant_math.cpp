#include "ops/quant_math.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

#include "support/diagnostics.h"

namespace microaot {

QuantizedMultiplier quantize_multiplier(double real_multiplier) {
  QuantizedMultiplier result;
  if (real_multiplier == 0.0) return result;
  // Finite scales can still overflow their ratio (1e38 / 1e-38); no fixed-point multiplier represents it.
  if (!std::isfinite(real_multiplier)) {
    throw CompileError("a rescale factor of " + std::to_string(real_multiplier) +
                       " is not a finite number (input, weight and output scales too far apart)");
  }
  int shift = 0;
  const double fraction = std::frexp(real_multiplier, &shift);
  auto fixed = static_cast<int64_t>(std::round(fraction * (1LL << 31)));
  MICROAOT_CHECK(fixed <= (1LL << 31), "multiplier mantissa out of range");
  if (fixed == (1LL << 31)) {
    fixed /= 2;
    ++shift;
  }
  if (shift < -31) {  // too small to represent: the product is zero
    shift = 0;
    fixed = 0;
  }
  // The kernels shift a 32-bit value left by `shift`; more than 31 is undefined in C (and in TFLM).
  if (shift > 31) {
    throw CompileError("a rescale factor of " + std::to_string(real_multiplier) + " needs a left shift of " +
                       std::to_string(shift) + " bits, more than the kernels' 31 (an output scale far too small?)");
  }
  result.multiplier = static_cast<int32_t>(fixed);
  result.shift = shift;
  return result;
}

QuantizedMultiplier quantize_multiplier_smaller_than_one(double real_multiplier) {
  MICROAOT_CHECK(real_multiplier < 1.0 && real_multiplier > 0.0, "multiplier must be in (0, 1)");
  QuantizedMultiplier result = quantize_multiplier(real_multiplier);
  MICROAOT_CHECK(result.shift <= 0, "multiplier below one has a non-positive shift");
  return result;
}

QuantizedMultiplier quantize_multiplier_greater_than_one(double real_multiplier) {
  MICROAOT_CHECK(real_multiplier > 1.0, "multiplier must be above 1");
  QuantizedMultiplier result = quantize_multiplier(real_multiplier);
  MICROAOT_CHECK(result.shift >= 0, "multiplier above one has a non-negative shift");
  return result;
}

// The float operations of TFLM, each rounded on its own (volatile: no fused multiply-add).
bool checked_log2(float x, int* log2_rounded) {
  volatile float log2_x = std::log(x) * (1.0f / std::log(2.0f));
  const float rounded = std::round(log2_x);
  *log2_rounded = static_cast<int>(rounded);
  return std::fabs(log2_x - rounded) < 1e-3f;
}

int32_t input_radius(int integer_bits, int left_shift) {
  const double largest = static_cast<double>((1 << integer_bits) - 1) * std::ldexp(1.0, 31 - integer_bits - left_shift);
  return static_cast<int32_t>(std::min(std::floor(largest), static_cast<double>(INT32_MAX)));
}

int32_t quantize_value(float value, float scale, int32_t zero_point) {
  const float rounded = std::round(value / scale);
  // Saturate instead of overflowing: a tiny scale makes the bound huge, and the caller clamps to the type.
  constexpr double kLimit = 2147483647.0;
  const double clamped = std::max(-kLimit, std::min(kLimit, static_cast<double>(rounded)));
  const int64_t sum = static_cast<int64_t>(clamped) + zero_point;
  return static_cast<int32_t>(std::max<int64_t>(INT32_MIN, std::min<int64_t>(INT32_MAX, sum)));
}

ActivationRange quantized_activation_range(Activation activation, DType type, float scale, int32_t zero_point) {
  int32_t qmin = 0;
  int32_t qmax = 0;
  switch (type) {
    case DType::kInt8: qmin = -128; qmax = 127; break;
    case DType::kInt16: qmin = -32768; qmax = 32767; break;
    case DType::kUInt8: qmin = 0; qmax = 255; break;
    default: MICROAOT_CHECK(false, "quantized activation range on a non-quantized type");
  }
  switch (activation) {
    case Activation::kNone: return {qmin, qmax};
    case Activation::kRelu: return {std::max(qmin, quantize_value(0.0f, scale, zero_point)), qmax};
    case Activation::kRelu6:
      return {std::max(qmin, quantize_value(0.0f, scale, zero_point)),
              std::min(qmax, quantize_value(6.0f, scale, zero_point))};
    case Activation::kReluN1To1:
      return {std::max(qmin, quantize_value(-1.0f, scale, zero_point)),
              std::min(qmax, quantize_value(1.0f, scale, zero_point))};
  }
  MICROAOT_CHECK(false, "unknown activation");
}

ActivationRange int32_activation_range(Activation activation) {
  switch (activation) {
    case Activation::kNone: return {INT32_MIN, INT32_MAX};
    case Activation::kRelu: return {0, INT32_MAX};
    case Activation::kRelu6: return {0, 6};
    case Activation::kReluN1To1: return {-1, 1};
  }
  MICROAOT_CHECK(false, "unknown activation");
}

FloatActivationRange float_activation_range(Activation activation) {
  switch (activation) {
    case Activation::kNone: return {-FLT_MAX, FLT_MAX};
    case Activation::kRelu: return {0.0f, FLT_MAX};
    case Activation::kRelu6: return {0.0f, 6.0f};
    case Activation::kReluN1To1: return {-1.0f, 1.0f};
  }
  MICROAOT_CHECK(false, "unknown activation");
}

std::string c_float_literal(float value) {
  if (std::isinf(value)) return value > 0 ? "INFINITY" : "-INFINITY";
  MICROAOT_CHECK(!std::isnan(value), "NaN constant");
  if (value == FLT_MAX) return "FLT_MAX";
  if (value == -FLT_MAX) return "-FLT_MAX";
  char text[64];
  std::snprintf(text, sizeof text, "%af", static_cast<double>(value));
  return text;
}

void set_activation_params(KernelCall& call, const Tensor& output, Activation activation) {
  if (output.dtype == DType::kFloat32) {
    const FloatActivationRange range = float_activation_range(activation);
    call.params.set_float("activation_min", range.min);
    call.params.set_float("activation_max", range.max);
    return;
  }
  const ActivationRange range =
      output.dtype == DType::kInt32
          ? int32_activation_range(activation)
          : quantized_activation_range(activation, output.dtype, output.quant.scale[0],
                                       static_cast<int32_t>(output.quant.zero_point[0]));
  call.params.set_int("activation_min", range.min);
  call.params.set_int("activation_max", range.max);
}

void set_multiplier_params(KernelCall& call, const std::vector<QuantizedMultiplier>& multipliers) {
  std::vector<int64_t> mantissas, shifts;
  for (const QuantizedMultiplier& m : multipliers) {
    mantissas.push_back(m.multiplier);
    shifts.push_back(m.shift);
  }
  call.params.set_ints("output_multiplier", std::move(mantissas));
  call.params.set_ints("output_shift", std::move(shifts));
}

}  // namespace microaot
