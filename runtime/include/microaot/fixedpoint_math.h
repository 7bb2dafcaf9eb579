/* Fixed-point logistic, tanh, log and inverse square root in the Q0.31 arithmetic of gemmlowp's fixedpoint.h,
 * which TFLite's quantized LOGISTIC, TANH, LOG_SOFTMAX, RSQRT (and L2_NORMALIZATION) reference kernels use, so
 * results stay bit-exact with them. Header-only, static inline, C99. */
#ifndef MICROAOT_FIXEDPOINT_MATH_H
#define MICROAOT_FIXEDPOINT_MATH_H

#include <stdint.h>

#include "microaot/fixedpoint.h"
#include "microaot/fixedpoint_exp.h"

/* (1 - x) / (1 + x) for a Q0.31 value x in [0, 1), in Q0.31: 2 / (1 + x) - 1, from Q2.29 by a saturating
 * shift. */
static inline int32_t microaot_one_minus_x_over_one_plus_x_for_x_in_0_1(int32_t x) {
  return microaot_saturating_shift_left(microaot_newton_two_over_one_plus_x(x) - ((int32_t)1 << 29), 2);
}

/* logistic(a) = 1 / (1 + exp(-a)) in Q0.31 for a in Q(integer_bits).(31 - integer_bits), integer_bits in
 * [0, 29]: computed for |a| and mirrored (1 - result) for a < 0; exactly 1/2 at 0. a must not be INT32_MIN. */
static inline int32_t microaot_logistic_q31(int32_t a, int integer_bits) {
  const int32_t magnitude = a > 0 ? a : -a;
  const int32_t positive = microaot_one_over_one_plus_x_for_x_in_0_1(microaot_exp_on_negative_values(-magnitude,
                                                                                                    integer_bits));
  if (a == 0) return (int32_t)1 << 30;
  return a > 0 ? positive : INT32_MAX - positive;
}

/* tanh(a) in Q0.31 for a in Q(integer_bits).(31 - integer_bits), integer_bits in [0, 28]:
 * (1 - exp(-2|a|)) / (1 + exp(-2|a|)), the doubling being a reinterpretation with one more integer bit;
 * the sign restored after; exactly 0 at 0. a must not be INT32_MIN. */
static inline int32_t microaot_tanh_q31(int32_t a, int integer_bits) {
  const int32_t negative = a < 0 ? a : -a;
  const int32_t magnitude = microaot_one_minus_x_over_one_plus_x_for_x_in_0_1(
      microaot_exp_on_negative_values(negative, integer_bits + 1));
  if (a == 0) return 0;
  return a < 0 ? -magnitude : magnitude;
}

/* floor(x / 2^shift), shift in [0, 62], without shifting a negative value. */
static inline int64_t microaot_shift_right_floor(int64_t x, int shift) {
  return x >= 0 ? x >> shift : -((-(x + 1)) >> shift) - 1;
}

/* a + b and a - b saturated to the int32 range. */
static inline int32_t microaot_saturating_add(int32_t a, int32_t b) {
  const int64_t sum = (int64_t)a + b;
  return (int32_t)(sum > INT32_MAX ? INT32_MAX : (sum < INT32_MIN ? INT32_MIN : sum));
}
static inline int32_t microaot_saturating_sub(int32_t a, int32_t b) {
  const int64_t difference = (int64_t)a - b;
  return (int32_t)(difference > INT32_MAX ? INT32_MAX : (difference < INT32_MIN ? INT32_MIN : difference));
}

/* The polynomial part of the log: log(r / sqrt(sqrt(1/2)))-like correction for a mantissa r in Q0.31,
 * as num / (1 + denom_minus_one) (gemmlowp's minimax-style rational approximation), returned as the numerator
 * in Q0.31 and the reciprocal of the denominator in Q0.31. */
static inline void microaot_log_rational(int32_t r, int32_t* numerator, int32_t* reciprocal_denominator) {
  const int32_t sqrt_sqrt_half = 1805811301; /* 2^-1/4 in Q0.31 */
  const int32_t alpha_n = 117049297;         /* 11/240 * 2^1/4 */
  const int32_t alpha_d = 127690142;         /* 1/20 * 2^1/4 */
  const int32_t alpha_i = 1057819769;        /* 2 / 2^1/4 - 2^1/4 */
  const int32_t alpha_f = 638450708;         /* 1/4 * 2^1/4 */
  const int32_t p = microaot_rounding_half_sum(r, sqrt_sqrt_half);
  const int32_t q = 2 * (r - sqrt_sqrt_half);
  const int32_t q_squared = microaot_sat_rounding_doubling_high_mul(q, q);
  const int32_t p_factor = alpha_i + q + microaot_sat_rounding_doubling_high_mul(alpha_d, q_squared);
  const int32_t denom_minus_one = microaot_sat_rounding_doubling_high_mul(p, p_factor) +
                                  microaot_sat_rounding_doubling_high_mul(alpha_f, q);
  *numerator = microaot_sat_rounding_doubling_high_mul(q, r) +
               microaot_sat_rounding_doubling_high_mul(microaot_sat_rounding_doubling_high_mul(q, q_squared), alpha_n);
  *reciprocal_denominator = microaot_one_over_one_plus_x_for_x_in_0_1(denom_minus_one);
}

