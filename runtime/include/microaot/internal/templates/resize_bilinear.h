/* The RESIZE_BILINEAR template for one element type: every output pixel blends the four input pixels the
 * compiler's row and column tables name. The including file defines MICROAOT_DTYPE (s8 or f32) and
 * MICROAOT_FN (declared in microaot/kernels/resize.h). */
#include <stddef.h>

#include "microaot/internal/kernel_dtype.h"
#include "microaot/kernels/resize.h"

/* int8, as TFLM's integer kernel: weights in 1/1024, the four products summed in 64 bits, then divided by
 * 2^20 rounding half away from zero. */
static inline int8_t bilinear_blend_s8(int8_t v00, int8_t v10, int8_t v01, int8_t v11, int32_t wy, int32_t wx) {
  const int64_t one = 1 << 10;
  const int64_t sum = (int64_t)v00 * (one - wy) * (one - wx) + (int64_t)v10 * wy * (one - wx) +
                      (int64_t)v01 * (one - wy) * wx + (int64_t)v11 * wy * wx;
  const int64_t half = (int64_t)1 << 19;
  return (int8_t)((sum + (sum > 0 ? half : -half)) / ((int64_t)1 << 20));
}

/* float, in TFLM's order of operations. */
static inline float bilinear_blend_f32(float v00, float v10, float v01, float v11, float wy, float wx) {
  return v00 * (1.0f - wy) * (1.0f - wx) + v10 * wy * (1.0f - wx) + v01 * (1.0f - wy) * wx + v11 * wy * wx;
}

#define MICROAOT_RESIZE_PARAMS MICROAOT_PARAMS_Q(resize_bilinear)
#define MICROAOT_BLEND MICROAOT_CAT(bilinear_blend_, MICROAOT_DTYPE)

void MICROAOT_FN(const MICROAOT_RESIZE_PARAMS* p, const MICROAOT_T* input, MICROAOT_T* output) {
  const size_t depth = (size_t)p->depth;
  const size_t row = (size_t)p->input_width * depth;
  const MICROAOT_T* image = input;
  for (int32_t b = 0; b < p->batches; ++b, image += (size_t)p->input_height * row) {
    for (int32_t y = 0; y < p->output_height; ++y) {
      const MICROAOT_T* lo = image + (size_t)p->rows_lo[y] * row;
      const MICROAOT_T* hi = image + (size_t)p->rows_hi[y] * row;
      for (int32_t x = 0; x < p->output_width; ++x) {
        const size_t left = (size_t)p->cols_lo[x] * depth, right = (size_t)p->cols_hi[x] * depth;
        for (size_t c = 0; c < depth; ++c) {
          *output++ = MICROAOT_BLEND(lo[left + c], hi[left + c], lo[right + c], hi[right + c], p->row_weights[y],
                                     p->col_weights[x]);
        }
      }
    }
  }
}
