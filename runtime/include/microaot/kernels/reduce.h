/* Kernels of the reductions MEAN, SUM, REDUCE_MAX, REDUCE_MIN, ARG_MAX and ARG_MIN. The compiler resolves the
 * axes and splits the input into two walks (microaot/walk.h): the kept dimensions, whose row-major order is
 * the output's, and the reduced ones, which microaot/internal/templates/reduce.h visits in row-major order for every
 * output element: the order in which TFLite Micro's reference kernels fold them (float sums depend on it). */
#ifndef MICROAOT_KERNELS_REDUCE_H
#define MICROAOT_KERNELS_REDUCE_H

#include <stdint.h>

#include "microaot/fixedpoint.h"
#include "microaot/params.h"
#include "microaot/walk.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The two walks; each has 1..MICROAOT_WALK_MAX_DIMS dimensions (a walk with nothing to visit is [1], [0]). */
#define MICROAOT_REDUCE_WALK_FIELDS(X)                                           \
  X(I32, kept_dims)                                                              \
  X(I32_ARRAY, kept_shape)      /* [kept_dims] merged kept dimensions */         \
  X(I32_ARRAY, kept_strides)    /* [kept_dims] their input element strides */    \
  X(I32, reduced_dims)                                                           \
  X(I32_ARRAY, reduced_shape)   /* [reduced_dims] merged reduced dimensions */   \
  X(I32_ARRAY, reduced_strides) /* [reduced_dims] their input element strides */

/* REDUCE_MAX, REDUCE_MIN (same quantization in and out), ARG_MAX and ARG_MIN: the walks alone. */
#define MICROAOT_FIELDS_reduce_params(X) MICROAOT_REDUCE_WALK_FIELDS(X)
MICROAOT_DEFINE_PARAMS(reduce_params)

/* SUM and MEAN on int8 / int16: the raw sum of a group, wrapping in 32 bits as TFLM's int32 accumulator does,
 * plus sum_offset, rescaled once (MEAN folds 1 / group size into the multiplier), + output zero point,
 * saturated to the type. */
#define MICROAOT_FIELDS_reduce_sum_params_q(X)                                           \
  MICROAOT_REDUCE_WALK_FIELDS(X)                                                         \
  X(I32, sum_offset)        /* -input zero point * group size, wrapped to 32 bits */     \
  X(I32, output_multiplier) /* Q31 mantissa of input_scale / output_scale (MEAN: / n) */ \
  X(I32, output_shift)      /* its exponent; > 0 shifts left */                          \
  X(I32, output_offset)     /* +output zero point */
MICROAOT_DEFINE_PARAMS(reduce_sum_params_q)

/* SUM and MEAN on float: the sum of a group divided by `divisor` (the group size for MEAN, 1 for SUM:
 * x / 1.0f is x exactly). */
#define MICROAOT_FIELDS_reduce_sum_params_f32(X) \
  MICROAOT_REDUCE_WALK_FIELDS(X)                 \
  X(F32, divisor)
MICROAOT_DEFINE_PARAMS(reduce_sum_params_f32)

void microaot_reduce_sum_s8(const microaot_reduce_sum_params_q* params, const int8_t* input, int8_t* output);
void microaot_reduce_sum_s16(const microaot_reduce_sum_params_q* params, const int16_t* input, int16_t* output);
void microaot_reduce_sum_f32(const microaot_reduce_sum_params_f32* params, const float* input, float* output);
void microaot_reduce_max_s8(const microaot_reduce_params* params, const int8_t* input, int8_t* output);
void microaot_reduce_max_f32(const microaot_reduce_params* params, const float* input, float* output);
void microaot_reduce_min_s8(const microaot_reduce_params* params, const int8_t* input, int8_t* output);
void microaot_reduce_min_f32(const microaot_reduce_params* params, const float* input, float* output);
/* The index along the reduced axis of the first largest (smallest) element. */
void microaot_arg_max_s8_s32(const microaot_reduce_params* params, const int8_t* input, int32_t* output);
void microaot_arg_max_f32_s32(const microaot_reduce_params* params, const float* input, int32_t* output);
void microaot_arg_min_s8_s32(const microaot_reduce_params* params, const int8_t* input, int32_t* output);
void microaot_arg_min_f32_s32(const microaot_reduce_params* params, const float* input, int32_t* output);

/* The output value of a quantized sum, before the cast to the element type of range [lo, hi]. */
static inline int32_t microaot_reduce_sum_output(const microaot_reduce_sum_params_q* p, int32_t sum, int32_t lo,
                                                 int32_t hi) {
  const int32_t shifted = microaot_wrapping_add_s32(sum, p->sum_offset);
  const int32_t scaled = microaot_multiply_by_quantized_multiplier(shifted, p->output_multiplier, p->output_shift);
  return microaot_clamp_s32(microaot_wrapping_add_s32(scaled, p->output_offset), lo, hi);
}

#ifdef __cplusplus
}
#endif

#endif /* MICROAOT_KERNELS_REDUCE_H */
