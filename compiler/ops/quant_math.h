// Compile-time quantization arithmetic shared by the operator handlers: turning real-valued scales into
// the fixed-point multiplier/shift pairs the int8 kernels use, and activation clamp ranges. The rounding
// rules are TFLite's, so the kernels stay bit-exact with TFLM's reference kernels.
#pragma once

#include <cstdint>
#include <vector>

#include "ir/graph.h"
#include "kernels/kernel_call.h"

namespace microaot {

// real ≈ multiplier * 2^(shift - 31), multiplier in [2^30, 2^31) or 0. shift > 0 means a left shift.
struct QuantizedMultiplier {
  int32_t multiplier = 0;
  int shift = 0;
};

// frexp-based decomposition with round-half-away-from-zero of the mantissa (TFLite's QuantizeMultiplier).
QuantizedMultiplier quantize_multiplier(double real_multiplier);
// For multipliers known to be < 1 (shift <= 0) or > 1 (shift >= 0); check the precondition.
QuantizedMultiplier quantize_multiplier_smaller_than_one(double real_multiplier);
QuantizedMultiplier quantize_multiplier_greater_than_one(double real_multiplier);

// TFLite's CheckedLog2: log2(x) rounded, and whether x is that power of two within 1e-3 in the exponent.
bool checked_log2(float x, int* log2_rounded);

// floor((2^integer_bits - 1) * 2^(31 - integer_bits) / 2^left_shift): the largest input difference whose
// rescale by a multiplier with that left shift still fits Q(integer_bits) (TFLite's CalculateInputRadius with
// 31 total bits); the limit of the fixed-point exp, logistic and tanh kernels.
int32_t input_radius(int integer_bits, int left_shift);

// zero_point + round(value / scale) with the division in float, as TFLite quantizes activation bounds;
// saturates to the int32 range (NaN is not expected: scales are checked finite and positive).
int32_t quantize_value(float value, float scale, int32_t zero_point);

struct ActivationRange {
  int32_t min;
  int32_t max;
};
// Clamp range for a fused activation on a quantized output of the given type (int8/int16).
ActivationRange quantized_activation_range(Activation activation, DType type, float scale, int32_t zero_point);

// Clamp range for a fused activation on an (unquantized) int32 output: the bounds as plain integers.
ActivationRange int32_activation_range(Activation activation);

struct FloatActivationRange {
  float min;
  float max;
};
FloatActivationRange float_activation_range(Activation activation);

// Sets the per-channel output_multiplier and output_shift array params.
void set_multiplier_params(KernelCall& call, const std::vector<QuantizedMultiplier>& multipliers);

// Sets the activation_min/max params of a fused activation on `output`: floats for a float output, the
// int32 bounds for an (unquantized) int32 output, else quantized in the output's units.
void set_activation_params(KernelCall& call, const Tensor& output, Activation activation);

// C99 text for a float constant that round-trips exactly (hex float), e.g. "0x1.8p+1f"; handles ±inf/FLT_MAX.
std::string c_float_literal(float value);

}  // namespace microaot
