/* Element-type traits of the kernel templates (microaot/internal/templates/): a kernel file defines MICROAOT_DTYPE
 * (s8, s16, u8 or f32) and includes a template, which reads the traits of that type through the MICROAOT_T ...
 * macros at the end, so that one skeleton serves every type and each type's arithmetic is spelled once.
 * Traits that read params fields are macros because the same field names stand in different structs. */
#ifndef MICROAOT_KERNEL_DTYPE_H
#define MICROAOT_KERNEL_DTYPE_H

#include <float.h>
#include <stdint.h>

#include "microaot/fixedpoint.h"

#define MICROAOT_PASTE(a, b) a##b
/* a and b pasted after their expansion: MICROAOT_CAT(MICROAOT_ELEM_, MICROAOT_DTYPE) -> MICROAOT_ELEM_s8 */
#define MICROAOT_CAT(a, b) MICROAOT_PASTE(a, b)

/* ELEM: the C element type; ACC: the type sums and products of elements accumulate in (reductions,
 * BATCH_MATMUL); MIN, MAX: the lowest and the highest (finite) value. s64 only names accumulator and bias
 * types here; s32 is also an element type (QUANTIZE to and from int32). */
#define MICROAOT_ELEM_s8 int8_t
#define MICROAOT_ACC_s8 int32_t
#define MICROAOT_MIN_s8 INT8_MIN
#define MICROAOT_MAX_s8 INT8_MAX
#define MICROAOT_ELEM_u8 uint8_t
#define MICROAOT_MIN_u8 0
#define MICROAOT_MAX_u8 UINT8_MAX
#define MICROAOT_ELEM_s16 int16_t
#define MICROAOT_MIN_s16 INT16_MIN
#define MICROAOT_MAX_s16 INT16_MAX
#define MICROAOT_ACC_s16 int64_t /* TFLM's 16x8 and 16x16 accumulators */
#define MICROAOT_ELEM_s32 int32_t
#define MICROAOT_MIN_s32 INT32_MIN
#define MICROAOT_MAX_s32 INT32_MAX
#define MICROAOT_ELEM_s64 int64_t
#define MICROAOT_ELEM_f32 float
#define MICROAOT_ACC_f32 float
#define MICROAOT_MIN_f32 (-FLT_MAX)
#define MICROAOT_MAX_f32 FLT_MAX

/* BIAS_DTYPE: the bias type of the weighted kernels (convolutions, FULLY_CONNECTED), which is also the type
 * their products accumulate in: int8 s32, int16 s64 (TFLM's 16x8 kernels), float f32. A kernel file may
 * define MICROAOT_BIAS_DTYPE before including its template to choose another: s32 for int16 models
 * quantized with a 32-bit bias, which TFLM accumulates and requantizes in 32 bits. */
#define MICROAOT_BIAS_DTYPE_s8 s32
#define MICROAOT_BIAS_DTYPE_s16 s64
#define MICROAOT_BIAS_DTYPE_f32 f32

/* WEIGHT: the element type of the weights of those kernels (int16 activations take int8 weights). */
#define MICROAOT_WEIGHT_s8 int8_t
#define MICROAOT_WEIGHT_s16 int8_t
#define MICROAOT_WEIGHT_f32 float

/* PARAMS_SUFFIX: the params structs of the integer kernels serve every quantized type (_q). */
#define MICROAOT_PARAMS_SUFFIX_s8 q
#define MICROAOT_PARAMS_SUFFIX_s16 q
#define MICROAOT_PARAMS_SUFFIX_f32 f32

/* MAC: one product of an input element x and a weight w in a convolution. int8 offsets the input by its zero
 * point, so that skipping the taps outside the image equals padding with that zero point; int16 tensors
 * are symmetric (TFLM's int16 kernels take no offset). */
#define MICROAOT_MAC_s8(p, x, w) ((int32_t)(w) * ((int32_t)(x) + (p)->input_offset))
#define MICROAOT_MAC_s16(p, x, w) ((int32_t)(w) * (int32_t)(x))
#define MICROAOT_MAC_f32(p, x, w) ((x) * (w))

/* REQUANTIZE: an accumulator of the bias type times a channel's multiplier and shift. 32 bits: two
 * roundings; 64 bits: TFLM's 16x8 variant with a 16-bit multiplier and one rounding. */
#define MICROAOT_REQUANTIZE_s32(acc, multiplier, shift) microaot_multiply_by_quantized_multiplier(acc, multiplier, shift)
#define MICROAOT_REQUANTIZE_s64(acc, multiplier, shift) \
  microaot_multiply_by_quantized_multiplier_s64(acc, multiplier, shift)