/* log(x) for x >= 1 given in Q(input_bits).(31 - input_bits), result in Q(output_bits).(31 - output_bits),
 * output_bits in [1, 29] (TFLite's log_x_for_x_greater_than_or_equal_to_1): x = 2^z * r is normalized two ways
 * (r in [1/2, 1) scaled by sqrt(1/2), and r' in [sqrt(1/2), sqrt(2)/2 * 2)), the smaller mantissa kept with the
 * larger exponent adjusted by 1/4, then log = z * log(2) + rational(r). Summed with one extra integer bit. */
static inline int32_t microaot_log_x_for_x_ge_1(int32_t x, int input_bits, int output_bits) {
  const int32_t log_2 = 1488522236;     /* log(2) in Q0.31 */
  const int32_t sqrt_half = 1518500250; /* sqrt(1/2) in Q0.31 */
  const int accum_bits = output_bits + 1;
  const int32_t shifted_quarter = microaot_rounding_divide_by_pot((int32_t)1 << 29, accum_bits);
  const int a_headroom_plus_one = microaot_count_leading_zeros_u32((uint32_t)x);
  const int32_t x_a = microaot_saturating_shift_left(x, a_headroom_plus_one - 1);
  const int32_t r_a = microaot_saturating_shift_left(microaot_sat_rounding_doubling_high_mul(x_a, sqrt_half), 1);
  const int32_t z_a = microaot_saturating_add(
      microaot_saturating_shift_left(input_bits - a_headroom_plus_one, 31 - accum_bits), shifted_quarter);
  const int32_t x_b = microaot_sat_rounding_doubling_high_mul(x, sqrt_half);
  const int b_headroom = microaot_count_leading_zeros_u32((uint32_t)x_b) - 1;
  const int32_t r_b = microaot_saturating_shift_left(x, b_headroom);
  const int32_t z_b = microaot_saturating_sub(
      microaot_saturating_shift_left(input_bits - b_headroom, 31 - accum_bits), shifted_quarter);
  int32_t numerator, reciprocal_denominator;
  microaot_log_rational(r_a < r_b ? r_a : r_b, &numerator, &reciprocal_denominator);
  {
    const int32_t z = z_a > z_b ? z_a : z_b;
    const int32_t sum = microaot_sat_rounding_doubling_high_mul(z, log_2) +
                        microaot_sat_rounding_doubling_high_mul(
                            microaot_rounding_divide_by_pot(numerator, accum_bits), reciprocal_denominator);
    return microaot_saturating_shift_left(sum, accum_bits - output_bits);
  }
}

/* 1/sqrt(x) of a positive integer x as a multiplier and left shift, for microaot_multiply_by_quantized_multiplier
 * (TFLite's GetInvSqrtQuantizedMultiplierExp): x is brought to [2^27, 2^29) by pairs of bits, five
 * Newton-Raphson steps x' = x * (3 - v x^2) / 2 run in Q3.28, then the result is scaled by sqrt(2)/2. x <= 1
 * gives the largest multiplier and no shift. */
static inline void microaot_inv_sqrt_multiplier(int32_t x, int32_t* multiplier, int* left_shift) {
  const int32_t half_three = ((int32_t)1 << 28) + ((int32_t)1 << 27); /* 1.5 in Q3.28 */
  int right_shift = 11;
  int32_t half_input, estimate = (int32_t)1 << 28; /* 1.0 in Q3.28 */
  int pairs, i;
  if (x <= 1) {
    *multiplier = INT32_MAX;
    *left_shift = 0;
    return;
  }
  while (x >= ((int32_t)1 << 29)) {
    x /= 4;
    ++right_shift;
  }
  pairs = (microaot_count_leading_zeros_u32((uint32_t)x) - 1) / 2 - 1;
  right_shift -= pairs;
  x <<= 2 * pairs;
  half_input = microaot_rounding_divide_by_pot(x >> 1, 1);
  for (i = 0; i < 5; ++i) {
    const int32_t cube = microaot_saturating_shift_left(
        microaot_sat_rounding_doubling_high_mul(microaot_sat_rounding_doubling_high_mul(estimate, estimate), estimate),
        6); /* Q9.22 -> Q3.28 */
    estimate = microaot_saturating_shift_left(microaot_sat_rounding_doubling_high_mul(half_three, estimate) -
                                                  microaot_sat_rounding_doubling_high_mul(half_input, cube),
                                              3); /* Q6.25 -> Q3.28 */
  }
  estimate = microaot_sat_rounding_doubling_high_mul(estimate, 1518500250); /* * sqrt(2)/2 */
  if (right_shift < 0) {
    estimate = (int32_t)((uint32_t)estimate << -right_shift);
    right_shift = 0;
  }
  *multiplier = estimate;
  *left_shift = -right_shift;
}

#endif /* MICROAOT_FIXEDPOINT_MATH_H */
