/* MAX_POOL_2D int8 for a cpu with the DSP extension, bit-exact with the portable kernel: four channels a word,
 * each tap one load and one SSUB8 + SEL (microaot_dsp_smax8), where the portable row spends about 20
 * instructions an element and tap. The taps' maximum, then max with the clamp's lower end and min with its upper
 * end, is the portable clamp of the window's maximum (whose start, -128, is never above lo). Filters of at most
 * 3x3 (the CNN pools) take every tap at a fixed place: a tap outside the input reads an in-bounds one of its
 * window instead (the maximum is the same with an element twice), so each word is straight-line loads and SEL,
 * 2x2 through four pointers and the others as 3x3. Larger filters, and every filter in a build for size, loop
 * over the window's in-bounds taps. The last channels of a count that is not a multiple of four go as one word
 * ending at the last channel (the bytes it recomputes get the same values), or one by one below four channels;
 * a clamp with lo > hi takes the template's row. */
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

/* The fixed places' forms (about 3 KB of code) are left out of a build for size (-Os): every filter loops. */
#if !defined(__OPTIMIZE_SIZE__)
/* The largest filter side whose taps go at fixed places. */
#define DSP_MAX_FIXED 3

#if defined(__GNUC__)
#define DSP_MAX_INLINE static inline __attribute__((always_inline))
#else
#define DSP_MAX_INLINE static inline
#endif

/* Four channels (`step` 4) or one (`step` 1: byte 0 of the word) at p. */
static inline uint32_t dsp_max_load(const int8_t* p, int step) {
  return step == 4 ? microaot_dsp_load4(p) : (uint32_t)(uint8_t)*p;
}

/* A pixel's taps at fixed places: rows r0, r1, r2 (a row's first tap) and columns 0, col1 and col2 from it; a
 * 2x2 filter (square2) reads rows r0, r1 and columns 0, col1 alone. */
DSP_MAX_INLINE uint32_t dsp_max_taps(const int8_t* r0, const int8_t* r1, const int8_t* r2, size_t col1,
                                     size_t col2, int square2, int step) {
  if (square2) {
    return microaot_dsp_smax8(microaot_dsp_smax8(dsp_max_load(r0, step), dsp_max_load(r0 + col1, step)),
                              microaot_dsp_smax8(dsp_max_load(r1, step), dsp_max_load(r1 + col1, step)));
  }
  return microaot_dsp_smax8(
      microaot_dsp_smax8(
          microaot_dsp_smax8(microaot_dsp_smax8(dsp_max_load(r0, step), dsp_max_load(r0 + col1, step)),
                             dsp_max_load(r0 + col2, step)),
          microaot_dsp_smax8(microaot_dsp_smax8(dsp_max_load(r1, step), dsp_max_load(r1 + col1, step)),
                             dsp_max_load(r1 + col2, step))),
      microaot_dsp_smax8(microaot_dsp_smax8(dsp_max_load(r2, step), dsp_max_load(r2 + col1, step)),
                         dsp_max_load(r2 + col2, step)));
}

/* Fewer than four channels, one at a time (byte 0 of each word): the taps' maximum, clamped, into out. */
DSP_MAX_INLINE void dsp_max_bytes(const int8_t* r0, const int8_t* r1, const int8_t* r2, size_t col1, size_t col2,
                                  size_t channels, int8_t* out, uint32_t lo4, uint32_t hi4, int square2) {
  size_t c;
  for (c = 0; c < channels; ++c) {
    const uint32_t m = dsp_max_taps(r0 + c, r1 + c, r2 + c, col1, col2, square2, 1);
    out[c] = (int8_t)microaot_dsp_smin8(microaot_dsp_smax8(m, lo4), hi4);
  }
}

/* `n` words from the taps' offset 0 into out: each the taps' maximum, clamped (max with lo, min with hi), or as it
 * is under the int8 clamp (`clamps` 0). */
DSP_MAX_INLINE void dsp_max_span(const int8_t* r0, const int8_t* r1, const int8_t* r2, size_t col1, size_t col2,
                                 size_t n, int8_t* out, uint32_t lo4, uint32_t hi4, int square2, int clamps) {
  int8_t* const end = out + 4 * n;
  for (; out != end; out += 4, r0 += 4, r1 += 4, r2 += 4) {
    uint32_t m = dsp_max_taps(r0, r1, r2, col1, col2, square2, 4);
    if (clamps) m = microaot_dsp_smin8(microaot_dsp_smax8(m, lo4), hi4);
    memcpy(out, &m, 4);
  }
}

/* One pixel of at least four channels: its words, then the word that ends at the last channel where the count is
 * not a multiple of four (the bytes it recomputes get the same values). */
