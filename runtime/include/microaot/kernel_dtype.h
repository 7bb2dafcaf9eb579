/* Element-type traits of the kernel templates (microaot/templates/): a kernel file defines MICROAOT_DTYPE
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

/* ELEM: the C element type; ACC: the type sums and products accumulate in; MIN, MAX: the lowest and the
 * highest (finite) value. */
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
#define MICROAOT_ELEM_f32 float
#define MICROAOT_ACC_f32 float
#define MICROAOT_MIN_f32 (-FLT_MAX)
#define MICROAOT_MAX_f32 FLT_MAX

/* CLAMP: a value clamped to the params' activation range (int8: in the quantized domain), as an element. */
#define MICROAOT_CLAMP_s8(p, value) ((int8_t)microaot_clamp_s32((value), (p)->activation_min, (p)->activation_max))
#define MICROAOT_CLAMP_f32(p, value) microaot_clamp_f32((value), (p)->activation_min, (p)->activation_max)

/* OUTPUT: output channel c from its accumulator (bias included). int8 requantizes with the channel's
 * multiplier and shift and adds the output zero point before the clamp. */
#define MICROAOT_OUTPUT_s8(p, acc, c)                                                                          \
  MICROAOT_CLAMP_s8(p, microaot_multiply_by_quantized_multiplier((acc), (p)->output_multiplier[c],             \
                                                                 (int)(p)->output_shift[c]) + (p)->output_offset)
#define MICROAOT_OUTPUT_f32(p, acc, c) MICROAOT_CLAMP_f32(p, acc)

/* The traits of MICROAOT_DTYPE, the type the including kernel file instantiates its template for. */
#define MICROAOT_T MICROAOT_CAT(MICROAOT_ELEM_, MICROAOT_DTYPE)
#define MICROAOT_ACC MICROAOT_CAT(MICROAOT_ACC_, MICROAOT_DTYPE)
#define MICROAOT_MIN MICROAOT_CAT(MICROAOT_MIN_, MICROAOT_DTYPE)
#define MICROAOT_MAX MICROAOT_CAT(MICROAOT_MAX_, MICROAOT_DTYPE)
#define MICROAOT_CLAMP(p, value) MICROAOT_CAT(MICROAOT_CLAMP_, MICROAOT_DTYPE)(p, value)
#define MICROAOT_OUTPUT(p, acc, c) MICROAOT_CAT(MICROAOT_OUTPUT_, MICROAOT_DTYPE)(p, acc, c)
/* The params struct of a kernel family: MICROAOT_PARAMS(conv_2d) -> microaot_conv_2d_params_s8 */
#define MICROAOT_PARAMS(family) MICROAOT_CAT(MICROAOT_CAT(microaot_, family), MICROAOT_CAT(_params_, MICROAOT_DTYPE))

#endif /* MICROAOT_KERNEL_DTYPE_H */
