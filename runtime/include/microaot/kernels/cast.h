/* Kernels of CAST: each element converted to the output type as C++'s static_cast does in TFLM's reference
 * (values, not quantized reals), over the unary skeleton (microaot/unary.h, which also says when the output
 * may overlap the input). A CAST to the same type is a byte copy. */
#ifndef MICROAOT_KERNELS_CAST_H
#define MICROAOT_KERNELS_CAST_H

#include <stdint.h>

#include "microaot/params.h"
#include "microaot/unary.h"

#ifdef __cplusplus
extern "C" {
#endif

/* bool is one byte holding 0 or 1 and converts as that integer. */
void microaot_cast_s8_s16(const microaot_unary_params* params, const int8_t* input, int16_t* output);
void microaot_cast_s8_s32(const microaot_unary_params* params, const int8_t* input, int32_t* output);
void microaot_cast_s8_f32(const microaot_unary_params* params, const int8_t* input, float* output);
void microaot_cast_s16_s8(const microaot_unary_params* params, const int16_t* input, int8_t* output);
void microaot_cast_s16_s32(const microaot_unary_params* params, const int16_t* input, int32_t* output);
void microaot_cast_s16_f32(const microaot_unary_params* params, const int16_t* input, float* output);
void microaot_cast_s32_s8(const microaot_unary_params* params, const int32_t* input, int8_t* output);
void microaot_cast_s32_s16(const microaot_unary_params* params, const int32_t* input, int16_t* output);
void microaot_cast_s32_f32(const microaot_unary_params* params, const int32_t* input, float* output);
void microaot_cast_f32_s8(const microaot_unary_params* params, const float* input, int8_t* output);
void microaot_cast_f32_s16(const microaot_unary_params* params, const float* input, int16_t* output);
void microaot_cast_f32_s32(const microaot_unary_params* params, const float* input, int32_t* output);
void microaot_cast_bool_s8(const microaot_unary_params* params, const uint8_t* input, int8_t* output);
void microaot_cast_bool_s16(const microaot_unary_params* params, const uint8_t* input, int16_t* output);
void microaot_cast_bool_s32(const microaot_unary_params* params, const uint8_t* input, int32_t* output);
void microaot_cast_bool_f32(const microaot_unary_params* params, const uint8_t* input, float* output);

/* Any type to itself: `size` bytes copied forward, one at a time, so the output may overlap the input when
 * it starts at or before it. */
#define MICROAOT_FIELDS_copy_params(X) X(I32, size) /* bytes */
MICROAOT_DEFINE_PARAMS(copy_params)
void microaot_copy(const microaot_copy_params* params, const void* input, void* output);

/* float -> int32 truncated toward zero. Values out of range and NaN, which C leaves undefined, give INT32_MIN,
 * the result of the x86 conversion instruction TFLM's reference outputs come from; narrower integer types
 * then keep the low bits, as that conversion followed by a truncating store. */
static inline int32_t microaot_f32_to_s32(float x) {
  if (x >= -2147483648.0f && x < 2147483648.0f) return (int32_t)x;
  return INT32_MIN;
}

/* The element functions of MICROAOT_DEFINE_UNARY_KERNEL, by source kind (integer or bool, float) and target. */
#define MICROAOT_CAST_INT_TO_S8(p, x) microaot_wrap_s8((int32_t)(x))
#define MICROAOT_CAST_INT_TO_S16(p, x) microaot_wrap_s16((int32_t)(x))
#define MICROAOT_CAST_INT_TO_S32(p, x) ((int32_t)(x))
#define MICROAOT_CAST_INT_TO_F32(p, x) ((float)(x))
#define MICROAOT_CAST_F32_TO_S8(p, x) microaot_wrap_s8(microaot_f32_to_s32(x))
#define MICROAOT_CAST_F32_TO_S16(p, x) microaot_wrap_s16(microaot_f32_to_s32(x))
#define MICROAOT_CAST_F32_TO_S32(p, x) microaot_f32_to_s32(x)

#ifdef __cplusplus
}
#endif

#endif /* MICROAOT_KERNELS_CAST_H */
