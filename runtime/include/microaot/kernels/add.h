/* Kernels of ADD: output = activation(input1 + input2), element-wise with NumPy-style broadcasting
 * (microaot/broadcast.h, which also says when the output may overlap an input). The quantized kernels
 * follow TFLite Micro's reference arithmetic bit for bit. */
#ifndef MICROAOT_KERNELS_ADD_H
#define MICROAOT_KERNELS_ADD_H

#include <stdint.h>

#include "microaot/fixedpoint.h"
#include "microaot/broadcast.h"
#include "microaot/params.h"

#ifdef __cplusplus
extern "C" {
#endif

/* int8 and int16 (q): each input q becomes ((q + offset) << left_shift) * its multiplier, the sum is rescaled
 * by the output multiplier, offset and clamped. left_shift is 20 for int8, 15 for int16. */
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
  X(I32, output_shift)      /* its exponent, <= 0 */                                               \
  X(I32, output_offset)     /* +output zero point */                                               \
  X(I32, activation_min)    /* fused activation clamp, in output quantized units */                \
  X(I32, activation_max)
MICROAOT_DEFINE_PARAMS(add_params_q)

void microaot_add_s8(const microaot_add_params_q* params, const int8_t* input1, const int8_t* input2,
                     int8_t* output);
void microaot_add_s16(const microaot_add_params_q* params, const int16_t* input1, const int16_t* input2,
                      int16_t* output);
void microaot_add_f32(const microaot_binary_params_f32* params, const float* input1, const float* input2,
                      float* output);

/* One quantized element (int8 or int16 values widened to int32), TFLM's AddFunc. */
static inline int32_t microaot_add_quantized_element(const microaot_add_params_q* p, int32_t a, int32_t b) {
  const int32_t shifted1 = (a + p->input1_offset) * ((int32_t)1 << p->left_shift);
  const int32_t shifted2 = (b + p->input2_offset) * ((int32_t)1 << p->left_shift);
  const int32_t scaled1 = microaot_multiply_by_quantized_multiplier(shifted1, p->input1_multiplier, p->input1_shift);
  const int32_t scaled2 = microaot_multiply_by_quantized_multiplier(shifted2, p->input2_multiplier, p->input2_shift);
  const int32_t sum = microaot_multiply_by_quantized_multiplier(scaled1 + scaled2, p->output_multiplier,
                                                                p->output_shift);
  return microaot_clamp_s32(sum + p->output_offset, p->activation_min, p->activation_max);
}

/* The element functions of MICROAOT_DEFINE_BINARY_KERNEL, one kernel per file so a model links only its own. */
#define MICROAOT_ADD_QUANTIZED(p, a, b) microaot_add_quantized_element(p, a, b)
#define MICROAOT_ADD_FLOAT(p, a, b) microaot_clamp_f32((a) + (b), (p)->activation_min, (p)->activation_max)

#ifdef __cplusplus
}
#endif

#endif /* MICROAOT_KERNELS_ADD_H */
