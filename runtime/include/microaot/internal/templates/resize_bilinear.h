/* The RESIZE_BILINEAR template for one element type: every output pixel blends the four input pixels the
 * compiler's row and column tables name. The including file defines MICROAOT_DTYPE (s8 or f32) and
 * MICROAOT_FN (declared in microaot/kernels/resize.h). */
#include <stddef.h>

#include "microaot/internal/kernel_dtype.h"
#include "microaot/kernels/resize.h"

/* int8, as TFLM's integer kernel: weights in 1/1024, the four products summed, then divided by 2^20 rounding half
 * away from zero. TFLM sums in 64 bits; the same sum in int32, blended by rows first, is exact: a weight lies in
 * [-512, 1024) (half-pixel centres start below 0), so a row blend is below 128 * 2560 < 2^19 in magnitude and the
 * sum below 2^19 * 2560 < 2^31. (sum + 2^19 + (sum < 0 ? -1 : 0)) >> 20 is the rounding (floor of a sum below 0
 * one less). One pixel's channels, the weights in locals (an int8 store may alias the params). */
static inline void bilinear_pixel_s8(int8_t* out, const int8_t* lo_left, const int8_t* hi_left, const int8_t* lo_right,
                                     const int8_t* hi_right, size_t depth, int32_t wy, int32_t wx) {
  const int32_t uy = 1024 - wy, ux = 1024 - wx;
  size_t c;
  for (c = 0; c < depth; ++c) {
    const int32_t left = lo_left[c] * uy + hi_left[c] * wy, right = lo_right[c] * uy + hi_right[c] * wy;
    const int32_t sum = left * ux + right * wx;
    out[c] = (int8_t)((sum + (1 << 19) + (sum >> 31)) >> 20);
  }
}

/* float, in TFLM's order of operations. */
static inline void bilinear_pixel_f32(float* out, const float* lo_left, const float* hi_left, const float* lo_right,
                                      const float* hi_right, size_t depth, float wy, float wx) {
  size_t c;
  for (c = 0; c < depth; ++c) {
    out[c] = lo_left[c] * (1.0f - wy) * (1.0f - wx) + hi_left[c] * wy * (1.0f - wx) +
             lo_right[c] * (1.0f - wy) * wx + hi_right[c] * wy * wx;
  }
}

#define MICROAOT_RESIZE_PARAMS MICROAOT_PARAMS_Q(resize_bilinear)
#define MICROAOT_BLEND_PIXEL MICROAOT_CAT(bilinear_pixel_, MICROAOT_DTYPE)

void MICROAOT_FN(const MICROAOT_RESIZE_PARAMS* p, const MICROAOT_T* input, MICROAOT_T* output) {
  const size_t depth = (size_t)p->depth;
  const size_t row = (size_t)p->input_width * depth;
  const MICROAOT_T* image = input;
  for (int32_t b = 0; b < p->batches; ++b, image += (size_t)p->input_height * row) {
    for (int32_t y = 0; y < p->output_height; ++y) {
      const MICROAOT_T* lo = image + (size_t)p->rows_lo[y] * row;
      const MICROAOT_T* hi = image + (size_t)p->rows_hi[y] * row;
      for (int32_t x = 0; x < p->output_width; ++x, output += depth) {
        const size_t left = (size_t)p->cols_lo[x] * depth, right = (size_t)p->cols_hi[x] * depth;
        MICROAOT_BLEND_PIXEL(output, lo + left, hi + left, lo + right, hi + right, depth, p->row_weights[y],
                             p->col_weights[x]);
      }
    }
  }
}
