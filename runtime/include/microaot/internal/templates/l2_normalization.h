/* The L2_NORMALIZATION template for one element type: the including file defines MICROAOT_DTYPE (s8, f32) and
 * MICROAOT_FN (declared in microaot/kernels/l2_normalization.h). Per row: the sum of squares in order, the
 * type's norm from it, then each element scaled by that norm. */
#include <math.h>
#include <stddef.h>

#include "microaot/internal/kernel_dtype.h"
#include "microaot/kernels/l2_normalization.h"

/* int8: squares of the offset inputs summed in 32 bits that wrap (as TFLM's int32 accumulator), the norm as a
 * fixed-point 1/sqrt, outputs in units of 1/128 (the multiplier's shift + 7). */
#define MICROAOT_L2_SUM_s8 int32_t
#define MICROAOT_L2_ADD_SQUARE_s8(p, sum, x) microaot_wrapping_add_s32(sum, microaot_l2_square_s8(p, x))
#define MICROAOT_L2_NORM_s8 microaot_inv_sqrt
#define MICROAOT_L2_NORM_OF_s8(sum) microaot_inv_sqrt_of(sum)
#define MICROAOT_L2_SCALE_s8(p, x, norm)                                                                      \
  ((int8_t)microaot_clamp_s32(microaot_multiply_by_quantized_multiplier((int32_t)(x) + (p)->input_offset,   \
                                                                        (norm).multiplier, (norm).shift + 7), \
                              INT8_MIN, INT8_MAX))
/* float: the norm is at least 1e-6 (TFLM's epsilon). */
#define MICROAOT_L2_SUM_f32 float
#define MICROAOT_L2_ADD_SQUARE_f32(p, sum, x) ((sum) + (x) * (x))
#define MICROAOT_L2_NORM_f32 float
#define MICROAOT_L2_NORM_OF_f32(sum) microaot_l2_norm_f32(sum)
#define MICROAOT_L2_SCALE_f32(p, x, norm) ((x) / (norm))

#define MICROAOT_L2_SUM MICROAOT_CAT(MICROAOT_L2_SUM_, MICROAOT_DTYPE)
#define MICROAOT_L2_ADD_SQUARE(p, sum, x) MICROAOT_CAT(MICROAOT_L2_ADD_SQUARE_, MICROAOT_DTYPE)(p, sum, x)
#define MICROAOT_L2_NORM MICROAOT_CAT(MICROAOT_L2_NORM_, MICROAOT_DTYPE)
#define MICROAOT_L2_NORM_OF(sum) MICROAOT_CAT(MICROAOT_L2_NORM_OF_, MICROAOT_DTYPE)(sum)
#define MICROAOT_L2_SCALE(p, x, norm) MICROAOT_CAT(MICROAOT_L2_SCALE_, MICROAOT_DTYPE)(p, x, norm)

static inline int32_t microaot_l2_square_s8(const microaot_l2_normalization_params_s8* p, int8_t x) {
  const int32_t diff = (int32_t)x + p->input_offset;
  return diff * diff;
}

/* std::max(norm, epsilon) as TFLM writes it: a NaN norm stays NaN. */
static inline float microaot_l2_norm_f32(float sum) {
  const float norm = sqrtf(sum);
  return norm < 1e-6f ? 1e-6f : norm;
}

void MICROAOT_FN(const MICROAOT_PARAMS(l2_normalization) * params, const MICROAOT_T* input, MICROAOT_T* output) {
  const size_t depth = (size_t)params->depth;
  int32_t i;
  size_t c;
  for (i = 0; i < params->outer; ++i) {
    const MICROAOT_T* row = input + (size_t)i * depth;
    MICROAOT_T* out = output + (size_t)i * depth;
    MICROAOT_L2_SUM sum = 0;
    MICROAOT_L2_NORM norm;
    for (c = 0; c < depth; ++c) sum = MICROAOT_L2_ADD_SQUARE(params, sum, row[c]);
    norm = MICROAOT_L2_NORM_OF(sum);
    for (c = 0; c < depth; ++c) out[c] = MICROAOT_L2_SCALE(params, row[c], norm);
  }
}
