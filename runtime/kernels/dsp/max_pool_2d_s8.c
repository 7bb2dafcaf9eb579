/* MAX_POOL_2D int8 for a cpu with the DSP extension, bit-exact with the portable kernel: four channels a word,
 * each tap one load and one SSUB8 + SEL (microaot_dsp_smax8), where the portable row spends about 20
 * instructions an element and tap. The running maximum starts at the clamp's lower end: max(lo, taps) then
 * min with the upper end is the portable clamp of the taps' maximum (whose start, -128, is never above lo).
 * The last channels of a count that is not a multiple of four go one by one; a clamp with lo > hi takes the
 * template's row. */
#include <stdint.h>
#include <string.h>

#include "microaot/internal/dsp.h"
#include "microaot/kernels/pooling.h"

static void dsp_max_row(const microaot_pool_2d_params_q* p, const int8_t* in_image, int32_t oy, int8_t* out);
#define MICROAOT_POOL_ROW dsp_max_row

#define MICROAOT_DTYPE s8
#define MICROAOT_POOL max
#define MICROAOT_FN microaot_max_pool_2d_s8
#define MICROAOT_FN_OVERLAP microaot_max_pool_2d_s8_overlap
#include "microaot/internal/templates/pool_2d.h"

/* Four channels of one output pixel: the window's rows from `in` (its first in-bounds tap). */
static uint32_t dsp_max_window4(const int8_t* in, int32_t rows, int32_t taps, size_t row_stride, size_t channels,
                                uint32_t acc) {
  const size_t span = (size_t)taps * channels; /* a window row's bytes, from its first tap */
  int32_t fy;
  for (fy = 0; fy < rows; ++fy) {
    const int8_t* tap = in + (size_t)fy * row_stride;
    const int8_t* const end = tap + span;
    for (; tap != end; tap += channels) acc = microaot_dsp_smax8(acc, microaot_dsp_load4(tap));
  }
  return acc;
}

/* One channel of one output pixel, as dsp_max_window4 (its start, the clamp's lower end, and the clamp). */
static int8_t dsp_max_window1(const int8_t* in, int32_t rows, int32_t taps, size_t row_stride, size_t channels,
                              int32_t lo, int32_t hi) {
  int32_t fy, fx, acc = lo;
  for (fy = 0; fy < rows; ++fy) {
    const int8_t* const row = in + (size_t)fy * row_stride;
    for (fx = 0; fx < taps; ++fx) acc = row[(size_t)fx * channels] > acc ? row[(size_t)fx * channels] : acc;
  }
  return (int8_t)(acc < hi ? acc : hi);
}

static void dsp_max_row(const microaot_pool_2d_params_q* p, const int8_t* in_image, int32_t oy, int8_t* out) {
  const size_t channels = (size_t)p->channels, row_stride = (size_t)p->input_width * channels;
  const microaot_window y =
      microaot_window_of(oy, p->stride_height, p->padding_height, p->filter_height, 1, p->input_height);
  const uint32_t lo4 = 0x01010101u * (uint8_t)p->activation_min, hi4 = 0x01010101u * (uint8_t)p->activation_max;
  const size_t words = channels & ~(size_t)3;
  int32_t ox;
  size_t c;
  if (p->activation_min > p->activation_max) {
    pool_row(p, in_image, oy, out);
    return;
  }
  for (ox = 0; ox < p->output_width; ++ox) {
    const microaot_window x =
        microaot_window_of(ox, p->stride_width, p->padding_width, p->filter_width, 1, p->input_width);
    /* windows are never empty (the compiler proves it); an empty one computes the clamp's lower end, as the
     * portable row does */
    const int32_t rows = y.end > y.begin ? y.end - y.begin : 0, taps = x.end > x.begin ? x.end - x.begin : 0;
    const int8_t* const first = in_image + (size_t)(y.origin + y.begin) * row_stride +
                                (size_t)(x.origin + x.begin) * channels;
    for (c = 0; c < words; c += 4, out += 4) {
      const uint32_t m = dsp_max_window4(first + c, rows, taps, row_stride, channels, lo4);
      const uint32_t clamped = microaot_dsp_smin8(m, hi4);
      memcpy(out, &clamped, 4);
    }
    for (; c < channels; ++c) {
      *out++ = dsp_max_window1(first + c, rows, taps, row_stride, channels, p->activation_min, p->activation_max);
    }
  }
}