DSP_MAX_INLINE void dsp_max_words(const int8_t* r0, const int8_t* r1, const int8_t* r2, size_t col1, size_t col2,
                                  size_t channels, int8_t* out, uint32_t lo4, uint32_t hi4, int square2,
                                  int clamps) {
  const size_t back = channels - 4;
  dsp_max_span(r0, r1, r2, col1, col2, channels / 4, out, lo4, hi4, square2, clamps);
  if (channels % 4 != 0) {
    dsp_max_span(r0 + back, r1 + back, r2 + back, col1, col2, 1, out + back, lo4, hi4, square2, clamps);
  }
}

/* A run of pixels whose windows lie across the input (no column clipped): the first at `offset` bytes into the
 * rows, each next pixel_step further. Inlined into each form below with its constants. */
typedef struct {
  const int8_t* rows[DSP_MAX_FIXED]; /* a window's rows, a clipped or missing one repeating an in-bounds one */
  size_t col1, col2;                 /* a window's columns 1 and 2 from column 0 (a missing one repeating) */
  size_t channels, pixel_step;
  uint32_t lo4, hi4;
} dsp_max_row_taps;

DSP_MAX_INLINE void dsp_max_run(const dsp_max_row_taps* t, size_t offset, int32_t pixels, int8_t* out,
                                int square2, int clamps) {
  const int8_t *r0 = t->rows[0] + offset, *r1 = t->rows[1] + offset, *r2 = t->rows[2] + offset;
  const size_t col1 = t->col1, col2 = t->col2, channels = t->channels, step = t->pixel_step;
  const uint32_t lo4 = t->lo4, hi4 = t->hi4;
  if (channels == 4) { /* one word a pixel: the pixels' loop alone */
    for (; pixels > 0; --pixels, r0 += step, r1 += step, r2 += step, out += 4) {
      dsp_max_span(r0, r1, r2, col1, col2, 1, out, lo4, hi4, square2, clamps);
    }
    return;
  }
  for (; pixels > 0; --pixels, r0 += step, r1 += step, r2 += step, out += channels) {
    dsp_max_words(r0, r1, r2, col1, col2, channels, out, lo4, hi4, square2, clamps);
  }
}

/* The run's four forms (2x2 or 3x3, clamped or under the int8 clamp), picked once per row. */
typedef void dsp_max_run_fn(const dsp_max_row_taps* t, size_t offset, int32_t pixels, int8_t* out);
static void dsp_max_run_2x2(const dsp_max_row_taps* t, size_t offset, int32_t pixels, int8_t* out) {
  dsp_max_run(t, offset, pixels, out, 1, 0);
}
static void dsp_max_run_2x2_clamped(const dsp_max_row_taps* t, size_t offset, int32_t pixels, int8_t* out) {
  dsp_max_run(t, offset, pixels, out, 1, 1);
}
static void dsp_max_run_3x3(const dsp_max_row_taps* t, size_t offset, int32_t pixels, int8_t* out) {
  dsp_max_run(t, offset, pixels, out, 0, 0);
}
static void dsp_max_run_3x3_clamped(const dsp_max_row_taps* t, size_t offset, int32_t pixels, int8_t* out) {
  dsp_max_run(t, offset, pixels, out, 0, 1);
}

/* The input position of tap `k` of a window (k < the filter's size), moved into the window's in-bounds taps. */
static inline int32_t dsp_max_tap_at(const microaot_window* w, int32_t k) {
  const int32_t tap = k < w->begin ? w->begin : (k >= w->end ? w->end - 1 : k);
  return w->origin + tap;
}

/* Pixel ox of a row whose columns are clipped (or of fewer than four channels): each column tap moved into the
 * input (onto the window's nearest in-bounds one), in the 3x3 form (a 2x2 filter's column and row repeated),
 * clamped. */
#if defined(__GNUC__)
__attribute__((noinline)) /* one copy, off the runs' path */
#endif
static void dsp_max_pixel(const microaot_pool_2d_params_q* p, const dsp_max_row_taps* t, int32_t ox, int8_t* out) {
  const int32_t fw = p->filter_width, width = p->input_width, origin = ox * p->stride_width - p->padding_width;
  size_t cols[DSP_MAX_FIXED];
  int32_t k;
  if (origin + fw <= 0 || origin >= width) { /* unreachable (the compiler proves windows non-empty): lo */
    memset(out, (uint8_t)p->activation_min, t->channels);
    return;
  }
  for (k = 0; k < DSP_MAX_FIXED; ++k) {
    const int32_t at = origin + (k < fw ? k : fw - 1);
    cols[k] = (size_t)(at < 0 ? 0 : (at >= width ? width - 1 : at)) * t->channels;
  }
  {
    const int8_t *r0 = t->rows[0] + cols[0], *r1 = t->rows[1] + cols[0], *r2 = t->rows[2] + cols[0];
    const size_t col1 = cols[1] - cols[0], col2 = cols[2] - cols[0];
    if (t->channels >= 4) {
      dsp_max_words(r0, r1, r2, col1, col2, t->channels, out, t->lo4, t->hi4, 0, 1);
    } else if (p->filter_height == 2 && p->filter_width == 2) {
      dsp_max_bytes(r0, r1, r2, col1, col2, t->channels, out, t->lo4, t->hi4, 1);
    } else {
      dsp_max_bytes(r0, r1, r2, col1, col2, t->channels, out, t->lo4, t->hi4, 0);
    }
  }
}

