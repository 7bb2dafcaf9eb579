/* Kernels of L2_NORMALIZATION: each row of the last dimension divided by its Euclidean norm. Float divides by
 * max(sqrt(sum of squares), 1e-6). int8 follows TFLite Micro's reference bit for bit: the sum of the squared
 * offset inputs gives a fixed-point 1/sqrt (Newton-Raphson, microaot_inv_sqrt below) that rescales each
 * offset input to the fixed output quantization, scale 1/128 and zero point 0. */
#ifndef MICROAOT_KERNELS_L2_NORMALIZATION_H
#define MICROAOT_KERNELS_L2_NORMALIZATION_H

#include <stdint.h>

#include "microaot/fixedpoint.h"
#include "microaot/fixedpoint_exp.h"
#include "microaot/params.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MICROAOT_L2_NORMALIZATION_SHAPE_FIELDS(X) \
  X(I32, outer) /* rows: elements / depth */      \
  X(I32, depth) /* the last dimension */

#define MICROAOT_FIELDS_l2_normalization_params_s8(X) \
  MICROAOT_L2_NORMALIZATION_SHAPE_FIELDS(X)           \
  X(I32, input_offset) /* -input zero point */
MICROAOT_DEFINE_PARAMS(l2_normalization_params_s8)

#define MICROAOT_FIELDS_l2_normalization_params_f32(X) MICROAOT_L2_NORMALIZATION_SHAPE_FIELDS(X)
MICROAOT_DEFINE_PARAMS(l2_normalization_params_f32)

void microaot_l2_normalization_s8(const microaot_l2_normalization_params_s8* params, const int8_t* input,
                                  int8_t* output);
void microaot_l2_normalization_f32(const microaot_l2_normalization_params_f32* params, const float* input,
                                   float* output);

/* 1 / sqrt(x) as multiplier * 2^(shift - 31), for the microaot_multiply_by_quantized_multiplier of int8. */
typedef struct {
  int32_t multiplier;
  int shift;
} microaot_inv_sqrt;

/* One Newton-Raphson step x <- 3/2 x - 1/2 input x^3 on Q3.28 values: products of two Q3.28 values are Q6.25,
 * of three Q9.22, each brought back to Q3.28 by a saturating left shift. */
static inline int32_t microaot_inv_sqrt_step(int32_t x, int32_t half_input) {
  const int32_t three_halves = (1 << 28) + (1 << 27); /* 1.5 in Q3.28 */
  const int32_t x2 = microaot_sat_rounding_doubling_high_mul(x, x);
  const int32_t x3 = microaot_saturating_shift_left(microaot_sat_rounding_doubling_high_mul(x2, x), 6);
  const int32_t difference = microaot_sat_rounding_doubling_high_mul(three_halves, x) -
                             microaot_sat_rounding_doubling_high_mul(half_input, x3);
  return microaot_saturating_shift_left(difference, 3);
}

/* TFLite's GetInvSqrtQuantizedMultiplierExp for x >= 0 (x <= 1 as if 1): x is scaled by a power of 4 into
 * [2^27, 2^29), read as Q3.28 (halved), five Newton-Raphson steps from 1.0 give 1/sqrt, and a factor
 * sqrt(2)/2 with the power of 2 undone makes the multiplier and shift. */
static inline microaot_inv_sqrt microaot_inv_sqrt_of(int32_t x) {
  microaot_inv_sqrt result = {INT32_MAX, 0};
  int32_t estimate = 1 << 28; /* 1.0 in Q3.28 */
  int right_shift = 11, pairs, i;
  int32_t half_input;
  if (x <= 1) return result;
  while (x >= (1 << 29)) x /= 4, ++right_shift;
  pairs = (microaot_count_leading_zeros_u32((uint32_t)x) - 1) / 2 - 1;
  right_shift -= pairs;
  x = (int32_t)((uint32_t)x << (2 * pairs));
  half_input = microaot_rounding_divide_by_pot(x >> 1, 1);
  for (i = 0; i < 5; ++i) estimate = microaot_inv_sqrt_step(estimate, half_input);
  result.multiplier = microaot_sat_rounding_doubling_high_mul(estimate, 1518500250); /* sqrt(2)/2 in Q0.31 */
  if (right_shift < 0) {
    result.multiplier = (int32_t)((uint32_t)result.multiplier << -right_shift);
    right_shift = 0;
  }
  result.shift = -right_shift;
  return result;
}

#ifdef __cplusplus
}
#endif

#endif /* MICROAOT_KERNELS_L2_NORMALIZATION_H */
