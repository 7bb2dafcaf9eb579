/* Kernels of BATCH_MATMUL: output[b][i][j] = sum_k lhs[b][i][k] * rhs[b][k][j] over batch dimensions that
 * broadcast. The compiler turns adj_x / adj_y into the element strides of each operand's rows, columns and
 * depth, and the batch dimensions into a walk (microaot/walk.h) with each operand's batch strides (0 where it
 * is broadcast). int8 and int16 follow TFLite Micro's reference bit for bit: (lhs - zero point) *
 * (rhs - zero point) summed in int32 (int8) or int64 (int16), one rescale, + output zero point, saturated. */
#ifndef MICROAOT_KERNELS_BATCH_MATMUL_H
#define MICROAOT_KERNELS_BATCH_MATMUL_H

#include <stdint.h>

#include "microaot/fixedpoint.h"
#include "microaot/params.h"
#include "microaot/walk.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MICROAOT_BATCH_MATMUL_SHAPE_FIELDS(X)                                                   \
  X(I32, batch_dims)              /* 1..MICROAOT_WALK_MAX_DIMS merged output batch dimensions */ \
  X(I32_ARRAY, batch_shape)       /* [batch_dims] */                                            \
  X(I32_ARRAY, lhs_batch_strides) /* [batch_dims] element strides, 0 where lhs is broadcast */  \
  X(I32_ARRAY, rhs_batch_strides) /* [batch_dims] the same for rhs */                           \
  X(I32, rows)                    /* output rows (M) */                                         \
  X(I32, cols)                    /* output columns (N) */                                      \
  X(I32, depth)                   /* accumulation depth (K) */                                  \
  X(I32, lhs_row_stride)          /* element strides of lhs[i][k] */                            \
  X(I32, lhs_depth_stride)                                                                      \
  X(I32, rhs_depth_stride)        /* element strides of rhs[k][j] */                            \
  X(I32, rhs_col_stride)

#define MICROAOT_FIELDS_batch_matmul_params_q(X)                                            \
  MICROAOT_BATCH_MATMUL_SHAPE_FIELDS(X)                                                     \
  X(I32, lhs_offset)        /* -lhs zero point */                                           \
  X(I32, rhs_offset)        /* -rhs zero point */                                           \
  X(I32, output_multiplier) /* Q31 mantissa of float(lhs_scale * rhs_scale) / output_scale */ \
  X(I32, output_shift)      /* its exponent; > 0 shifts left */                             \
  X(I32, output_offset)     /* +output zero point */
MICROAOT_DEFINE_PARAMS(batch_matmul_params_q)

#define MICROAOT_FIELDS_batch_matmul_params_f32(X) MICROAOT_BATCH_MATMUL_SHAPE_FIELDS(X)
MICROAOT_DEFINE_PARAMS(batch_matmul_params_f32)

void microaot_batch_matmul_s8(const microaot_batch_matmul_params_q* params, const int8_t* lhs, const int8_t* rhs,
                              int8_t* output);
/* The DSP kernel (dsp/batch_matmul_s8_dot.c): the same results, both operands widened into scratch sized by
 * microaot/fit/batch_matmul.h. */
void microaot_batch_matmul_s8_dot(const microaot_batch_matmul_params_q* params, const int8_t* lhs,
                                  const int8_t* rhs, int8_t* output, void* scratch);
void microaot_batch_matmul_s16(const microaot_batch_matmul_params_q* params, const int16_t* lhs,
                               const int16_t* rhs, int16_t* output);
void microaot_batch_matmul_f32(const microaot_batch_matmul_params_f32* params, const float* lhs, const float* rhs,
                               float* output);

#ifdef __cplusplus
}
#endif

#endif /* MICROAOT_KERNELS_BATCH_MATMUL_H */
