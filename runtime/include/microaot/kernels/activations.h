/* Kernels of the activation operators RELU, RELU6, LEAKY_RELU, PRELU, HARD_SWISH and ELU (LOGISTIC and TANH
 * are in sigmoid.h). Element-wise over the unary skeleton (microaot/unary.h) or, for PRELU, the broadcast walk
 * (microaot/broadcast.h); those headers say when the output may overlap an input. The quantized kernels follow
 * TFLite Micro's reference arithmetic bit for bit. */
#ifndef MICROAOT_KERNELS_ACTIVATIONS_H
#define MICROAOT_KERNELS_ACTIVATIONS_H

#include <math.h>
#include <stdint.h>

#include "microaot/broadcast.h"
#include "microaot/fixedpoint.h"
#include "microaot/params.h"
#include "microaot/unary.h"

#ifdef __cplusplus
extern "C" {
#endif

/* RELU int8/int16: the unary rescale by input_scale / output_scale, clamped below at the output zero point. */
void microaot_relu_f32(const microaot_unary_params* params, const float* input, float* output);
void microaot_relu_s8(const microaot_unary_params_q* params, const int8_t* input, int8_t* output);
void microaot_relu_s16(const microaot_unary_params_q* params, const int16_t* input, int16_t* output);

/* RELU6 int8/int16 as TFLM computes it: a clamp to [0, 6] expressed in the input's quantization, with no
 * rescale to the output's (the two are the same in models TFLite converts). */
#define MICROAOT_FIELDS_clamp_params_q(X)                           \
  MICROAOT_UNARY_FIELDS(X)                                          \
  X(I32, activation_min) /* the input's zero point */               \
  X(I32, activation_max) /* 6 quantized with the input's parameters */
MICROAOT_DEFINE_PARAMS(clamp_params_q)

void microaot_relu6_f32(const microaot_unary_params* params, const float* input, float* output);
void microaot_relu6_s8(const microaot_clamp_params_q* params, const int8_t* input, int8_t* output);
void microaot_relu6_s16(const microaot_clamp_params_q* params, const int16_t* input, int16_t* output);

/* LEAKY_RELU: x for x > 0, alpha * x otherwise. Quantized: x - input zero point rescaled by
 * input_scale / output_scale when it is >= 0, else by |input_scale * alpha / output_scale| (negated for a
 * negative alpha), plus the output zero point, clamped to the type. */
#define MICROAOT_FIELDS_leaky_relu_params_f32(X) MICROAOT_UNARY_FIELDS(X) X(F32, alpha)
MICROAOT_DEFINE_PARAMS(leaky_relu_params_f32)
#define MICROAOT_FIELDS_leaky_relu_params_q(X)                                          \
  MICROAOT_UNARY_FIELDS(X)                                                              \
  X(I32, input_offset)        /* -input zero point */                                   \
  X(I32, output_offset)       /* +output zero point */                                  \
  X(I32, identity_multiplier) /* Q31 mantissa of input_scale / output_scale */          \
  X(I32, identity_shift)                                                                \
  X(I32, alpha_multiplier)    /* Q31 mantissa of |input_scale * alpha / output_scale| */ \
  X(I32, alpha_shift)                                                                   \
  X(I32, alpha_negative)      /* 1 when alpha < 0 */                                    \
  X(I32, activation_min)      /* the output type's range */                             \
  X(I32, activation_max)
MICROAOT_DEFINE_PARAMS(leaky_relu_params_q)

void microaot_leaky_relu_f32(const microaot_leaky_relu_params_f32* params, const float* input, float* output);
void microaot_leaky_relu_s8(const microaot_leaky_relu_params_q* params, const int8_t* input, int8_t* output);
void microaot_leaky_relu_s16(const microaot_leaky_relu_params_q* params, const int16_t* input, int16_t* output);

/* PRELU: x for x >= 0, alpha * x otherwise, alpha broadcast against x. Quantized: the offset x rescaled by
 * input_scale / output_scale, or the product of the offset x and offset alpha by
 * input_scale * alpha_scale / output_scale; the int16 kernel takes an int8 alpha. */
#define MICROAOT_FIELDS_prelu_params_f32(X) MICROAOT_BROADCAST_FIELDS(X)
MICROAOT_DEFINE_PARAMS(prelu_params_f32)
#define MICROAOT_FIELDS_prelu_params_q(X)                                                  \
  MICROAOT_BROADCAST_FIELDS(X)                                                             \
  X(I32, input_offset)        /* -input zero point */                                      \
  X(I32, alpha_offset)        /* -alpha zero point */                                      \
  X(I32, output_offset)       /* +output zero point */                                     \
  X(I32, identity_multiplier) /* Q31 mantissa of input_scale / output_scale */             \
  X(I32, identity_shift)                                                                   \
  X(I32, alpha_multiplier)    /* Q31 mantissa of input_scale * alpha_scale / output_scale */ \
  X(I32, alpha_shift)                                                                      \
  X(I32, activation_min)      /* the output type's range */                                \
  X(I32, activation_max)
MICROAOT_DEFINE_PARAMS(prelu_params_q)
/* int8 with the identity side computed at compile time (--optimize speed and balanced; compiler/kernels/
 * tabulate.h): an input at or above its zero point reads its output from the table, one below takes the alpha
 * side's arithmetic. */
#define MICROAOT_FIELDS_prelu_table_params_s8(X) \
  MICROAOT_FIELDS_prelu_params_q(X)              \
  X(I8_ARRAY, table) /* [256]: the output of input -128 .. 127, for those at or above the zero point */
MICROAOT_DEFINE_PARAMS(prelu_table_params_s8)

void microaot_prelu_f32(const microaot_prelu_params_f32* params, const float* input, const float* alpha,
                        float* output);
void microaot_prelu_s8(const microaot_prelu_params_q* params, const int8_t* input, const int8_t* alpha,
                       int8_t* output);
void microaot_prelu_s8_table(const microaot_prelu_table_params_s8* params, const int8_t* input, const int8_t* alpha,
                             int8_t* output);
void microaot_prelu_s16(const microaot_prelu_params_q* params, const int16_t* input, const int8_t* alpha,
                        int16_t* output);

/* HARD_SWISH: x * relu6(x + 3) / 6. int8 in TFLM's 16-bit fixed point: the input on a scale 128 times
 * finer, rescaled once to the output and once onto [-3, 3] -> [-1, 1] (the "relu-ish" factor), multiplied. */
#define MICROAOT_FIELDS_hard_swish_params_s8(X)                                                  \
  MICROAOT_UNARY_FIELDS(X)                                                                       \
  X(I32, input_zero_point)                                                                       \
  X(I32, output_zero_point)                                                                      \
  X(I32, output_multiplier)  /* Q15 mantissa of (input_scale / 128) / output_scale */            \
  X(I32, output_shift)       /* its exponent, <= 0 */                                            \
  X(I32, reluish_multiplier) /* Q15 mantissa of (input_scale / 128) / (3 / 32768) */             \
  X(I32, reluish_shift)      /* its exponent */
MICROAOT_DEFINE_PARAMS(hard_swish_params_s8)

void microaot_hard_swish_f32(const microaot_unary_params* params, const float* input, float* output);
void microaot_hard_swish_s8(const microaot_hard_swish_params_s8* params, const int8_t* input, int8_t* output);

/* ELU float: x for x >= 0, exp(x) - 1 otherwise. int8 (and any int8 -> int8 function TFLM evaluates through a
 * table): one lookup in a 256-entry table computed at compile time, indexed by the input byte + 128. */
#define MICROAOT_FIELDS_lut_params_s8(X) \
  MICROAOT_UNARY_FIELDS(X)               \
  X(I8_ARRAY, table) /* [256] output for input -128 .. 127 */
MICROAOT_DEFINE_PARAMS(lut_params_s8)

void microaot_elu_f32(const microaot_unary_params* params, const float* input, float* output);
void microaot_lut_s8(const microaot_lut_params_s8* params, const int8_t* input, int8_t* output);

static inline int32_t microaot_leaky_relu_element(const microaot_leaky_relu_params_q* p, int32_t x) {
  const int32_t value = x + p->input_offset;
  int32_t scaled;
  if (value >= 0) {
    scaled = microaot_multiply_by_quantized_multiplier(value, p->identity_multiplier, (int)p->identity_shift);
  } else {
    scaled = microaot_multiply_by_quantized_multiplier(value, p->alpha_multiplier, (int)p->alpha_shift);
    if (p->alpha_negative) scaled = -scaled;
  }
  return microaot_clamp_s32(p->output_offset + scaled, p->activation_min, p->activation_max);
}

/* PRELU's alpha side, for value = x + input_offset < 0 and offset_alpha = alpha + alpha_offset, before the clamp. */
static inline int32_t microaot_prelu_alpha_side(int32_t value, int32_t offset_alpha, int32_t multiplier, int shift,
                                                int32_t output_offset) {
  return microaot_multiply_by_quantized_multiplier(value * offset_alpha, multiplier, shift) + output_offset;
}

static inline int32_t microaot_prelu_element(const microaot_prelu_params_q* p, int32_t x, int32_t alpha) {
  const int32_t value = x + p->input_offset;
  const int32_t scaled =
      value >= 0 ? microaot_multiply_by_quantized_multiplier(value, p->identity_multiplier, (int)p->identity_shift) +
                       p->output_offset
                 : microaot_prelu_alpha_side(value, alpha + p->alpha_offset, p->alpha_multiplier, (int)p->alpha_shift,
                                             p->output_offset);
  return microaot_clamp_s32(scaled, p->activation_min, p->activation_max);
}

/* TFLM's float reference: std::max(0, x + 3) then std::min(6, that), whose comparisons pass NaN as 0. */
static inline float microaot_hard_swish_f32_element(float x) {
  const float shifted = 0.0f < x + 3.0f ? x + 3.0f : 0.0f;
  const float relu6 = shifted < 6.0f ? shifted : 6.0f;
  return x * relu6 / 6.0f;
}

/* The element functions of the skeletons, one kernel per file so a model links only its own. */
#define MICROAOT_RELU_F32(p, x) ((x) < 0.0f ? 0.0f : (x))
#define MICROAOT_RELU6_F32(p, x) ((x) > 6.0f ? 6.0f : ((x) < 0.0f ? 0.0f : (x)))
#define MICROAOT_RELU_Q(p, x) microaot_unary_rescale(p, (int32_t)(x) + (p)->input_offset)
#define MICROAOT_CLAMP_Q(p, x) microaot_clamp_s32(x, (p)->activation_min, (p)->activation_max)
#define MICROAOT_LEAKY_RELU_F32(p, x) ((x) > 0.0f ? (x) : (x) * (p)->alpha)
#define MICROAOT_LEAKY_RELU_Q(p, x) microaot_leaky_relu_element(p, x)
#define MICROAOT_PRELU_F32(p, x, alpha) ((x) >= 0.0f ? (x) : (x) * (alpha))
#define MICROAOT_PRELU_Q(p, x, alpha) microaot_prelu_element(p, x, alpha)
#define MICROAOT_HARD_SWISH_F32(p, x) microaot_hard_swish_f32_element(x)
#define MICROAOT_ELU_F32(p, x) ((x) < 0.0f ? expm1f(x) : (x))

#ifdef __cplusplus
}
#endif

#endif /* MICROAOT_KERNELS_ACTIVATIONS_H */
