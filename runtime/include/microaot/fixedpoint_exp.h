/* Fixed-point math of the quantized SOFTMAX: exp() of a non-positive Q(integer_bits) value and
 * 1 / (1 + x), in the Q0.31 arithmetic of gemmlowp's fixedpoint.h that TFLite's reference softmax uses,
 * so that results are bit-exact with it. Header-only, static inline, C99. */
#ifndef MICROAOT_FIXEDPOINT_EXP_H
#define MICROAOT_FIXEDPOINT_EXP_H

#include <stdint.h>

#include "microaot/fixedpoint.h"

/* Leading zero bits of x (32 for 0). */
static inline int microaot_count_leading_zeros_u32(uint32_t x) {
  int count = 0;
  if (x == 0) return 32;
  while ((x & 0x80000000u) == 0) {
    x <<= 1;
    ++count;
  }
  return count;
}

/* x * 2^exponent, exponent in [0, 30], saturating to INT32_MIN / INT32_MAX (gemmlowp's saturating
 * rounding multiply by a positive power of two; with exponent 0 it is the identity). */
static inline int32_t microaot_saturating_shift_left(int32_t x, int exponent) {
  const int32_t threshold = (int32_t)(((int64_t)1 << (31 - exponent)) - 1);
  if (x > threshold) return INT32_MAX;
  if (x < -threshold) return INT32_MIN;
  return x * ((int32_t)1 << exponent);
}

/* (a + b) / 2 rounded half away from zero, computed without overflow. */
static inline int32_t microaot_rounding_half_sum(int32_t a, int32_t b) {
  const int64_t sum = (int64_t)a + (int64_t)b;
  return (int32_t)((sum + (sum >= 0 ? 1 : -1)) / 2);
}

/* exp(a) for a Q0.31 value a in [-1/4, 0): fourth-order Taylor series around -1/8. */
static inline int32_t microaot_exp_on_interval_neg_quarter_to_0(int32_t a) {
  const int32_t exp_minus_one_eighth = 1895147668; /* exp(-1/8) in Q0.31 */
  const int32_t one_third = 715827883;            /* 1/3 in Q0.31 */
  const int32_t x = a + ((int32_t)1 << 28);       /* a + 1/8, in [-1/8, 1/8) */
  const int32_t x2 = microaot_sat_rounding_doubling_high_mul(x, x);
  const int32_t x3 = microaot_sat_rounding_doubling_high_mul(x2, x);
  const int32_t x4 = microaot_sat_rounding_doubling_high_mul(x2, x2);
  const int32_t x4_over_4 = microaot_rounding_divide_by_pot(x4, 2);
  /* x^4/24 + x^3/6 + x^2/2 = ((x^4/4 + x^3) / 3 + x^2) / 2 */
  const int32_t tail = microaot_rounding_divide_by_pot(
      microaot_sat_rounding_doubling_high_mul(x4_over_4 + x3, one_third) + x2, 1);
  return exp_minus_one_eighth + microaot_sat_rounding_doubling_high_mul(exp_minus_one_eighth, x + tail);
}

/* One step of the barrel shifter: multiplies by exp(-2^k) when bit `bit` of the remainder is set. */
static inline int32_t microaot_exp_barrel_step(int32_t result, int32_t remainder, int bit, int32_t multiplier) {
  if (remainder & ((int32_t)1 << bit)) return microaot_sat_rounding_doubling_high_mul(result, multiplier);
  return result;
}

/* exp(a) in Q0.31 for a <= 0 given in Q(integer_bits).(31 - integer_bits), integer_bits in [0, 29]:
 * a is split into a multiple of 1/4 and a rest in [-1/4, 0); exp of the rest comes from the series,
 * each set bit of the multiple multiplies by the constant exp(-2^k). exp(0) is INT32_MAX (~1.0). */
