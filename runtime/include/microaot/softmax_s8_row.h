/* The per-row arithmetic of the int8-input softmax kernels (int8 or int16 output), TFLM's reference:
 * the row maximum; the sum of the Q0.31 exps of the differences, each rescaled to Q12.19; the reciprocal
 * of the sum as 2^-n * r; then each output is exp * r / 2^(n + 31 - output_bits) rounded, plus the output
 * type's minimum, clamped. Differences below diff_min give the type's minimum. */
#ifndef MICROAOT_SOFTMAX_S8_ROW_H
#define MICROAOT_SOFTMAX_S8_ROW_H

#include <stdint.h>

#include "microaot/fixedpoint.h"
#include "microaot/fixedpoint_exp.h"
#include "microaot/kernels/softmax.h"

typedef struct {
  int32_t max;
  int32_t reciprocal;
  int exponent;
} microaot_softmax_row_scale;

static inline microaot_softmax_row_scale microaot_softmax_s8_row_scale(const microaot_softmax_params_s8* params,
                                                                       const int8_t* in, int output_bits) {
  microaot_softmax_row_scale scale;
  uint32_t sum = 0; /* Q12.19; unsigned so that an (invalid) overflow wraps instead of being UB */
  int num_bits_over_unit;
  int32_t c;
  scale.max = -128;
  for (c = 0; c < params->depth; ++c) scale.max = in[c] > scale.max ? in[c] : scale.max;
  for (c = 0; c < params->depth; ++c) {
    const int32_t diff = (int32_t)in[c] - scale.max;
    if (diff >= params->diff_min) {
      const int32_t e = microaot_softmax_exp_of_diff(diff, params->input_multiplier, (int)params->input_left_shift);
      sum += (uint32_t)microaot_rounding_divide_by_pot(e, 12);
    }
  }
  scale.reciprocal = microaot_reciprocal((int32_t)sum, 12, &num_bits_over_unit);
  /* TFLM requires 0 <= exponent <= 31 (it aborts otherwise); clamping keeps the kernel defined. */
  scale.exponent = num_bits_over_unit + 31 - output_bits;
  scale.exponent = scale.exponent < 0 ? 0 : (scale.exponent > 31 ? 31 : scale.exponent);
  return scale;
}

/* One output value in [out_min, out_max]; out_min is also the offset added (the type's minimum). */
static inline int32_t microaot_softmax_s8_value(const microaot_softmax_params_s8* params,
                                                const microaot_softmax_row_scale* scale, int8_t x,
                                                int32_t out_min, int32_t out_max) {
  const int32_t diff = (int32_t)x - scale->max;
  int32_t value;
  if (diff < params->diff_min) return out_min;
  value = microaot_softmax_exp_of_diff(diff, params->input_multiplier, (int)params->input_left_shift);
  value = microaot_rounding_divide_by_pot(microaot_sat_rounding_doubling_high_mul(scale->reciprocal, value),
                                          scale->exponent);
  return microaot_clamp_s32(value + out_min, out_min, out_max);
}

#endif /* MICROAOT_SOFTMAX_S8_ROW_H */
