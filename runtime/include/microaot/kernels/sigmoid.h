/* Kernels of LOGISTIC and TANH (tanh(x) = 2 * logistic(2x) - 1), element-wise over the unary skeleton
 * (microaot/unary.h, which also says when the output may overlap the input), for any shape. The quantized
 * kernels follow TFLite Micro's reference arithmetic bit for bit: int8 through gemmlowp's fixed-point logistic
 * and tanh on a Q4.27 input, int16 through a 256-entry table of sigmoid(i / 24) with linear interpolation. */
#ifndef MICROAOT_KERNELS_SIGMOID_H
#define MICROAOT_KERNELS_SIGMOID_H

#include <math.h>
#include <stdint.h>

#include "microaot/fixedpoint.h"
#include "microaot/fixedpoint_math.h"
#include "microaot/params.h"
#include "microaot/unary.h"

#ifdef __cplusplus
extern "C" {
#endif

/* int8: inputs beyond +-input_range_radius (after the zero point) saturate; the rest become Q4.27 through the
 * input multiplier. Outputs have TFLite's fixed quantization: LOGISTIC 1/256 with zero point -128, TANH 1/128
 * with zero point 0. */
#define MICROAOT_FIELDS_sigmoid_params_s8(X)                                             \
  MICROAOT_UNARY_FIELDS(X)                                                               \
  X(I32, input_zero_point)                                                               \
  X(I32, input_range_radius) /* the largest |x - zero point| whose Q4.27 form fits */    \
  X(I32, input_multiplier)   /* Q31 mantissa of input_scale * 2^27 */                    \
  X(I32, input_shift)        /* its exponent; > 0 shifts left */
MICROAOT_DEFINE_PARAMS(sigmoid_params_s8)

/* int16 (symmetric; output 1/32768): x * input_multiplier / 2^input_shift (rounded half up) puts the input in
 * units of 1/(3 * 4096), so that 2^17 stands for 10.67; its magnitude indexes the table in steps of 1/24
 * (LOGISTIC) or 1/48 (TANH, whose argument is doubled), interpolated linearly. */
#define MICROAOT_FIELDS_sigmoid_params_s16(X)                                                     \
  MICROAOT_UNARY_FIELDS(X)                                                                        \
  X(I32, input_multiplier) /* < 2^15 */                                                           \
  X(I32, input_shift)      /* >= 0, a right shift */                                              \
  X(I16_ARRAY, sigmoid_table) /* [256] sigmoid(i / 24) - 1/2 in Q0.16 */
MICROAOT_DEFINE_PARAMS(sigmoid_params_s16)

void microaot_logistic_f32(const microaot_unary_params* params, const float* input, float* output);
void microaot_logistic_s8(const microaot_sigmoid_params_s8* params, const int8_t* input, int8_t* output);
void microaot_logistic_s16(const microaot_sigmoid_params_s16* params, const int16_t* input, int16_t* output);
void microaot_tanh_f32(const microaot_unary_params* params, const float* input, float* output);
void microaot_tanh_s8(const microaot_sigmoid_params_s8* params, const int8_t* input, int8_t* output);
void microaot_tanh_s16(const microaot_sigmoid_params_s16* params, const int16_t* input, int16_t* output);

/* TFLM's float logistic: 1 above 16.619..., exp(x) below -9 (where 1 / (1 + exp(-x)) rounds to it). */
static inline float microaot_logistic_f32_element(float x) {
  if (x > 16.619047164916992188f) return 1.0f;
  if (x < -9.0f) return expf(x);
  return 1.0f / (1.0f + expf(-x));
}

/* x - zero point in Q4.27, or the saturated output (TFLM's range check) through *saturated. */
static inline int32_t microaot_sigmoid_input_q4(const microaot_sigmoid_params_s8* p, int32_t x, int32_t* saturated) {
  const int32_t value = x - p->input_zero_point;
  *saturated = value <= -p->input_range_radius ? -1 : (value >= p->input_range_radius ? 1 : 0);
  return *saturated ? 0 : microaot_multiply_by_quantized_multiplier(value, p->input_multiplier, (int)p->input_shift);
}

static inline int32_t microaot_logistic_s8_element(const microaot_sigmoid_params_s8* p, int32_t x) {
  int32_t saturated;
  const int32_t q4 = microaot_sigmoid_input_q4(p, x, &saturated);
  if (saturated) return saturated < 0 ? INT8_MIN : INT8_MAX;
  /* Q0.31 -> units of 1/256, minus 128 for the zero point. */
  return microaot_clamp_s32(microaot_rounding_divide_by_pot(microaot_logistic_q31(q4, 4), 23) - 128, INT8_MIN,
                            INT8_MAX);
}

static inline int32_t microaot_tanh_s8_element(const microaot_sigmoid_params_s8* p, int32_t x) {
  int32_t saturated;
  const int32_t q4 = microaot_sigmoid_input_q4(p, x, &saturated);
  if (saturated) return saturated < 0 ? INT8_MIN : INT8_MAX;
  return microaot_clamp_s32(microaot_rounding_divide_by_pot(microaot_tanh_q31(q4, 4), 24), INT8_MIN, INT8_MAX);
}

/* The int16 input in table units (1/(3 * 4096)), and its magnitude. */
static inline int32_t microaot_sigmoid_input_s16(const microaot_sigmoid_params_s16* p, int32_t x) {
  const int64_t round = p->input_shift > 0 ? (int64_t)1 << (p->input_shift - 1) : 0;
  return (int32_t)microaot_shift_right_floor((int64_t)x * p->input_multiplier + round, (int)p->input_shift);
}

/* The table interpolated at magnitude / 2^step_bits: entry i = magnitude >> step_bits and entry i + 1 weighted
 * by the low step_bits bits, in Q0.16 times 2^step_bits. From entry 255 on, the given saturation value. */
static inline uint32_t microaot_sigmoid_table_lookup(const int16_t* table, uint32_t magnitude, int step_bits,
                                                     uint32_t saturation) {
  const uint32_t index = magnitude >> step_bits;
  uint32_t below, above;
  if (index >= 255) return saturation;
  below = (uint32_t)(table[index] + 32768);
  above = (uint32_t)(table[index + 1] + 32768);
  return (below << step_bits) + (magnitude & ((1u << step_bits) - 1)) * (above - below);
}

/* LOGISTIC of an input v in table units (microaot_sigmoid_input_s16), Q0.15. */
static inline int32_t microaot_logistic_s16_of_units(const int16_t* table, int32_t v) {
  const uint32_t magnitude = (uint32_t)(v < 0 ? -v : v);
  const uint32_t s = microaot_sigmoid_table_lookup(table, magnitude, 9, 0x7FFFu << 10); /* Q0.25 */
  /* logistic(-x) = 1 - logistic(x); round to Q0.15. */
  const uint32_t result = v >= 0 ? s + (1u << 9) : (1u << 25) - s + (1u << 9) - 1;
  return (int32_t)(result >> 10);
}

/* TANH of an input v in table units, Q0.15. */
static inline int32_t microaot_tanh_s16_of_units(const int16_t* table, int32_t v) {
  const uint32_t magnitude = (uint32_t)(v < 0 ? -v : v);
  const int32_t s = (int32_t)microaot_sigmoid_table_lookup(table, magnitude, 8, 0xFFFFu << 8); /* Q0.24 */
  /* tanh = 2 * sigmoid - 1, odd; in Q0.23 rounded to Q0.15. */
  const int32_t result = v >= 0 ? s - (1 << 23) + (1 << 7) : -s + (1 << 23) + (1 << 7) - 1;
  return (int32_t)microaot_shift_right_floor(result, 8);
}

static inline int32_t microaot_logistic_s16_element(const microaot_sigmoid_params_s16* p, int32_t x) {
  return microaot_logistic_s16_of_units(p->sigmoid_table, microaot_sigmoid_input_s16(p, x));
}

static inline int32_t microaot_tanh_s16_element(const microaot_sigmoid_params_s16* p, int32_t x) {
  return microaot_tanh_s16_of_units(p->sigmoid_table, microaot_sigmoid_input_s16(p, x));
}

#define MICROAOT_LOGISTIC_F32(p, x) microaot_logistic_f32_element(x)
#define MICROAOT_LOGISTIC_S8(p, x) microaot_logistic_s8_element(p, x)
#define MICROAOT_LOGISTIC_S16(p, x) microaot_logistic_s16_element(p, x)
#define MICROAOT_TANH_F32(p, x) tanhf(x)
#define MICROAOT_TANH_S8(p, x) microaot_tanh_s8_element(p, x)
#define MICROAOT_TANH_S16(p, x) microaot_tanh_s16_element(p, x)

#ifdef __cplusplus
}
#endif

#endif /* MICROAOT_KERNELS_SIGMOID_H */