static inline int32_t microaot_exp_on_negative_values(int32_t a, int integer_bits) {
  /* exp(-2^k) in Q0.31 for k = -2 .. 4 */
  static const int32_t exp_of_minus_pot[7] = {1672461947, 1302514674, 790015084, 290630308, 39332535, 720401, 242};
  const int fractional_bits = 31 - integer_bits;
  const int32_t one_quarter = (int32_t)1 << (fractional_bits - 2);
  const int32_t rest = (a & (one_quarter - 1)) - one_quarter; /* in [-1/4, 0) */
  const int32_t remainder = rest - a;                          /* the non-negative multiple of 1/4 */
  int32_t result = microaot_exp_on_interval_neg_quarter_to_0(microaot_saturating_shift_left(rest, integer_bits));
  int k;
  for (k = -2; k <= 4; ++k) {
    if (integer_bits > k) {
      result = microaot_exp_barrel_step(result, remainder, fractional_bits + k, exp_of_minus_pot[k + 2]);
    }
  }
  /* The barrel shifter covers multiples of 1/4 up to 31.75; wider formats clamp below -32 to 0. */
  if (integer_bits > 5 && a < -((int32_t)1 << (36 - integer_bits))) result = 0;
  return a == 0 ? INT32_MAX : result;
}

/* 2 / (1 + x) in Q2.29 for a Q0.31 value x in [0, 1): three Newton-Raphson iterations on the half denominator
 * d = (1 + x) / 2 in Q0.31, starting from 48/17 - 32/17 * d. */
static inline int32_t microaot_newton_two_over_one_plus_x(int32_t x) {
  const int32_t half_denominator = microaot_rounding_half_sum(x, INT32_MAX);
  const int32_t constant_48_over_17 = 1515870810;      /* Q2.29 */
  const int32_t constant_neg_32_over_17 = -1010580540; /* Q2.29 */
  const int32_t one_q2 = (int32_t)1 << 29;             /* 1.0 in Q2.29 */
  int32_t estimate = constant_48_over_17 + microaot_sat_rounding_doubling_high_mul(half_denominator,
                                                                                     constant_neg_32_over_17);
  int i;
  for (i = 0; i < 3; ++i) {
    const int32_t error = one_q2 - microaot_sat_rounding_doubling_high_mul(half_denominator, estimate);
    /* estimate * error is Q4.27; rescaling to Q2.29 is a saturating shift by 2. */
    estimate += microaot_saturating_shift_left(microaot_sat_rounding_doubling_high_mul(estimate, error), 2);
  }
  return estimate;
}

/* 1 / (1 + x) for a Q0.31 value x in [0, 1), result in Q0.31 (so in (1/2, 1]): 2 / (1 + x) in Q2.29 is
 * 1 / (1 + x) in Q1.30, brought to Q0.31 by a saturating shift. */
static inline int32_t microaot_one_over_one_plus_x_for_x_in_0_1(int32_t x) {
  return microaot_saturating_shift_left(microaot_newton_two_over_one_plus_x(x), 1);
}

/* 1/x for a positive Q(x_integer_bits) value x: x is normalized to 2^n * (1 + f) with f in [0, 1);
 * returns 1/(1 + f) in Q0.31 and n (the bits above the unit) in *num_bits_over_unit. */
static inline int32_t microaot_reciprocal(int32_t x, int x_integer_bits, int* num_bits_over_unit) {
  const int headroom_plus_one = microaot_count_leading_zeros_u32((uint32_t)x);
  const int32_t fraction = (int32_t)(((uint32_t)x << headroom_plus_one) - ((uint32_t)1 << 31));
  *num_bits_over_unit = x_integer_bits - headroom_plus_one;
  return microaot_one_over_one_plus_x_for_x_in_0_1(fraction);
}

/* The softmax step for one element: exp(beta * input_scale * diff) in Q0.31 for a difference to the row
 * maximum diff in [diff_min, 0]. diff * 2^left_shift cannot overflow there (diff_min is chosen so), and
 * the high multiply makes it Q5.26. */
static inline int32_t microaot_softmax_exp_of_diff(int32_t diff, int32_t multiplier, int left_shift) {
  const int32_t shifted = (int32_t)((uint32_t)diff << left_shift);
  return microaot_exp_on_negative_values(microaot_sat_rounding_doubling_high_mul(shifted, multiplier), 5);
}

#endif /* MICROAOT_FIXEDPOINT_EXP_H */