/* CLAMP: a value clamped to the params' activation range (integers: in the quantized domain), as an element. */
#define MICROAOT_CLAMP_s8(p, value) ((int8_t)microaot_clamp_s32((value), (p)->activation_min, (p)->activation_max))
#define MICROAOT_CLAMP_s16(p, value) ((int16_t)microaot_clamp_s32((value), (p)->activation_min, (p)->activation_max))
#define MICROAOT_CLAMP_f32(p, value) microaot_clamp_f32((value), (p)->activation_min, (p)->activation_max)

/* OUTPUT: output channel c from its accumulator (bias included). Integers requantize with the channel's
 * multiplier and shift and add the output zero point before the clamp. */
#define MICROAOT_OUTPUT_INT(p, acc, c)                                                                         \
  MICROAOT_CLAMP(p, MICROAOT_REQUANTIZE(acc, (p)->output_multiplier[c], (int)(p)->output_shift[c]) +         \
                        (p)->output_offset)
#define MICROAOT_OUTPUT_s8(p, acc, c) MICROAOT_OUTPUT_INT(p, acc, c)
#define MICROAOT_OUTPUT_s16(p, acc, c) MICROAOT_OUTPUT_INT(p, acc, c)
#define MICROAOT_OUTPUT_f32(p, acc, c) MICROAOT_CLAMP_f32(p, acc)

/* The traits of MICROAOT_DTYPE, the type the including kernel file instantiates its template for. */
#ifndef MICROAOT_BIAS_DTYPE
#define MICROAOT_BIAS_DTYPE MICROAOT_CAT(MICROAOT_BIAS_DTYPE_, MICROAOT_DTYPE)
#endif
#define MICROAOT_T MICROAOT_CAT(MICROAOT_ELEM_, MICROAOT_DTYPE)
#define MICROAOT_ACC MICROAOT_CAT(MICROAOT_ACC_, MICROAOT_DTYPE)
#define MICROAOT_BIAS MICROAOT_CAT(MICROAOT_ELEM_, MICROAOT_BIAS_DTYPE)
/* Hybrid kernels (float32 activations, int8 weights) define MICROAOT_WEIGHT_DTYPE s8 beside MICROAOT_DTYPE
 * f32: the weights stay int8 in flash, each product is taken in float, and a channel's sum is scaled by its
 * weight scale before the bias (sum(x * w_q) * filter_scale[c] + bias[c], the dequantized-weights model up
 * to summation order). Their params structs are the _hybrid ones, which add the filter_scale array. */
#ifdef MICROAOT_WEIGHT_DTYPE
#define MICROAOT_W MICROAOT_CAT(MICROAOT_ELEM_, MICROAOT_WEIGHT_DTYPE)
#define MICROAOT_SCALE_SUM(p, acc, c) ((acc) * (p)->filter_scale[c])
#define MICROAOT_PARAMS_SUFFIX hybrid
#else
#define MICROAOT_W MICROAOT_CAT(MICROAOT_WEIGHT_, MICROAOT_DTYPE)
#define MICROAOT_SCALE_SUM(p, acc, c) (acc)
#define MICROAOT_PARAMS_SUFFIX MICROAOT_CAT(MICROAOT_PARAMS_SUFFIX_, MICROAOT_DTYPE)
#endif
#define MICROAOT_MIN MICROAOT_CAT(MICROAOT_MIN_, MICROAOT_DTYPE)
#define MICROAOT_MAX MICROAOT_CAT(MICROAOT_MAX_, MICROAOT_DTYPE)
#define MICROAOT_MAC(p, x, w) MICROAOT_CAT(MICROAOT_MAC_, MICROAOT_DTYPE)(p, x, w)
#define MICROAOT_REQUANTIZE(acc, multiplier, shift) \
  MICROAOT_CAT(MICROAOT_REQUANTIZE_, MICROAOT_BIAS_DTYPE)(acc, multiplier, shift)
#define MICROAOT_CLAMP(p, value) MICROAOT_CAT(MICROAOT_CLAMP_, MICROAOT_DTYPE)(p, value)
#define MICROAOT_OUTPUT(p, acc, c) MICROAOT_CAT(MICROAOT_OUTPUT_, MICROAOT_DTYPE)(p, acc, c)
/* The params struct of a kernel family: MICROAOT_PARAMS(cumsum) -> microaot_cumsum_params_s8; for a family
 * whose integer kernels share one struct, MICROAOT_PARAMS_Q(conv_2d) -> microaot_conv_2d_params_q (or _f32,
 * or _hybrid). */
#define MICROAOT_PARAMS(family) MICROAOT_CAT(MICROAOT_CAT(microaot_, family), MICROAOT_CAT(_params_, MICROAOT_DTYPE))
#define MICROAOT_PARAMS_Q(family) \
  MICROAOT_CAT(MICROAOT_CAT(microaot_, family), MICROAOT_CAT(_params_, MICROAOT_PARAMS_SUFFIX))

#endif /* MICROAOT_KERNEL_DTYPE_H */
