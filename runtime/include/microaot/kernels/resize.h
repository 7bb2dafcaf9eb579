/* Kernels of RESIZE_NEAREST_NEIGHBOR and RESIZE_BILINEAR (NHWC images). The compiler maps every output row
 * and column to its source rows/columns (and bilinear weights) once, with TFLite Micro's arithmetic, so the
 * kernels only gather and blend. Nearest neighbour is byte-generic: one kernel for every element size. */
#ifndef MICROAOT_KERNELS_RESIZE_H
#define MICROAOT_KERNELS_RESIZE_H

#include <stdint.h>

#include "microaot/params.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The image geometry both resizes share. */
#define MICROAOT_RESIZE_GEOMETRY_FIELDS(X)                       \
  X(I32, batches)                                                \
  X(I32, input_height)                                           \
  X(I32, input_width)                                            \
  X(I32, output_height)                                          \
  X(I32, output_width)

#define MICROAOT_FIELDS_resize_nearest_neighbor_params(X)                           \
  MICROAOT_RESIZE_GEOMETRY_FIELDS(X)                                                \
  X(I32, pixel_bytes)        /* depth x element size: the bytes copied per pixel */ \
  X(I32_ARRAY, source_rows)  /* per output row: the input row it copies */          \
  X(I32_ARRAY, source_cols)  /* per output column: the input column it copies */
MICROAOT_DEFINE_PARAMS(resize_nearest_neighbor_params)

/* Output row y blends input rows rows_lo[y] and rows_hi[y] with weight row_weights[y] on rows_hi (columns
 * alike); int8 weights are in 1/1024 (TFLM's 10-bit fixed point), float weights are fractions. */
#define MICROAOT_RESIZE_BILINEAR_FIELDS(X)                                   \
  MICROAOT_RESIZE_GEOMETRY_FIELDS(X)                                         \
  X(I32, depth)                                                              \
  X(I32_ARRAY, rows_lo)                                                      \
  X(I32_ARRAY, rows_hi)                                                      \
  X(I32_ARRAY, cols_lo)                                                      \
  X(I32_ARRAY, cols_hi)

#define MICROAOT_FIELDS_resize_bilinear_params_q(X) \
  MICROAOT_RESIZE_BILINEAR_FIELDS(X)                \
  X(I32_ARRAY, row_weights)                         \
  X(I32_ARRAY, col_weights)
MICROAOT_DEFINE_PARAMS(resize_bilinear_params_q)

#define MICROAOT_FIELDS_resize_bilinear_params_f32(X) \
  MICROAOT_RESIZE_BILINEAR_FIELDS(X)                  \
  X(F32_ARRAY, row_weights)                           \
  X(F32_ARRAY, col_weights)
MICROAOT_DEFINE_PARAMS(resize_bilinear_params_f32)

void microaot_resize_nearest_neighbor(const microaot_resize_nearest_neighbor_params* params, const void* input,
                                      void* output);
void microaot_resize_bilinear_s8(const microaot_resize_bilinear_params_q* params, const int8_t* input,
                                 int8_t* output);
void microaot_resize_bilinear_f32(const microaot_resize_bilinear_params_f32* params, const float* input,
                                  float* output);

#ifdef __cplusplus
}
#endif

#endif /* MICROAOT_KERNELS_RESIZE_H */
