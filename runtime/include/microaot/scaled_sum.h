/* TFLite Micro's fixed-point sum of int8 values of one scale (ADD_N, CUMSUM): a value q becomes
 * ((q - zero point) << left_shift) times a Q31 multiplier (1/2), sums of those wrap in 32 bits as TFLM's int32
 * does, and a sum is rescaled once to the output. A params struct lists MICROAOT_SCALED_SUM_FIELDS; the macros
 * take a pointer to any such struct. */
#ifndef MICROAOT_SCALED_SUM_H
#define MICROAOT_SCALED_SUM_H

#include <stdint.h>

#include "microaot/fixedpoint.h"

#define MICROAOT_SCALED_SUM_FIELDS(X)                                                      \
  X(I32, input_offset)      /* -input zero point */                                        \
  X(I32, left_shift)        /* headroom for the rescaled inputs (20) */                    \
  X(I32, input_multiplier)  /* Q31 mantissa of 1/2 */                                      \
  X(I32, input_shift)       /* its exponent, <= 0 */                                       \
  X(I32, output_multiplier) /* Q31 mantissa of 2 / (2^left_shift * output/input scale) */ \
  X(I32, output_shift)      /* its exponent, <= 0 */                                       \
  X(I32, output_offset)     /* +output zero point */

static inline int32_t microaot_scaled_sum_term(int32_t offset_value, int32_t left_shift, int32_t multiplier,
                                               int32_t shift) {
  return microaot_multiply_by_quantized_multiplier(offset_value * ((int32_t)1 << left_shift), multiplier, shift);
}

static inline int8_t microaot_scaled_sum_output(int32_t sum, int32_t multiplier, int32_t shift, int32_t offset) {
  const int32_t scaled = microaot_multiply_by_quantized_multiplier(sum, multiplier, shift);
  return (int8_t)microaot_clamp_s32(scaled + offset, INT8_MIN, INT8_MAX);
}

/* An int8 element q in the sum's units. */
#define MICROAOT_SCALED_SUM_TERM(p, q) \
  microaot_scaled_sum_term((int32_t)(q) + (p)->input_offset, (p)->left_shift, (p)->input_multiplier, (p)->input_shift)
/* A sum as an int8 output. */
#define MICROAOT_SCALED_SUM_OUTPUT(p, sum) \
  microaot_scaled_sum_output(sum, (p)->output_multiplier, (p)->output_shift, (p)->output_offset)

#endif /* MICROAOT_SCALED_SUM_H */
