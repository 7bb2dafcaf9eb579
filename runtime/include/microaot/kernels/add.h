/* Kernels of ADD and SUB: output = activation(input1 + input2) or activation(input1 - input2), element-wise
 * with NumPy-style broadcasting (microaot/broadcast.h, which also says when the output may overlap an input).
 * The quantized kernels follow TFLite Micro's reference arithmetic bit for bit; int32 wraps around where the
 * reference's arithmetic overflows. */
#ifndef MICROAOT_KERNELS_ADD_H
#define MICROAOT_KERNELS_ADD_H

#include <stdint.h>

#include "microaot/fixedpoint.h"
#include "microaot/broadcast.h"
#include "microaot/params.h"

#ifdef __cplusplus
extern "C" {
#endif

/* int8 and int16 (q): each input q becomes ((q + offset) << left_shift) * its multiplier (a common scale), the
 * sum or difference is rescaled by the output multiplier, offset and clamped. ADD and SUB: left_shift 20 for
 * int8, 15 for int16; SQUARED_DIFFERENCE (microaot/kernels/squared_difference.h) shares the struct. */
#define MICROAOT_FIELDS_add_params_q(X)                                                           \
  MICROAOT_BROADCAST_FIELDS(X)                                                                     \
  X(I32, input1_offset)     /* -input 1 zero point */                                              \
  X(I32, input1_multiplier) /* Q31 mantissa of input1_scale / (2 * max input scale) */             \
  X(I32, input1_shift)      /* its exponent, <= 0 */                                               \
  X(I32, input2_offset)                                                                            \
  X(I32, input2_multiplier)                                                                        \
  X(I32, input2_shift)                                                                             \
  X(I32, left_shift)                                                                               \
  X(I32, output_multiplier) /* Q31 mantissa of 2 * max input scale / (2^left_shift * output_scale) */ \
  X(I32, output_shift)      /* its exponent (ADD, SUB: <= 0) */                                    \
  X(I32, output_offset)     /* +output zero point */                                               \
  X(I32, activation_min)    /* fused activation clamp, in output quantized units */                \
  X(I32, activation_max)
MICROAOT_DEFINE_PARAMS(add_params_q)

void microaot_add_s8(const microaot_add_params_q* params, const int8_t* input1, const int8_t* input2,
                     int8_t* output);
/* int8 ADD or SUB over one linear form the compiler fitted and checked on all 65,536 pairs of input values
 * (compiler/ops/add_linear.h): output = clamp(floor((bias + floor(m1 * q1 / 2^8) + floor(m2 * q2 / 2^8)) / 2^16),
 * activation_min, activation_max), form = {m1, m2, bias}, every partial sum within int32; bit-exact with
 * microaot_add_s8 (microaot_sub_s8) on the same params, whose rescaling fields it does not read. */
#define MICROAOT_ADD_LINEAR_SHIFT 16
void microaot_add_s8_linear(const microaot_add_params_q* params, const int8_t* input1, const int8_t* input2,
                            const int32_t* form, int8_t* output);
/* The same with one operand broadcast along the rows (a scalar, a row constant) or the channels (a per-channel
 * vector), for a cpu with the DSP extension (kernels/dsp/add_s8_folded.c): its term folded into the bias. */
void microaot_add_s8_folded(const microaot_add_params_q* params, const int8_t* input1, const int8_t* input2,
                            const int32_t* form, int8_t* output);

/* One term of the form: floor(m * q / 2^8), what SMLAWB gives for q * 2^8 in a 16-bit lane. */
static inline int32_t microaot_add_linear_term(int32_t m, int32_t q) { return (int32_t)(((int64_t)m * q) >> 8); }

/* The form's output for one pair of input values (partial sums proven within int32; added wrapping anyway). */
static inline int32_t microaot_add_linear_output(const int32_t* form, int32_t q1, int32_t q2, int32_t lo, int32_t hi) {
  const uint32_t sum = (uint32_t)form[2] + (uint32_t)microaot_add_linear_term(form[0], q1) +
                       (uint32_t)microaot_add_linear_term(form[1], q2);
  return microaot_clamp_s32((int32_t)sum >> MICROAOT_ADD_LINEAR_SHIFT, lo, hi);
}
void microaot_add_s16(const microaot_add_params_q* params, const int16_t* input1, const int16_t* input2,
                      int16_t* output);
void microaot_add_s32(const microaot_binary_params_s32* params, const int32_t* input1, const int32_t* input2,
                      int32_t* output);
void microaot_add_f32(const microaot_binary_params_f32* params, const float* input1, const float* input2,
                      float* output);
void microaot_sub_s8(const microaot_add_params_q* params, const int8_t* input1, const int8_t* input2,
                     int8_t* output);
void microaot_sub_s16(const microaot_add_params_q* params, const int16_t* input1, const int16_t* input2,
                      int16_t* output);
void microaot_sub_s32(const microaot_binary_params_s32* params, const int32_t* input1, const int32_t* input2,
                      int32_t* output);
void microaot_sub_f32(const microaot_binary_params_f32* params, const float* input1, const float* input2,
                      float* output);

/* A sum or difference on the common scale, rescaled to the output, offset and clamped. */
static inline int32_t microaot_add_output(const microaot_add_params_q* p, int32_t raw) {
  const int32_t scaled = microaot_multiply_by_quantized_multiplier(raw, p->output_multiplier, p->output_shift);
  return microaot_clamp_s32(scaled + p->output_offset, p->activation_min, p->activation_max);
}

/* The element functions of MICROAOT_DEFINE_BINARY_KERNEL, one kernel per file so a model links only its own.
 * Quantized: int8 or int16 values widened to int32, TFLM's AddFunc and its SUB counterpart. */
#define MICROAOT_ADD_QUANTIZED(p, a, b) \
  microaot_add_output(p, MICROAOT_RESCALED_INPUT(p, 1, a) + MICROAOT_RESCALED_INPUT(p, 2, b))
#define MICROAOT_SUB_QUANTIZED(p, a, b) \
  microaot_add_output(p, MICROAOT_RESCALED_INPUT(p, 1, a) - MICROAOT_RESCALED_INPUT(p, 2, b))
#define MICROAOT_ADD_S32(p, a, b) \
  microaot_clamp_s32(microaot_wrapping_add_s32(a, b), (p)->activation_min, (p)->activation_max)
#define MICROAOT_SUB_S32(p, a, b) \
  microaot_clamp_s32(microaot_wrapping_sub_s32(a, b), (p)->activation_min, (p)->activation_max)
#define MICROAOT_ADD_FLOAT(p, a, b) microaot_clamp_f32((a) + (b), (p)->activation_min, (p)->activation_max)
#define MICROAOT_SUB_FLOAT(p, a, b) microaot_clamp_f32((a) - (b), (p)->activation_min, (p)->activation_max)

#ifdef __cplusplus
}
#endif

#endif /* MICROAOT_KERNELS_ADD_H */