/* Output row oy of a filter of at most 3x3, with a non-empty row window y: the pixels whose windows lie across
 * the input in one run, those before and after it one by one. */
static void dsp_max_row_fixed(const microaot_pool_2d_params_q* p, const int8_t* in_image, microaot_window y,
                              int8_t* out) {
  const int32_t fh = p->filter_height, fw = p->filter_width, stride = p->stride_width, pad = p->padding_width;
  const int clamps = p->activation_min != -128 || p->activation_max != 127;
  const int square2 = fh == 2 && fw == 2;
  dsp_max_run_fn* const run = square2 ? (clamps ? dsp_max_run_2x2_clamped : dsp_max_run_2x2)
                                      : (clamps ? dsp_max_run_3x3_clamped : dsp_max_run_3x3);
  dsp_max_row_taps t;
  int32_t k, ox, first, last; /* the run: pixels [first, last) */
  t.channels = (size_t)p->channels;
  t.pixel_step = (size_t)stride * t.channels;
  t.lo4 = 0x01010101u * (uint8_t)p->activation_min, t.hi4 = 0x01010101u * (uint8_t)p->activation_max;
  t.col1 = (size_t)(fw > 1 ? 1 : 0) * t.channels, t.col2 = (size_t)(fw > 2 ? 2 : fw - 1) * t.channels;
  for (k = 0; k < DSP_MAX_FIXED; ++k) {
    t.rows[k] = in_image + (size_t)dsp_max_tap_at(&y, k < fh ? k : fh - 1) * (size_t)p->input_width * t.channels;
  }
  /* window ox lies across the input where ox * stride >= pad and ox * stride - pad + fw <= input_width */
  first = pad > 0 ? (pad + stride - 1) / stride : 0;
  last = p->input_width + pad >= fw ? (p->input_width + pad - fw) / stride + 1 : 0;
  if (last > p->output_width) last = p->output_width;
  if (last < first || t.channels < 4) last = first;
  for (ox = 0; ox < first && ox < p->output_width; ++ox) {
    dsp_max_pixel(p, &t, ox, out + (size_t)ox * t.channels);
  }
  if (last > first) {
    run(&t, (size_t)(first * stride - pad) * t.channels, last - first, out + (size_t)first * t.channels);
  }
  for (ox = last > first ? last : first; ox < p->output_width; ++ox) {
    dsp_max_pixel(p, &t, ox, out + (size_t)ox * t.channels);
  }
}

#endif /* !__OPTIMIZE_SIZE__ */

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

/* Output row oy of a larger filter: each pixel's in-bounds taps in loops. */
static void dsp_max_row_any(const microaot_pool_2d_params_q* p, const int8_t* in_image, microaot_window y,
                            int8_t* out) {
  const size_t channels = (size_t)p->channels, row_stride = (size_t)p->input_width * channels;
  const uint32_t lo4 = 0x01010101u * (uint8_t)p->activation_min, hi4 = 0x01010101u * (uint8_t)p->activation_max;
  const size_t words = channels & ~(size_t)3;
  int32_t ox;
  size_t c;
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

static void dsp_max_row(const microaot_pool_2d_params_q* p, const int8_t* in_image, int32_t oy, int8_t* out) {
  const microaot_window y =
      microaot_window_of(oy, p->stride_height, p->padding_height, p->filter_height, 1, p->input_height);
  if (p->activation_min > p->activation_max) {
    pool_row(p, in_image, oy, out);
#if !defined(__OPTIMIZE_SIZE__)
  } else if (p->filter_height <= DSP_MAX_FIXED && p->filter_width <= DSP_MAX_FIXED && p->filter_width >= 1 &&
             p->stride_width >= 1 && y.end > y.begin) { /* (a graph blob's params are untrusted) */
    dsp_max_row_fixed(p, in_image, y, out);
#endif
  } else {
    dsp_max_row_any(p, in_image, y, out);
  }
}
