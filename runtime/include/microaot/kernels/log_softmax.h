/* Kernels of LOG_SOFTMAX over the last dimension: `outer_size` rows of `depth` contiguous elements,
 * x - max - log(sum(exp(x - max))). The int8 kernel follows TFLite Micro's reference arithmetic bit for bit:
 * exps of the Q5.26 differences to the row maximum summed in Q12.19, their fixed-point log subtracted, the
 * result in the fixed output quantization 16/256 with zero point 127. Each row is read whole before any of it
 * is stored, then element i is read again just before it is stored, in order, so the output may overlap the
 * input when (output - input) in bytes is at most element_wise_max_shift (compiler/ops/in_place_bounds.h). */
#ifndef MICROAOT_KERNELS_LOG_SOFTMAX_H
#define MICROAOT_KERNELS_LOG_SOFTMAX_H

#include <stdint.h>

#include "microaot/kernels/softmax.h"
#include "microaot/params.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The rows as SOFTMAX's: outer_size, depth. */
#define MICROAOT_FIELDS_log_softmax_params_f32(X) MICROAOT_SOFTMAX_ROWS_FIELDS(X)
MICROAOT_DEFINE_PARAMS(log_softmax_params_f32)

#define MICROAOT_FIELDS_log_softmax_params_s8(X)                                                       \
  MICROAOT_FIELDS_log_softmax_params_f32(X)                                                            \
  X(I32, input_multiplier)        /* Q31 mantissa of input_scale * 2^26 (capped at 2^31 - 1) */        \
  X(I32, input_shift)             /* its exponent, >= 0: differences become Q5.26 */                   \
  X(I32, reverse_multiplier)      /* Q31 mantissa of the inverse: Q5.26 back to input units */         \
  X(I32, reverse_shift)           /* its exponent, <= 0 */                                             \
  X(I32, diff_min)                /* differences below this (<= 0) contribute no exp */
MICROAOT_DEFINE_PARAMS(log_softmax_params_s8)

void microaot_log_softmax_f32(const microaot_log_softmax_params_f32* params, const float* input, float* output);
void microaot_log_softmax_s8(const microaot_log_softmax_params_s8* params, const int8_t* input, int8_t* output);

#ifdef __cplusplus
}
#endif

#endif /* MICROAOT_KERNELS_LOG_SOFTMAX_H */
