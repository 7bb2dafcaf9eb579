/* Kernels of QUANTIZE and DEQUANTIZE: float -> integer (quantize), integer -> integer with new scale and
 * zero point (requantize) and integer -> float (dequantize). Element-wise over `size` elements; the
 * arithmetic is TFLite Micro's reference arithmetic, so integer outputs are bit-exact with it.
 * Each element is read just before its result is stored, in index order, so the output may overlap the
 * input when (output - input) in bytes is at most element_wise_max_shift (compiler/ops/in_place_bounds.h). */
#ifndef MICROAOT_KERNELS_QUANTIZE_H
#define MICROAOT_KERNELS_QUANTIZE_H

#include <stdint.h>

#include "microaot/params.h"

#ifdef __cplusplus
extern "C" {
#endif

/* float -> integer: q = clamp(round_half_away(x / output_scale) + output_offset), the division in float. */
#define MICROAOT_FIELDS_quantize_params(X)                                       \
  X(I32, size)          /* elements */                                           \
  X(F32, output_scale)  /* the output tensor's scale, exactly as stored in the model */ \
  X(I32, output_offset) /* +output zero point */
MICROAOT_DEFINE_PARAMS(quantize_params)

/* integer -> integer: q = clamp(mbqm(x + input_offset, output_multiplier, output_shift) + output_offset),
 * mbqm being microaot_multiply_by_quantized_multiplier and the multiplier input_scale / output_scale. */
#define MICROAOT_FIELDS_requantize_params(X)                         \
  X(I32, size)              /* elements */                           \
  X(I32, input_offset)      /* -input zero point */                  \
  X(I32, output_multiplier) /* Q31 mantissa of input_scale / output_scale */ \
  X(I32, output_shift)      /* its exponent; > 0 shifts left */      \
  X(I32, output_offset)     /* +output zero point */
MICROAOT_DEFINE_PARAMS(requantize_params)

/* integer -> float: y = input_scale * (float)(x + input_offset), one float multiply. */
#define MICROAOT_FIELDS_dequantize_params(X)     \
  X(I32, size)         /* elements */            \
  X(F32, input_scale)  /* the input tensor's scale */ \
  X(I32, input_offset) /* -input zero point */
MICROAOT_DEFINE_PARAMS(dequantize_params)

/* Quantizes floats. NaN maps to the zero point (as TFLM on an Arm FPU, whose conversion gives 0). */
void microaot_quantize_f32_s8(const microaot_quantize_params* params, const float* input, int8_t* output);
void microaot_quantize_f32_s16(const microaot_quantize_params* params, const float* input, int16_t* output);

/* Re-expresses quantized values in another scale / zero point (and possibly another width). */
void microaot_requantize_s8_s8(const microaot_requantize_params* params, const int8_t* input, int8_t* output);
void microaot_requantize_s8_s16(const microaot_requantize_params* params, const int8_t* input, int16_t* output);
void microaot_requantize_s8_u8(const microaot_requantize_params* params, const int8_t* input, uint8_t* output);
void microaot_requantize_u8_s8(const microaot_requantize_params* params, const uint8_t* input, int8_t* output);
void microaot_requantize_s16_s8(const microaot_requantize_params* params, const int16_t* input, int8_t* output);
void microaot_requantize_s16_s16(const microaot_requantize_params* params, const int16_t* input,
                                 int16_t* output);
/* To and from int32 (TFLM's int8/int16 -> int32 and int32 -> int8/int16); an int32 result saturates where
 * TFLM's int32 arithmetic would overflow. */
void microaot_requantize_s8_s32(const microaot_requantize_params* params, const int8_t* input, int32_t* output);
void microaot_requantize_s16_s32(const microaot_requantize_params* params, const int16_t* input,
                                 int32_t* output);
void microaot_requantize_s32_s8(const microaot_requantize_params* params, const int32_t* input, int8_t* output);
void microaot_requantize_s32_s16(const microaot_requantize_params* params, const int32_t* input,
                                 int16_t* output);

/* Converts quantized values back to float. */
void microaot_dequantize_s8_f32(const microaot_dequantize_params* params, const int8_t* input, float* output);
void microaot_dequantize_s16_f32(const microaot_dequantize_params* params, const int16_t* input, float* output);

#ifdef __cplusplus
}
#endif

#endif /* MICROAOT_KERNELS_QUANTIZE_H */
