/* Kernels of CUMSUM: running sums along one axis, from either end (reverse), each output including its own
 * element or not (exclusive). The input is read as [outer, depth, inner] with the axis as depth. int8 follows
 * TFLite Micro's reference bit for bit: every element becomes ((q - zero point) << left_shift) * its
 * multiplier, the running sum of those is rescaled to the output; the sum starts from the same transform of a
 * raw 0, not from 0 (TFLM's quirk: with a non-zero input zero point the result is shifted by it). */
#ifndef MICROAOT_KERNELS_CUMSUM_H
#define MICROAOT_KERNELS_CUMSUM_H

#include <stdint.h>

#include "microaot/fixedpoint.h"
#include "microaot/params.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MICROAOT_CUMSUM_SHAPE_FIELDS(X)                         \
  X(I32, outer)     /* product of the dimensions before the axis */ \
  X(I32, depth)     /* the axis */                              \
  X(I32, inner)     /* product of the dimensions after it */    \
  X(I32, exclusive) /* 1: an output sums the elements before it only */ \
  X(I32, reverse)   /* 1: sums run from the end of the axis */

#define MICROAOT_FIELDS_cumsum_params_s8(X)                                            \
  MICROAOT_CUMSUM_SHAPE_FIELDS(X)                                                      \
  X(I32, input_offset)      /* -input zero point */                                    \
  X(I32, left_shift)        /* headroom for the rescaled inputs (20) */                \
  X(I32, input_multiplier)  /* Q31 mantissa of 1/2 */                                  \
  X(I32, input_shift)       /* its exponent, <= 0 */                                   \
  X(I32, output_multiplier) /* Q31 mantissa of 2 / (2^left_shift * output/input scale) */ \
  X(I32, output_shift)      /* its exponent, <= 0 */                                   \
  X(I32, output_offset)     /* +output zero point */
MICROAOT_DEFINE_PARAMS(cumsum_params_s8)

#define MICROAOT_FIELDS_cumsum_params_f32(X) MICROAOT_CUMSUM_SHAPE_FIELDS(X)
MICROAOT_DEFINE_PARAMS(cumsum_params_f32)

void microaot_cumsum_s8(const microaot_cumsum_params_s8* params, const int8_t* input, int8_t* output);
void microaot_cumsum_f32(const microaot_cumsum_params_f32* params, const float* input, float* output);

/* An int8 element in the sum's fixed-point units. */
static inline int32_t microaot_cumsum_scaled_input(const microaot_cumsum_params_s8* p, int32_t q) {
  const int32_t shifted = (q + p->input_offset) * ((int32_t)1 << p->left_shift);
  return microaot_multiply_by_quantized_multiplier(shifted, p->input_multiplier, p->input_shift);
}

/* A running sum (kept in 32 bits that wrap, as TFLM's int32 accumulator) as an int8 output. */
static inline int8_t microaot_cumsum_output(const microaot_cumsum_params_s8* p, int32_t sum) {
  const int32_t scaled = microaot_multiply_by_quantized_multiplier(sum, p->output_multiplier, p->output_shift);
  return (int8_t)microaot_clamp_s32(scaled + p->output_offset, INT8_MIN, INT8_MAX);
}

#ifdef __cplusplus
}
#endif

#endif /* MICROAOT_KERNELS_CUMSUM_H */
