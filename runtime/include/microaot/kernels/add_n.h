/* Kernels of ADD_N: the element-wise sum of input_count tensors of one shape (TFLite Micro broadcasts none).
 * float32 sums from 0 in input order. int8 follows TFLM bit for bit through its fixed-point sum
 * (microaot/scaled_sum.h), started from the transform of a raw 0 rather than from 0 (TFLM's quirk: with a
 * non-zero input zero point every result is shifted by it). */
#ifndef MICROAOT_KERNELS_ADD_N_H
#define MICROAOT_KERNELS_ADD_N_H

#include <stdint.h>

#include "microaot/params.h"
#include "microaot/scaled_sum.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MICROAOT_ADD_N_FIELDS(X) \
  X(I32, size)                   \
  X(I32, input_count) /* entries of `inputs` (2 or more) */
#define MICROAOT_FIELDS_add_n_params_s8(X) MICROAOT_ADD_N_FIELDS(X) MICROAOT_SCALED_SUM_FIELDS(X)
#define MICROAOT_FIELDS_add_n_params_f32(X) MICROAOT_ADD_N_FIELDS(X)
MICROAOT_DEFINE_PARAMS(add_n_params_s8)
MICROAOT_DEFINE_PARAMS(add_n_params_f32)

/* inputs: input_count pointers to `size` elements each. */
void microaot_add_n_s8(const microaot_add_n_params_s8* params, const int8_t* const* inputs, int8_t* output);
void microaot_add_n_f32(const microaot_add_n_params_f32* params, const float* const* inputs, float* output);

#ifdef __cplusplus
}
#endif

#endif /* MICROAOT_KERNELS_ADD_N_H */
