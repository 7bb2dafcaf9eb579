/* The Helium (MVE) row of the int8 pools, for a source that includes microaot/internal/templates/pool_2d.h with
 * MICROAOT_POOL_ROW set to its own row: each output pixel's in-image window (found once for all its channels),
 * channels in vectors, the last ones predicated (VCTP) instead of a scalar remainder.
 *   max:     16 channels a vector, VMAX over the taps, the clamp, one store.
 *   average: eight channels a vector summed in int16 (windows of at most 256 elements: |sum| <= 32,768), then
 *            the mean rounded to nearest with ties away from zero as pool_mean_int, by a multiply instead of a
 *            division: floor(x / count) = high word of 2x * ceil(2^31 / count) for x < 2^17 (the error term,
 *            x * (ceil(2^31 / count) * count - 2^31), stays below 2^31), on x = |sum| + count / 2, the sign put
 *            back; ties to even (ONNX) and larger windows take the template's row. */
#ifndef MICROAOT_MVE_POOL_H
#define MICROAOT_MVE_POOL_H

#include <stddef.h>
#include <stdint.h>

#include "microaot/internal/mve_dot.h"
#include "microaot/internal/window.h"
#include "microaot/kernels/pooling.h"

#if MICROAOT_MVE

/* The largest window whose int8 sum an int16 lane holds. */
#define MICROAOT_MVE_POOL_SUM16_MAX 256

typedef struct {
  const int8_t* in; /* the window's first in-image element at channel 0 */
  int32_t rows, cols;
  size_t col_step, row_step; /* row_step: from past a row's last tap to the next row's first */
} microaot_mve_pool_window;

/* Channels c .. c + 7's means (the lanes p keeps) of the window: sums in int16, the division by a multiply. */
static inline __attribute__((always_inline)) void microaot_mve_pool_mean8(const microaot_mve_pool_window* w,
                                                                          int32_t c, uint32_t reciprocal,
                                                                          int32_t half, int32_t lo, int32_t hi,
                                                                          mve_pred16_t p, int8_t* out) {
  const int8_t* in = w->in + c;
  int16x8_t sum = vdupq_n_s16(0);
  int32x4_t halves[2];
  int32_t r, k, h;
  for (r = w->rows; r > 0; --r, in += w->row_step) {
    for (k = w->cols; k > 0; --k, in += w->col_step) sum = vaddq_s16(sum, vldrbq_z_s16(in, p));
  }
  halves[0] = vmovlbq_s16(sum);
  halves[1] = vmovltq_s16(sum);
  for (h = 0; h < 2; ++h) {
    const int32x4_t s = halves[h];
    const uint32x4_t x = vreinterpretq_u32_s32(vaddq_n_s32(vabsq_s32(s), half));
    int32x4_t mean = vreinterpretq_s32_u32(vmulhq_u32(vshlq_n_u32(x, 1), vdupq_n_u32(reciprocal)));
    mean = vnegq_m_s32(mean, mean, vcmpltq_n_s32(s, 0));
    halves[h] = vminq_s32(vmaxq_s32(mean, vdupq_n_s32(lo)), vdupq_n_s32(hi));
  }
  /* even channels into the even int16 lanes, odd ones into the odd lanes, then one narrowing store */
  vstrbq_p_s16(out + c, vmovntq_s32(vmovnbq_s32(vdupq_n_s16(0), halves[0]), halves[1]), p);
}

/* Channels c .. c + 15's maxima (the lanes p keeps) of the window, clamped. */
static inline __attribute__((always_inline)) void microaot_mve_pool_max16(const microaot_mve_pool_window* w,
                                                                          int32_t c, int8x16_t lo, int8x16_t hi,
                                                                          mve_pred16_t p, int8_t* out) {
  const int8_t* in = w->in + c;
  int8x16_t max = vdupq_n_s8(INT8_MIN);
  int32_t r, k;
  for (r = w->rows; r > 0; --r, in += w->row_step) {
    for (k = w->cols; k > 0; --k, in += w->col_step) max = vmaxq_s8(max, vldrbq_z_s8(in, p));
  }
  vstrbq_p_s8(out + c, vminq_s8(vmaxq_s8(max, lo), hi), p);
}

/* Whether the vector average row computes the layer (else the template's row). */
static inline int microaot_mve_pool_average_fits(const microaot_pool_2d_params_q* p) {
  return !p->ties_to_even && p->filter_height * p->filter_width <= MICROAOT_MVE_POOL_SUM16_MAX;
}

/* Output row oy of the image into out: every pixel's in-image window, `max` (a constant where inlined) or the
 * average over it. */
static inline __attribute__((always_inline)) void microaot_mve_pool_row(const microaot_pool_2d_params_q* p,
                                                                        const int8_t* image, int32_t oy,
                                                                        int8_t* out, int max) {
  const int32_t channels = p->channels;
  const size_t depth = (size_t)channels;
  const microaot_window y =
      microaot_window_of(oy, p->stride_height, p->padding_height, p->filter_height, 1, p->input_height);
  const int8x16_t lo = vdupq_n_s8((int8_t)p->activation_min), hi = vdupq_n_s8((int8_t)p->activation_max);
  int32_t ox, c;
  for (ox = 0; ox < p->output_width; ++ox, out += depth) {
    const microaot_window x =
        microaot_window_of(ox, p->stride_width, p->padding_width, p->filter_width, 1, p->input_width);
    microaot_mve_pool_window w;
    w.rows = y.end - y.begin;
    w.cols = x.end - x.begin;
    w.in = image + ((size_t)(y.origin + y.begin) * (size_t)p->input_width + (size_t)(x.origin + x.begin)) * depth;
    w.col_step = depth;
    w.row_step = ((size_t)p->input_width - (size_t)w.cols) * depth;
    if (max) {
      for (c = 0; c < channels; c += 16) microaot_mve_pool_max16(&w, c, lo, hi, vctp8q((uint32_t)(channels - c)), out);
    } else {
      const int32_t count = w.rows * w.cols;
      const uint32_t reciprocal = (uint32_t)((((uint64_t)1 << 31) + (uint64_t)count - 1) / (uint64_t)count);
      for (c = 0; c < channels; c += 8) {
        microaot_mve_pool_mean8(&w, c, reciprocal, count / 2, p->activation_min, p->activation_max,
                                vctp16q((uint32_t)(channels - c)), out);
      }
    }
  }
}

#endif /* MICROAOT_MVE */

#endif /* MICROAOT_MVE_POOL_H */
