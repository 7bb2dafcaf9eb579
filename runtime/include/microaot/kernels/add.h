/* Kernels of ADD: output = activation(input1 + input2), element-wise with NumPy-style broadcasting.
 * The compiler merges the broadcast into at most MICROAOT_ADD_MAX_DIMS output dimensions with per-input
 * element strides (0 along a broadcast dimension). The quantized kernels follow TFLite Micro's reference
 * arithmetic bit for bit. Element i of an input that is not broadcast is read just before output element i
 * is stored, in order, so the output may overlap such an input when output <= input (element_wise_max_shift
 * in compiler/ops/in_place_bounds.h); it must not overlap a broadcast input. */
#ifndef MICROAOT_KERNELS_ADD_H
#define MICROAOT_KERNELS_ADD_H

#include <stdint.h>

#include "microaot/fixedpoint.h"
#include "microaot/params.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MICROAOT_ADD_MAX_DIMS 6

/* The broadcast walk of an element-wise binary kernel: flat_size output elements; num_dims 0 when both
 * inputs have the output's shape (a plain loop), else 1..6 merged output dimensions (outermost first) with
 * each input's element strides, 0 along a dimension where that input is broadcast. */
#define MICROAOT_BROADCAST_FIELDS(X)                                            \
  X(I32, flat_size)            /* output elements */                            \
  X(I32, num_dims)             /* 0: same shapes, plain loop; else 1..6 */      \
  X(I32_ARRAY, output_shape)   /* [num_dims] merged output dimensions */        \
  X(I32_ARRAY, input1_strides) /* [num_dims] element strides of input 1 */      \
  X(I32_ARRAY, input2_strides) /* [num_dims] the same for input 2 */

/* int8 and int16: each input q becomes ((q + offset) << left_shift) * its multiplier, the sum is rescaled
 * by the output multiplier, offset and clamped. left_shift is 20 for int8, 15 for int16. */
#define MICROAOT_FIELDS_add_params_s8(X)                                                           \
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
MICROAOT_DEFINE_PARAMS(add_params_s8)
typedef microaot_add_params_s8 microaot_add_params_s16;

#define MICROAOT_FIELDS_add_params_f32(X)                                        \
  MICROAOT_BROADCAST_FIELDS(X)                                                   \
  X(F32, activation_min) /* fused activation clamp (-FLT_MAX / FLT_MAX without one) */ \
  X(F32, activation_max)
MICROAOT_DEFINE_PARAMS(add_params_f32)

void microaot_add_s8(const microaot_add_params_s8* params, const int8_t* input1, const int8_t* input2,
                     int8_t* output);
void microaot_add_s16(const microaot_add_params_s16* params, const int16_t* input1, const int16_t* input2,
                      int16_t* output);
void microaot_add_f32(const microaot_add_params_f32* params, const float* input1, const float* input2,
                      float* output);

/* One quantized element (int8 or int16 values widened to int32), TFLM's AddFunc. */
static inline int32_t microaot_add_quantized_element(const microaot_add_params_s8* p, int32_t a, int32_t b) {
  const int32_t shifted1 = (a + p->input1_offset) * ((int32_t)1 << p->left_shift);
  const int32_t shifted2 = (b + p->input2_offset) * ((int32_t)1 << p->left_shift);
  const int32_t scaled1 = microaot_multiply_by_quantized_multiplier(shifted1, p->input1_multiplier, p->input1_shift);
  const int32_t scaled2 = microaot_multiply_by_quantized_multiplier(shifted2, p->input2_multiplier, p->input2_shift);
  const int32_t sum = microaot_multiply_by_quantized_multiplier(scaled1 + scaled2, p->output_multiplier,
                                                                p->output_shift);
  return microaot_clamp_s32(sum + p->output_offset, p->activation_min, p->activation_max);
}

/* Position in the broadcast walk: indices of the outer dimensions and the matching input offsets.
 * The kernels visit the output in order, one innermost row at a time. */
typedef struct {
  int32_t index[MICROAOT_ADD_MAX_DIMS];
  int32_t offset1;
  int32_t offset2;
} microaot_add_cursor;

/* Moves the cursor to the next innermost row (an odometer over dimensions 0 .. num_dims - 2). */
static inline void microaot_add_cursor_next_row(microaot_add_cursor* cursor, int32_t num_dims, const int32_t* shape,
                                                const int32_t* strides1, const int32_t* strides2) {
  int32_t d;
  for (d = num_dims - 2; d >= 0; --d) {
    cursor->offset1 += strides1[d];
    cursor->offset2 += strides2[d];
    if (++cursor->index[d] < shape[d]) return;
    cursor->offset1 -= strides1[d] * shape[d];
    cursor->offset2 -= strides2[d] * shape[d];
    cursor->index[d] = 0;
  }
}

#ifdef __cplusplus
}
#endif

#endif /* MICROAOT_KERNELS_ADD_H */
