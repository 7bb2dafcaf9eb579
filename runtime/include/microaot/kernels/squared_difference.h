/* Kernels of SQUARED_DIFFERENCE: output = (input1 - input2)^2, element-wise with NumPy-style broadcasting
 * (microaot/broadcast.h). The quantized kernels follow TFLite Micro's reference arithmetic bit for bit: both
 * inputs on twice the larger input scale (left_shift 7 for int8, 0 for int16), the difference squared, then
 * one rescale by (2 * max input scale)^2 / (2^(2 * left_shift) * output scale), a shift that may go left. */
#ifndef MICROAOT_KERNELS_SQUARED_DIFFERENCE_H
#define MICROAOT_KERNELS_SQUARED_DIFFERENCE_H

#include <stdint.h>

#include "microaot/broadcast.h"
#include "microaot/fixedpoint.h"
#include "microaot/kernels/add.h"
#include "microaot/params.h"

#ifdef __cplusplus
extern "C" {
#endif

/* int8 and int16 take ADD's quantized params (activation_min/max: the type's range). */
void microaot_squared_difference_s8(const microaot_add_params_q* params, const int8_t* input1, const int8_t* input2,
                                    int8_t* output);
void microaot_squared_difference_s16(const microaot_add_params_q* params, const int16_t* input1,
                                     const int16_t* input2, int16_t* output);
void microaot_squared_difference_s32(const microaot_binary_params* params, const int32_t* input1,
                                     const int32_t* input2, int32_t* output);
void microaot_squared_difference_f32(const microaot_binary_params* params, const float* input1, const float* input2,
                                     float* output);

/* The difference of the rescaled inputs is at most 2^15 in magnitude, so its square fits int32. */
static inline int32_t microaot_squared_difference_quantized_element(const microaot_add_params_q* p, int32_t a,
                                                                    int32_t b) {
  const int32_t difference = MICROAOT_RESCALED_INPUT(p, 1, a) - MICROAOT_RESCALED_INPUT(p, 2, b);
  return microaot_add_output(p, difference * difference);
}

/* int32 squares wrap around where the reference's arithmetic overflows. */
static inline int32_t microaot_squared_difference_s32_element(int32_t a, int32_t b) {
  const uint32_t difference = (uint32_t)microaot_wrapping_sub_s32(a, b);
  return (int32_t)(difference * difference);
}

/* The element functions of MICROAOT_DEFINE_BINARY_KERNEL, one kernel per file so a model links only its own. */
#define MICROAOT_SQUARED_DIFFERENCE_QUANTIZED(p, a, b) microaot_squared_difference_quantized_element(p, a, b)
#define MICROAOT_SQUARED_DIFFERENCE_S32(p, a, b) microaot_squared_difference_s32_element(a, b)
#define MICROAOT_SQUARED_DIFFERENCE_FLOAT(p, a, b) (((a) - (b)) * ((a) - (b)))

#ifdef __cplusplus
}
#endif

#endif /* MICROAOT_KERNELS_SQUARED_DIFFERENCE_H */
