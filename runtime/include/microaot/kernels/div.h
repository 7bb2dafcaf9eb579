/* Kernels of DIV, FLOOR_DIV and FLOOR_MOD, element-wise with NumPy-style broadcasting (microaot/broadcast.h).
 * DIV int8 follows TFLite Micro's reference arithmetic bit for bit (a fixed-point reciprocal of the divisor,
 * then one rescale); DIV float and int32 clamp to the fused activation; FLOOR_DIV and FLOOR_MOD are float. */
#ifndef MICROAOT_KERNELS_DIV_H
#define MICROAOT_KERNELS_DIV_H

#include <math.h>
#include <stdint.h>

#include "microaot/broadcast.h"
#include "microaot/fixedpoint.h"
#include "microaot/fixedpoint_exp.h"
#include "microaot/kernels/mul.h"
#include "microaot/params.h"

#ifdef __cplusplus
extern "C" {
#endif

/* DIV int8 takes MUL's quantized params: output_multiplier and output_shift hold
 * input1_scale / (input2_scale * output_scale). */
void microaot_div_s8(const microaot_mul_params_q* params, const int8_t* input1, const int8_t* input2,
                     int8_t* output);
void microaot_div_s32(const microaot_binary_params_s32* params, const int32_t* input1, const int32_t* input2,
                      int32_t* output);
void microaot_div_f32(const microaot_binary_params_f32* params, const float* input1, const float* input2,
                      float* output);
void microaot_floor_div_f32(const microaot_binary_params* params, const float* input1, const float* input2,
                            float* output);
void microaot_floor_mod_f32(const microaot_binary_params* params, const float* input1, const float* input2,
                            float* output);

/* One int8 quotient (TFLM's DivElementwise): the divisor's sign moved to the dividend, the dividend normalized
 * to its sign bits and multiplied by the divisor's reciprocal in Q0.31, then one rescale by the output
 * multiplier and the shifts of both normalizations. A divisor at its zero point (a real 0) saturates to the
 * clamp bound of the dividend's sign (the output zero point for 0 / 0), where TFLM's arithmetic is undefined. */
static inline int32_t microaot_div_quantized_element(const microaot_mul_params_q* p, int32_t a, int32_t b) {
  int32_t dividend = a + p->input1_offset;
  int32_t divisor = b + p->input2_offset;
  int reciprocal_shift, headroom, exponent;
  int32_t reciprocal, quotient;
  if (divisor == 0) {
    const int32_t bound = dividend > 0 ? p->activation_max : dividend < 0 ? p->activation_min : p->output_offset;
    return microaot_clamp_s32(bound, p->activation_min, p->activation_max);
  }
  if (divisor < 0) {
    dividend = -dividend;
    divisor = -divisor;
  }
  reciprocal = microaot_reciprocal(divisor, 31, &reciprocal_shift);
  headroom = microaot_count_leading_sign_bits(dividend);
  quotient = microaot_multiply_by_quantized_multiplier(dividend, reciprocal, headroom);
  /* output_shift - reciprocal_shift - headroom <= 0: the compiler keeps output_shift <= 23 */
  exponent = reciprocal_shift + headroom - p->output_shift;
  quotient = microaot_rounding_divide_by_pot_wide(
      microaot_sat_rounding_doubling_high_mul(quotient, p->output_multiplier), exponent);
  return microaot_clamp_s32(quotient + p->output_offset, p->activation_min, p->activation_max);
}

/* int32 a / b truncated toward zero; b = 0 gives 0 (what Cortex-M's SDIV returns) and INT32_MIN / -1 wraps to
 * INT32_MIN, both undefined in C. */
static inline int32_t microaot_div_s32_element(int32_t a, int32_t b) {
  if (b == 0) return 0;
  if (b == -1) return microaot_wrapping_sub_s32(0, a);
  return a / b;
}

/* TFLM's FloorMod for float: fmod, moved into the divisor's sign. */
static inline float microaot_floor_mod_element(float a, float b) {
  const float mod = fmodf(a, b);
  return mod != 0.0f && ((b < 0.0f) != (mod < 0.0f)) ? mod + b : mod;
}

/* The element functions of MICROAOT_DEFINE_BINARY_KERNEL, one kernel per file so a model links only its own.
 * FLOOR_DIV divides in double and floors, as TFLM does. */
#define MICROAOT_DIV_QUANTIZED(p, a, b) microaot_div_quantized_element(p, a, b)
#define MICROAOT_DIV_S32(p, a, b) \
  microaot_clamp_s32(microaot_div_s32_element(a, b), (p)->activation_min, (p)->activation_max)
#define MICROAOT_DIV_FLOAT(p, a, b) microaot_clamp_f32((a) / (b), (p)->activation_min, (p)->activation_max)
#define MICROAOT_FLOOR_DIV_FLOAT(p, a, b) ((float)floor((double)(a) / (double)(b)))
#define MICROAOT_FLOOR_MOD_FLOAT(p, a, b) microaot_floor_mod_element(a, b)

#ifdef __cplusplus
}
#endif

#endif /* MICROAOT_KERNELS_DIV_H */
