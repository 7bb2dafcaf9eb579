/* TRANSPOSE_CONV kernels (NHWC activations, OHWI filters whose depth is the input depth): every input pixel
 * spreads its filter-weighted channels over the output, stride apart. The kernels gather each output value
 * from the inputs that reach it, in the order TFLite Micro's reference scatters them (input rows, columns,
 * channels ascending), so integer results are bit-exact and float sums are added in the same order. */
#ifndef MICROAOT_KERNELS_TRANSPOSE_CONV_H
#define MICROAOT_KERNELS_TRANSPOSE_CONV_H

#include <stdint.h>

#include "microaot/kernels/conv.h"
#include "microaot/params.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Input pixel (y, x) reaches output (y * stride_height - pad_height + filter row, likewise for columns). */
#define MICROAOT_TRANSPOSE_CONV_FIELDS(X) \
  MICROAOT_CONV_INPUT_FIELDS(X)           \
  MICROAOT_CONV_OUTPUT_FIELDS(X)          \
  X(I32, stride_height)                   \
  X(I32, stride_width)                    \
  X(I32, pad_height) /* output rows cut before the first */ \
  X(I32, pad_width)  /* output columns cut before the first */
#define MICROAOT_FIELDS_transpose_conv_params_q(X) MICROAOT_TRANSPOSE_CONV_FIELDS(X) MICROAOT_CONV_QUANT_FIELDS(X)
#define MICROAOT_FIELDS_transpose_conv_params_f32(X) MICROAOT_TRANSPOSE_CONV_FIELDS(X) MICROAOT_CONV_FLOAT_FIELDS(X)
MICROAOT_DEFINE_PARAMS(transpose_conv_params_q)
MICROAOT_DEFINE_PARAMS(transpose_conv_params_f32)

/* bias may be NULL. No buffer may overlap the output. int16 activations take int8 weights and an int64
 * bias and sum in 64 bits (TFLM's 16x8 kernel, which has no 32-bit flavour). */
void microaot_transpose_conv_s8(const microaot_transpose_conv_params_q* params, const int8_t* input,
                                const int8_t* filter, const int32_t* bias, int8_t* output);
void microaot_transpose_conv_s16(const microaot_transpose_conv_params_q* params, const int16_t* input,
                                 const int8_t* filter, const int64_t* bias, int16_t* output);
void microaot_transpose_conv_f32(const microaot_transpose_conv_params_f32* params, const float* input,
                                 const float* filter, const float* bias, float* output);

#ifdef __cplusplus
}
#endif

#endif /* MICROAOT_KERNELS_TRANSPOSE_CONV_H */
