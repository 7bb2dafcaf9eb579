/* Kernels of CUMSUM: running sums along one axis, from either end (reverse), each output including its own
 * element or not (exclusive). The input is read as [outer, depth, inner] with the axis as depth. int8 follows
 * TFLite Micro's reference bit for bit: every element becomes ((q - zero point) << left_shift) * its
 * multiplier, the running sum of those is rescaled to the output; the sum starts from the same transform of a
 * raw 0, not from 0 (TFLM's quirk: with a non-zero input zero point the result is shifted by it). */
#ifndef MICROAOT_KERNELS_CUMSUM_H
#define MICROAOT_KERNELS_CUMSUM_H

#include <stdint.h>

#include "microaot/params.h"
#include "microaot/scaled_sum.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MICROAOT_CUMSUM_SHAPE_FIELDS(X)                         \
  X(I32, outer)     /* product of the dimensions before the axis */ \
  X(I32, depth)     /* the axis */                              \
  X(I32, inner)     /* product of the dimensions after it */    \
  X(I32, exclusive) /* 1: an output sums the elements before it only */ \
  X(I32, reverse)   /* 1: sums run from the end of the axis */

#define MICROAOT_FIELDS_cumsum_params_s8(X) MICROAOT_CUMSUM_SHAPE_FIELDS(X) MICROAOT_SCALED_SUM_FIELDS(X)
MICROAOT_DEFINE_PARAMS(cumsum_params_s8)

#define MICROAOT_FIELDS_cumsum_params_f32(X) MICROAOT_CUMSUM_SHAPE_FIELDS(X)
MICROAOT_DEFINE_PARAMS(cumsum_params_f32)

void microaot_cumsum_s8(const microaot_cumsum_params_s8* params, const int8_t* input, int8_t* output);
void microaot_cumsum_f32(const microaot_cumsum_params_f32* params, const float* input, float* output);

#ifdef __cplusplus
}
#endif

#endif /* MICROAOT_KERNELS_CUMSUM_H */
