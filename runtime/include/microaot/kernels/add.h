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

#ifdef __cplusplus
extern "C" {
#endif

#define MICROAOT_ADD_MAX_DIMS 6

/* int8 and int16: each input q becomes ((q + offset) << left_shift) * its multiplier, the sum is rescaled
 * by the output multiplier, offset and clamped. left_shift is 20 for int8, 15 for int16. */
typedef struct {
  int32_t flat_size;             /* output elements */
  int32_t num_dims;              /* 0: same shapes, plain element-wise loop over flat_size; else 1..6 */
  const int32_t* output_shape;   /* [num_dims] merged output dimensions, outermost first; NULL if 0 */
  const int32_t* input1_strides; /* [num_dims] element strides of input 1, 0 where it is broadcast */
  const int32_t* input2_strides; /* [num_dims] the same for input 2 */
  int32_t input1_offset;         /* -input 1 zero point */
  int32_t input1_multiplier;     /* Q31 mantissa of input1_scale / (2 * max input scale) */
  int32_t input1_shift;          /* its exponent, <= 0 */
  int32_t input2_offset;
  int32_t input2_multiplier;
  int32_t input2_shift;
  int32_t left_shift;
  int32_t output_multiplier; /* Q31 mantissa of 2 * max input scale / (2^left_shift * output_scale) */
  int32_t output_shift;      /* its exponent, <= 0 */
  int32_t output_offset;     /* +output zero point */
  int32_t activation_min;    /* fused activation clamp, in output quantized units */
  int32_t activation_max;
} microaot_add_params_s8;
typedef microaot_add_params_s8 microaot_add_params_s16;

typedef struct {
  int32_t flat_size;
  int32_t num_dims;
  const int32_t* output_shape;
  const int32_t* input1_strides;
  const int32_t* input2_strides;
  float activation_min; /* fused activation clamp (-FLT_MAX / FLT_MAX without one) */
  float activation_max;
} microaot_add_params_f32;

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
