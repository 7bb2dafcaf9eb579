/* Fixed-point primitives of the integer kernels: the saturating rounding doubling high multiply and the
 * rounding right shift that TFLite's reference kernels apply (two roundings), so results stay bit-exact.
 * Header-only and static inline: every kernel file includes it and the compiler inlines the calls. */
#ifndef MICROAOT_FIXEDPOINT_H
#define MICROAOT_FIXEDPOINT_H

#include <stdint.h>

/* (a * b * 2) >> 32 with rounding to nearest; saturates the single overflow case INT32_MIN * INT32_MIN. */
static inline int32_t microaot_sat_rounding_doubling_high_mul(int32_t a, int32_t b) {
  if (a == b && a == INT32_MIN) return INT32_MAX;
  /* TFLM's (product + nudge) / 2^31, the division truncating towards zero with nudge 2^30 for a product >= 0 and
   * 1 - 2^30 below, is floor((product + 2^30) / 2^31) for both signs (a negative numerator's quotient rounds up):
   * one arithmetic shift, no 64-bit division. */
  return (int32_t)(((int64_t)a * (int64_t)b + ((int64_t)1 << 30)) >> 31);
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

/* x / 2^exponent rounded to nearest for any exponent >= 0: beyond 31 the quotient is below 1/2 in magnitude
 * (for x above INT32_MIN), so 0. */
static inline int32_t microaot_rounding_divide_by_pot_wide(int32_t x, int exponent) {
  return exponent > 31 ? 0 : microaot_rounding_divide_by_pot(x, exponent);
}

/* An input of an element-wise op brought to a scale shared with the other inputs: (q + offset) * 2^left_shift,
 * times multiplier * 2^(shift - 31) with shift <= 0 (TFLM's ADD, SUB, SQUARED_DIFFERENCE and comparisons). */
static inline int32_t microaot_rescale_input(int32_t q, int32_t offset, int left_shift, int32_t multiplier,
                                             int shift) {
  return microaot_multiply_by_quantized_multiplier((q + offset) * ((int32_t)1 << left_shift), multiplier, shift);
}

/* microaot_rescale_input of input k (1 or 2) for a params struct with the fields left_shift and
 * input<k>_offset, input<k>_multiplier, input<k>_shift. */
#define MICROAOT_RESCALED_INPUT(p, k, q)                                                                  \
  microaot_rescale_input(q, (p)->input##k##_offset, (p)->left_shift, (p)->input##k##_multiplier,          \
                         (p)->input##k##_shift)

/* a + b and a - b with two's-complement wrap-around (where the reference's int32 arithmetic overflows). */
static inline int32_t microaot_wrapping_add_s32(int32_t a, int32_t b) { return (int32_t)((uint32_t)a + (uint32_t)b); }
static inline int32_t microaot_wrapping_sub_s32(int32_t a, int32_t b) { return (int32_t)((uint32_t)a - (uint32_t)b); }

/* Leading bits equal to the sign bit, the sign bit excluded (31 for 0 and -1). */
static inline int microaot_count_leading_sign_bits(int32_t x) {
  uint32_t magnitude = x < 0 ? ~(uint32_t)x : (uint32_t)x;
  int count = 0;
  while (count < 31 && (magnitude & 0x40000000u) == 0) {
    magnitude <<= 1;
    ++count;
  }
  return count;
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
