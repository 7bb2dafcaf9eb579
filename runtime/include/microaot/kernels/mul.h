/* Kernels of MUL: output = activation(input1 * input2), element-wise with NumPy-style broadcasting
 * (microaot/broadcast.h). The quantized kernels follow TFLite Micro's reference arithmetic bit for bit:
 * the product of the offset inputs rescaled by input1_scale * input2_scale / output_scale. */
#ifndef MICROAOT_KERNELS_MUL_H
#define MICROAOT_KERNELS_MUL_H

#include <stdint.h>

#include "microaot/broadcast.h"
#include "microaot/fixedpoint.h"
#include "microaot/params.h"

#ifdef __cplusplus
extern "C" {
#endif

/* int8 and int16 (q; int16 tensors are symmetric, so their offsets are 0). */
#define MICROAOT_FIELDS_mul_params_q(X)                                                 \
  MICROAOT_BROADCAST_FIELDS(X)                                                          \
  X(I32, input1_offset)     /* -input 1 zero point */                                   \
  X(I32, input2_offset)     /* -input 2 zero point */                                   \
  X(I32, output_multiplier) /* Q31 mantissa of input1_scale * input2_scale / output_scale */ \
  X(I32, output_shift)      /* its exponent; > 0 shifts left */                         \
  X(I32, output_offset)     /* +output zero point */                                    \
  X(I32, activation_min)    /* fused activation clamp, in output quantized units */     \
  X(I32, activation_max)
MICROAOT_DEFINE_PARAMS(mul_params_q)

void microaot_mul_s8(const microaot_mul_params_q* params, const int8_t* input1, const int8_t* input2,
                     int8_t* output);
/* int8 MUL with one operand broadcast, for a cpu with the DSP extension (kernels/dsp/mul_s8_folded.c), over
 * forms the compiler fitted and proved on all 65,536 pairs of input values (compiler/ops/mul_folded.h): forms[v +
 * 128] and forms[256 + v + 128] the slope and the offset bias for the value v of input forms[512] (0 or 1), every
 * output microaot_dsp_fold_element of them and the other input's value; bit-exact with microaot_mul_s8. */
void microaot_mul_s8_folded(const microaot_mul_params_q* params, const int8_t* input1, const int8_t* input2,
                            const int32_t* forms, int8_t* output);
void microaot_mul_s16(const microaot_mul_params_q* params, const int16_t* input1, const int16_t* input2,
                      int16_t* output);
void microaot_mul_f32(const microaot_binary_params_f32* params, const float* input1, const float* input2,
                      float* output);

/* One quantized element (int8 or int16 values widened to int32), TFLM's MulElementwise. */
static inline int32_t microaot_mul_quantized_element(const microaot_mul_params_q* p, int32_t a, int32_t b) {
  const int32_t product = (a + p->input1_offset) * (b + p->input2_offset);
  const int32_t scaled = microaot_multiply_by_quantized_multiplier(product, p->output_multiplier, p->output_shift);
  return microaot_clamp_s32(scaled + p->output_offset, p->activation_min, p->activation_max);
}

/* The element functions of MICROAOT_DEFINE_BINARY_KERNEL, one kernel per file so a model links only its own. */
#define MICROAOT_MUL_QUANTIZED(p, a, b) microaot_mul_quantized_element(p, a, b)
#define MICROAOT_MUL_FLOAT(p, a, b) microaot_clamp_f32((a) * (b), (p)->activation_min, (p)->activation_max)

#ifdef __cplusplus
}
#endif

#endif /* MICROAOT_KERNELS_MUL_H */
