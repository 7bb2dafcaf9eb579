/* Kernels of the element-wise math operators: ABS, NEG, SQRT, RSQRT, SQUARE, EXP, LOG, SIN, COS, FLOOR, CEIL,
 * ROUND and LOGICAL_NOT, over the unary skeleton (microaot/unary.h, which also says when the output may overlap
 * the input). Float kernels call the C library as TFLM's reference does; the quantized ABS and RSQRT follow its
 * integer arithmetic bit for bit. */
#ifndef MICROAOT_KERNELS_MATH_H
#define MICROAOT_KERNELS_MATH_H

#include <math.h>
#include <stdint.h>

#include "microaot/fixedpoint.h"
#include "microaot/fixedpoint_math.h"
#include "microaot/unary.h"

#ifdef __cplusplus
extern "C" {
#endif

void microaot_abs_f32(const microaot_unary_params* params, const float* input, float* output);
void microaot_neg_f32(const microaot_unary_params* params, const float* input, float* output);
void microaot_sqrt_f32(const microaot_unary_params* params, const float* input, float* output);
void microaot_rsqrt_f32(const microaot_unary_params* params, const float* input, float* output);
void microaot_square_f32(const microaot_unary_params* params, const float* input, float* output);
void microaot_exp_f32(const microaot_unary_params* params, const float* input, float* output);
void microaot_log_f32(const microaot_unary_params* params, const float* input, float* output);
void microaot_sin_f32(const microaot_unary_params* params, const float* input, float* output);
void microaot_cos_f32(const microaot_unary_params* params, const float* input, float* output);
void microaot_floor_f32(const microaot_unary_params* params, const float* input, float* output);
void microaot_ceil_f32(const microaot_unary_params* params, const float* input, float* output);
void microaot_round_f32(const microaot_unary_params* params, const float* input, float* output);
/* bool is one byte, 0 or not 0. */
void microaot_logical_not_bool(const microaot_unary_params* params, const uint8_t* input, uint8_t* output);

/* |x - input zero point| rescaled by input_scale / output_scale. */
void microaot_abs_s8(const microaot_unary_params_q* params, const int8_t* input, int8_t* output);
void microaot_abs_s16(const microaot_unary_params_q* params, const int16_t* input, int16_t* output);
/* 1/sqrt(x - input zero point) by a fixed-point Newton iteration, rescaled by 1 / (sqrt(input_scale) *
 * output_scale); 0 gives the type maximum. TFLM stops with an error on a value below the zero point; the
 * kernels treat it as the smallest positive value. */
void microaot_rsqrt_s8(const microaot_unary_params_q* params, const int8_t* input, int8_t* output);
void microaot_rsqrt_s16(const microaot_unary_params_q* params, const int16_t* input, int16_t* output);

/* Round half to even, as TFLM's RoundToNearest (floor, then up when the rest is above 1/2 or is 1/2 and the
 * floor odd). */
static inline float microaot_round_half_even(float x) {
  const float below = floorf(x);
  const float rest = x - below;
  if (rest < 0.5f || (rest == 0.5f && fmodf(below, 2.0f) == 0.0f)) return below;
  return below + 1.0f;
}

static inline int32_t microaot_abs_element(const microaot_unary_params_q* p, int32_t x) {
  const int32_t value = x + p->input_offset;
  return microaot_unary_rescale(p, value < 0 ? -value : value);
}

static inline int32_t microaot_rsqrt_element(const microaot_unary_params_q* p, int32_t x) {
  const int32_t value = x + p->input_offset;
  enum { kRsqrtFractionBits = 20 };
  int32_t multiplier, inv_sqrt, scaled;
  int shift;
  if (value == 0) return p->activation_max;
  microaot_inv_sqrt_multiplier(value, &multiplier, &shift);
  /* 1/sqrt(value) in units of 2^-20, then rescaled to the output by the multiplier over 2^20 (TFLM's two
   * roundings). */
  inv_sqrt = microaot_multiply_by_quantized_multiplier(1, multiplier, shift + kRsqrtFractionBits);
  scaled = microaot_multiply_by_quantized_multiplier(inv_sqrt, p->output_multiplier,
                                                     (int)p->output_shift - kRsqrtFractionBits);
  return microaot_clamp_s32(scaled + p->output_offset, p->activation_min, p->activation_max);
}

/* The element functions of MICROAOT_DEFINE_UNARY_KERNEL, one kernel per file so a model links only its own. */
#define MICROAOT_ABS_F32(p, x) fabsf(x)
#define MICROAOT_NEG_F32(p, x) (-(x))
#define MICROAOT_SQRT_F32(p, x) sqrtf(x)
#define MICROAOT_RSQRT_F32(p, x) (1.0f / sqrtf(x))
#define MICROAOT_SQUARE_F32(p, x) ((x) * (x))
#define MICROAOT_EXP_F32(p, x) expf(x)
#define MICROAOT_LOG_F32(p, x) logf(x)
#define MICROAOT_SIN_F32(p, x) sinf(x)
#define MICROAOT_COS_F32(p, x) cosf(x)
#define MICROAOT_FLOOR_F32(p, x) floorf(x)
#define MICROAOT_CEIL_F32(p, x) ceilf(x)
#define MICROAOT_ROUND_F32(p, x) microaot_round_half_even(x)
#define MICROAOT_LOGICAL_NOT(p, x) ((x) == 0)
#define MICROAOT_ABS_Q(p, x) microaot_abs_element(p, x)
#define MICROAOT_RSQRT_Q(p, x) microaot_rsqrt_element(p, x)

#ifdef __cplusplus
}
#endif

#endif /* MICROAOT_KERNELS_MATH_H */
