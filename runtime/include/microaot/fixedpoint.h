/* Fixed-point primitives of the int8 kernels: the saturating rounding doubling high multiply and the
 * rounding right shift that TFLite's reference kernels apply (two roundings), so results stay bit-exact.
 * Header-only and static inline: every kernel file includes it and the compiler inlines the calls. */
#ifndef MICROAOT_FIXEDPOINT_H
#define MICROAOT_FIXEDPOINT_H

#include <stdint.h>

/* (a * b * 2) >> 32 with rounding to nearest; saturates the single overflow case INT32_MIN * INT32_MIN. */
static inline int32_t microaot_sat_rounding_doubling_high_mul(int32_t a, int32_t b) {
  int64_t product;
  int32_t nudge;
  if (a == b && a == INT32_MIN) return INT32_MAX;
  product = (int64_t)a * (int64_t)b;
  nudge = product >= 0 ? (1 << 30) : (1 - (1 << 30));
  /* Division (not a shift) truncates toward zero, which the nudge above relies on. */
  return (int32_t)((product + nudge) / ((int64_t)1 << 31));
}

/* x / 2^exponent rounded to nearest, ties away from zero; exponent in [0, 31]. */
static inline int32_t microaot_rounding_divide_by_pot(int32_t x, int exponent) {
  const int32_t mask = (int32_t)(((int64_t)1 << exponent) - 1);
  const int32_t remainder = x & mask;
  const int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return (x >> exponent) + (remainder > threshold ? 1 : 0);
}

/* x * multiplier * 2^(shift - 31): a left shift for shift > 0, then the high multiply, then a rounding
 * right shift for shift < 0. The left shift wraps like the two's-complement hardware it models. */
static inline int32_t microaot_multiply_by_quantized_multiplier(int32_t x, int32_t multiplier, int shift) {
  const int left_shift = shift > 0 ? shift : 0;
  const int right_shift = shift > 0 ? 0 : -shift;
  const int32_t shifted = (int32_t)((uint32_t)x << left_shift);
  return microaot_rounding_divide_by_pot(microaot_sat_rounding_doubling_high_mul(shifted, multiplier), right_shift);
}

/* The int32 whose two's-complement bits are u: sums that TFLM lets wrap in int32 are kept in uint32 (where
 * wrapping is defined) and read back through this. */
static inline int32_t microaot_wrap_s32(uint32_t u) {
  return u <= (uint32_t)INT32_MAX ? (int32_t)u : -(int32_t)(~u) - 1;
}

/* x * multiplier * 2^(shift - 31) for a 64-bit x (|x| < 2^47, the 16x8 and 16x16 accumulators) as TFLite's
 * 64-bit overload computes it: the multiplier rounded to 16 bits, then one rounding right shift by
 * 15 - shift; shift in [-31, 7]. */
static inline int32_t microaot_multiply_by_quantized_multiplier_s64(int64_t x, int32_t multiplier, int shift) {
  const int64_t reduced = multiplier < 0x7FFF0000 ? ((int64_t)multiplier + (1 << 15)) / 65536 : 0x7FFF;
  const int total_shift = 15 - shift;
  const int64_t value = x * reduced + ((int64_t)1 << (total_shift - 1));
  /* value / 2^total_shift rounded down, without shifting a negative number */
  return (int32_t)(value >= 0 ? value >> total_shift : -((-(value + 1)) >> total_shift) - 1);
}

static inline int32_t microaot_clamp_s32(int32_t value, int32_t lo, int32_t hi) {
  return value < lo ? lo : (value > hi ? hi : value);
}

static inline float microaot_clamp_f32(float value, float lo, float hi) {
  return value < lo ? lo : (value > hi ? hi : value);
}

#endif /* MICROAOT_FIXEDPOINT_H */
