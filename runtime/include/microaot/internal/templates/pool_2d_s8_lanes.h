/* The lane path of the DSP int8 AVERAGE_POOL_2D: four channels per pass, each window pixel one word of the four
 * and two SXTAB16 that add its bytes 0, 2 and 1, 3 into 16-bit lanes; the four means packed and clamped as one
 * word. Windows of 2 or 3 rows by 2 or 3 columns (2x2 and 3x3 filters, the CNN pools, clipped or not) sum their
 * taps at fixed places, the others loop over their in-bounds pixels. Shared by the full DSP kernel
 * (dsp/average_pool_2d_s8.c), the lanes' own (dsp/average_pool_2d_s8_lanes.c) and the global pool's (window_means
 * alone: dsp/average_pool_2d_s8_global.c), which include it after
 * microaot/internal/templates/pool_2d.h (pool_mean_int, pool_mean_even, MICROAOT_CLAMP) with MICROAOT_DTYPE s8. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "microaot/internal/dsp.h"
#include "microaot/fit/average_pool_2d.h"
#include "microaot/kernels/pooling.h"
#include "microaot/internal/window.h"

#if defined(__GNUC__)
#define LANES_APART __attribute__((noinline)) /* its own registers: inlined, the loop reloads spilled values */
#define LANES_INLINE static inline __attribute__((always_inline))
#else
#define LANES_APART
#define LANES_INLINE static inline
#endif

/* What a word of means needs besides its sums: the window's element count, the bias of lanes_store_means, whether
 * the count is even, the clamp's bounds in every byte. */
typedef struct {
  int32_t count, bias, even_count;
  uint32_t lo4, hi4;
} lanes_means;

/* TFLM's mean of a sum (pool_mean_int: sum / count rounded half away from zero) is floor((sum + half - neg) /
 * count), half = count / 2 and neg 1 for a negative sum and an even count (a tie then rounds down). The sum plus
 * bias = 256 count + half, a non-negative numerator (the sum of count int8 is at least -128 count), floors in an
 * unsigned division to the mean plus 256, whose low byte is the mean's. `neg` is the sum's sign bit, taken from
 * the lane's word without extracting the lane. */
static inline uint32_t lanes_mean_byte(int32_t sum, uint32_t neg, const lanes_means* m) {
  return (uint32_t)(m->bias + sum - (int32_t)(m->even_count ? neg : 0)) / (uint32_t)m->count;
}

/* The sums of channels 0, 2 (lanes of `even`) and 1, 3 (`odd`) as their means, packed into a word and clamped by
 * SSUB8 + SEL (the means lie in [-128, 127]; lo <= hi, where the portable clamp is max then min), into out. */
LANES_INLINE void lanes_store_means(uint32_t even, uint32_t odd, const lanes_means* m, int8_t* out) {
  const uint32_t q0 = lanes_mean_byte((int16_t)(even & 0xFFFFu), even >> 15 & 1u, m);
  const uint32_t q1 = lanes_mean_byte((int16_t)(odd & 0xFFFFu), odd >> 15 & 1u, m);
  const uint32_t q2 = lanes_mean_byte((int32_t)even >> 16, even >> 31, m);
  const uint32_t q3 = lanes_mean_byte((int32_t)odd >> 16, odd >> 31, m);
  /* the means' low bytes as PKHBT's lanes (channels 0, 2 and 1, 3), masked and interleaved */
  uint32_t word = (microaot_dsp_pkhbt(q0, q2) & 0x00FF00FFu) | (microaot_dsp_pkhbt(q1, q3) & 0x00FF00FFu) << 8;
  word = microaot_dsp_smin8(microaot_dsp_smax8(word, m->lo4), m->hi4);
  memcpy(out, &word, 4);
}

/* The same one channel at a time through the template's means and clamp: ties to even (`ties_to_even`, read once
 * per window), or a clamp with lo > hi (and the global pool's every layer). */
LANES_INLINE void lanes_store_exact(const microaot_pool_2d_params_q* p, int32_t ties_to_even, uint32_t even,
                                    uint32_t odd, int32_t count, int8_t* out) {
  const int32_t sums[4] = {microaot_dsp_bottom(even), microaot_dsp_bottom(odd), microaot_dsp_top(even),
                           microaot_dsp_top(odd)};
  int k;
  if (ties_to_even) { /* tested once per four channels, not per channel */
    for (k = 0; k < 4; ++k) out[k] = MICROAOT_CLAMP(p, pool_mean_even(sums[k], count));
  } else {
    for (k = 0; k < 4; ++k) out[k] = MICROAOT_CLAMP(p, pool_mean_int(sums[k], count));
  }
}

/* Whether a layer's means take lanes_store_means: TFLM's rounding and a clamp with lo <= hi. */
static inline int lanes_fast_means(const microaot_pool_2d_params_q* p, int32_t count, lanes_means* m) {
  m->count = count > 0 ? count : 1; /* 0 unreachable: the compiler proves every window non-empty */
  m->bias = 256 * m->count + m->count / 2;
  m->even_count = m->count % 2 == 0;
  m->lo4 = 0x01010101u * (uint8_t)p->activation_min, m->hi4 = 0x01010101u * (uint8_t)p->activation_max;
  return !p->ties_to_even && p->activation_min <= p->activation_max;
}

/* The window's channel sums, four channels a pass, at `first` (its first in-bounds pixel, channel 0), `rows`
 * rows of `width` bytes (pixels times channels), written as the means of their element count to out[0..channels).
 * The channel loop inside: one call per window, not per four channels. A channel count that is not a multiple of
 * four ends with the word of the last four channels (the bytes it recomputes get the same values). */
static LANES_APART void window_means(const microaot_pool_2d_params_q* p, const int8_t* first, int32_t rows,
                                     size_t width, int8_t* out) {
  const size_t pixel_stride = (size_t)p->channels, row_stride = (size_t)p->input_width * pixel_stride;
  const int32_t count = rows * (int32_t)(width / pixel_stride);
  const int32_t ties_to_even = p->ties_to_even;
  lanes_means m;
#ifdef MICROAOT_POOL_MEANS_ONLY
  /* the global pool: whole words (microaot_fit_pool_global), and one window a batch, whose means' code counts,
   * not their speed */
  const int8_t* const channels_end = first + pixel_stride;
  const size_t rewind = 0;
  const int fast = 0;
#else
  const int8_t* channels_end = first + (pixel_stride - pixel_stride % 4);
  size_t rewind = (4 - pixel_stride % 4) % 4; /* from the words' end back to the last word */
  const int fast = lanes_fast_means(p, count, &m);
#endif
  for (;;) {
    uint32_t even = 0, odd = 0; /* lanes: channels c, c + 2 and c + 1, c + 3 */
    int32_t fy;
    const int8_t* row = first;
    for (fy = 0; fy < rows; ++fy, row += row_stride) {
      const int8_t* in = row;
      const int8_t* const end = in + width;
      for (; in != end; in += pixel_stride) {
        const uint32_t word = microaot_dsp_load4(in);
        even = microaot_dsp_sxtab16(even, word);
        odd = microaot_dsp_sxtab16_ror8(odd, word);
      }
    }
    if (fast) {
      lanes_store_means(even, odd, &m, out);
    } else {
      lanes_store_exact(p, ties_to_even, even, odd, count, out);
    }
    first += 4, out += 4;
    if (first == channels_end) {
      if (rewind == 0) break;
#ifndef MICROAOT_POOL_MEANS_ONLY
      first -= rewind, out -= rewind, channels_end = first + 4, rewind = 0;
#endif
    }
  }
}

#ifndef MICROAOT_POOL_MEANS_ONLY /* the global pool's source sums its whole plane in window_means alone */
/* The fixed forms (about 3 KB of code) are left out of a build for size (-Os): every window through
 * window_means. */
#if !defined(__OPTIMIZE_SIZE__)
/* A row's windows for the fixed forms: the first taps of its in-bounds rows (a missing third repeating the
 * last), the bytes from one pixel's window to the next, the clamp (m.lo4, m.hi4). */
typedef struct {
  const int8_t* rows[3];
  size_t channels, pixel_step;
  lanes_means m;
} lanes_row_taps;

/* SMULWB / SMULWT: the top 32 bits of x times the bottom / top signed 16-bit lane of y. */
static inline int32_t lanes_smulwb(int32_t x, uint32_t y) {
#if MICROAOT_DSP_ASM
  int32_t r;
  __asm__("smulwb %0, %1, %2" : "=r"(r) : "r"(x), "r"(y));
  return r;
#else
  return (int32_t)(((int64_t)x * microaot_dsp_bottom(y)) >> 16);
#endif
}
static inline int32_t lanes_smulwt(int32_t x, uint32_t y) {
#if MICROAOT_DSP_ASM
  int32_t r;
  __asm__("smulwt %0, %1, %2" : "=r"(r) : "r"(x), "r"(y));
  return r;
#else
  return (int32_t)(((int64_t)x * microaot_dsp_top(y)) >> 16);
#endif
}

/* lanes_store_means for a window of 2 or 3 rows by 2 or 3 columns (count 4, 6 or 9), in the lanes.
 * lanes_mean_byte's quotient: count 4, floor((sum + 2 - neg) / 4), whose low byte is bits 2 to 9 of the lane's
 * 16-bit numerator (an arithmetic shift's), so each word's two bytes come by one shift and mask; counts 6 and 9,
 * the numerator (with its bias of 256 count + half) lies in [0, 3451], where its quotient is (numerator *
 * ceil(2^16 / count)) >> 16 (exact there: checked for every numerator), one SMULWB or SMULWT. */
LANES_INLINE void lanes_store_fixed_means(uint32_t even, uint32_t odd, int32_t count, uint32_t lo4, uint32_t hi4,
                                          int8_t* out) {
  uint32_t word;
  if (count == 4) { /* + 2, - the lanes' sign bits */
    const uint32_t e = microaot_dsp_ssub16(microaot_dsp_sadd16(even, 0x00020002u), even >> 15 & 0x00010001u);
    const uint32_t o = microaot_dsp_ssub16(microaot_dsp_sadd16(odd, 0x00020002u), odd >> 15 & 0x00010001u);
    word = (e >> 2 & 0x00FF00FFu) | (o << 6 & 0xFF00FF00u);
  } else {
    const uint32_t bias = (uint32_t)(256 * count + count / 2) * 0x00010001u;
    const int32_t reciprocal = (65536 + count - 1) / count;
    uint32_t e = microaot_dsp_sadd16(even, bias), o = microaot_dsp_sadd16(odd, bias);
    if (count % 2 == 0) { /* - the lanes' sign bits */
      e = microaot_dsp_ssub16(e, even >> 15 & 0x00010001u);
      o = microaot_dsp_ssub16(o, odd >> 15 & 0x00010001u);
    }
    word = (microaot_dsp_pkhbt((uint32_t)lanes_smulwb(reciprocal, e), (uint32_t)lanes_smulwt(reciprocal, e)) &
            0x00FF00FFu) |
           (microaot_dsp_pkhbt((uint32_t)lanes_smulwb(reciprocal, o), (uint32_t)lanes_smulwt(reciprocal, o)) &
            0x00FF00FFu)
               << 8;
  }
  word = microaot_dsp_smin8(microaot_dsp_smax8(word, lo4), hi4);
  memcpy(out, &word, 4);
}

/* Adds the word at p + offset into the lanes: bytes 0, 2 into even's, 1, 3 into odd's; the window's first tap
 * (`first`) sets them. In one asm statement on the DSP, so that one word is live at a time (the nine taps of a
 * 3x3 window, loaded first, spilled). */
static inline void lanes_add(const int8_t* p, size_t offset, uint32_t* even, uint32_t* odd, int first) {
#if MICROAOT_DSP_ASM
  uint32_t w;
  if (first) {
    __asm__("ldr %[w], [%[p], %[offset]]\n\tsxtb16 %[e], %[w]\n\tsxtb16 %[o], %[w], ror #8"
            : [w] "=&r"(w), [e] "=&r"(*even), [o] "=r"(*odd)
            : [p] "r"(p), [offset] "r"(offset), "m"(*(const int8_t(*)[4])(p + offset)));
  } else {
    __asm__("ldr %[w], [%[p], %[offset]]\n\tsxtab16 %[e], %[e], %[w]\n\tsxtab16 %[o], %[o], %[w], ror #8"
            : [w] "=&r"(w), [e] "+r"(*even), [o] "+r"(*odd)
            : [p] "r"(p), [offset] "r"(offset), "m"(*(const int8_t(*)[4])(p + offset)));
  }
#else
  const uint32_t w = microaot_dsp_load4(p + offset);
  *even = microaot_dsp_sxtab16(first ? 0 : *even, w);
  *odd = microaot_dsp_sxtab16_ror8(first ? 0 : *odd, w);
#endif
}

/* `n` words of a window of `rows` rows (2 or 3) by `cols` columns (2 or 3) from its rows' first taps into out:
 * the taps summed at fixed places (columns 0, col1, col2). */
LANES_INLINE void lanes_words(const int8_t* r0, const int8_t* r1, const int8_t* r2, size_t col1, size_t n,
                              uint32_t lo4, uint32_t hi4, int rows, int cols, int8_t* out) {
  const size_t col2 = 2 * col1;
  int8_t* const end = out + 4 * n;
  for (; out != end; out += 4, r0 += 4, r1 += 4, r2 += 4) {
    uint32_t even, odd;
    lanes_add(r0, 0, &even, &odd, 1), lanes_add(r0, col1, &even, &odd, 0);
    lanes_add(r1, 0, &even, &odd, 0), lanes_add(r1, col1, &even, &odd, 0);
    if (cols == 3) lanes_add(r0, col2, &even, &odd, 0), lanes_add(r1, col2, &even, &odd, 0);
    if (rows == 3) {
      lanes_add(r2, 0, &even, &odd, 0), lanes_add(r2, col1, &even, &odd, 0);
      if (cols == 3) lanes_add(r2, col2, &even, &odd, 0);
    }
    lanes_store_fixed_means(even, odd, rows * cols, lo4, hi4, out);
  }
}

/* `pixels` windows of one form, the first `offset` bytes into the rows: each pixel's words, then the word that
 * ends at its last channel where the count is not a multiple of four (the bytes it recomputes get the same
 * values). Inlined into each form below. */
LANES_INLINE void lanes_run(const lanes_row_taps* t, size_t offset, int32_t pixels, int8_t* out, int rows,
                            int cols) {
  const int8_t *r0 = t->rows[0] + offset, *r1 = t->rows[1] + offset, *r2 = t->rows[2] + offset;
  const size_t channels = t->channels, step = t->pixel_step, back = channels - 4;
  const uint32_t lo4 = t->m.lo4, hi4 = t->m.hi4;
  for (; pixels > 0; --pixels, r0 += step, r1 += step, r2 += step, out += channels) {
    lanes_words(r0, r1, r2, channels, channels / 4, lo4, hi4, rows, cols, out);
    if (channels % 4 != 0) {
      lanes_words(r0 + back, r1 + back, r2 + back, channels, 1, lo4, hi4, rows, cols, out + back);
    }
  }
}
typedef void lanes_run_fn(const lanes_row_taps* t, size_t offset, int32_t pixels, int8_t* out);
static LANES_APART void lanes_run_2x2(const lanes_row_taps* t, size_t offset, int32_t pixels, int8_t* out) {
  lanes_run(t, offset, pixels, out, 2, 2);
}
static LANES_APART void lanes_run_2x3(const lanes_row_taps* t, size_t offset, int32_t pixels, int8_t* out) {
  lanes_run(t, offset, pixels, out, 2, 3);
}
static LANES_APART void lanes_run_3x2(const lanes_row_taps* t, size_t offset, int32_t pixels, int8_t* out) {
  lanes_run(t, offset, pixels, out, 3, 2);
}
static LANES_APART void lanes_run_3x3(const lanes_row_taps* t, size_t offset, int32_t pixels, int8_t* out) {
  lanes_run(t, offset, pixels, out, 3, 3);
}
/* The form of a window of `rows` by `cols` in-bounds elements, or NULL (window_means takes it). */
static lanes_run_fn* lanes_form(int32_t rows, int32_t cols) {
  static lanes_run_fn* const forms[2][2] = {{lanes_run_2x2, lanes_run_2x3}, {lanes_run_3x2, lanes_run_3x3}};
  return rows >= 2 && rows <= 3 && cols >= 2 && cols <= 3 ? forms[rows - 2][cols - 2] : NULL;
}

/* Pixel ox of a row (its rows' window y, their first taps in t): through its form (`fast`: TFLM's rounding,
 * lo <= hi), else window_means. */
static void lanes_pixel(const microaot_pool_2d_params_q* p, const lanes_row_taps* t, int fast, microaot_window y,
                        int32_t ox, int8_t* out) {
  const size_t channels = (size_t)p->channels;
  const microaot_window x =
      microaot_window_of(ox, p->stride_width, p->padding_width, p->filter_width, 1, p->input_width);
  lanes_run_fn* const form = fast ? lanes_form(y.end - y.begin, x.end - x.begin) : NULL;
  if (form != NULL) {
    form(t, (size_t)(x.origin + x.begin) * channels, 1, out + (size_t)ox * channels);
  } else {
    window_means(p, t->rows[0] + (size_t)(x.origin + x.begin) * channels, y.end - y.begin,
                 (size_t)(x.end - x.begin) * channels, out + (size_t)ox * channels);
  }
}

#endif /* !__OPTIMIZE_SIZE__ */

/* Output row oy of a layer the lanes compute (microaot_fit_pool_lanes): under TFLM's rounding, the windows of 2
 * or 3 rows by 2 or 3 columns (2x2, 3x3 filters and their clipped windows) in their forms, the pixels whose
 * columns are not clipped in one run; the others (all, in a build for size) through window_means. */
static void dsp_pool_lanes_row(const microaot_pool_2d_params_q* p, const int8_t* in_image, int32_t oy,
                               int8_t* out) {
  const size_t channels = (size_t)p->channels, row_stride = (size_t)p->input_width * channels;
  const microaot_window y =
      microaot_window_of(oy, p->stride_height, p->padding_height, p->filter_height, 1, p->input_height);
#if defined(__OPTIMIZE_SIZE__)
  const int8_t* const top = in_image + (size_t)(y.origin + y.begin) * row_stride;
  int32_t ox;
  for (ox = 0; ox < p->output_width; ++ox, out += channels) {
    const microaot_window x =
        microaot_window_of(ox, p->stride_width, p->padding_width, p->filter_width, 1, p->input_width);
    window_means(p, top + (size_t)(x.origin + x.begin) * channels, y.end - y.begin,
                 (size_t)(x.end - x.begin) * channels, out);
  }
#else
  const int32_t fw = p->filter_width, stride = p->stride_width, pad = p->padding_width;
  lanes_row_taps t;
  const int fast = lanes_fast_means(p, 1, &t.m);
  lanes_run_fn* const run = fast ? lanes_form(y.end - y.begin, fw) : NULL;
  int32_t ox, k, first = 0, last = 0; /* the run: pixels [first, last) */
  for (k = 0; k < 3; ++k) {
    const int32_t row = y.begin + k < y.end ? y.begin + k : y.end - 1; /* in bounds: read by the forms of 3 rows */
    t.rows[k] = in_image + (size_t)(y.origin + (row > y.begin ? row : y.begin)) * row_stride;
  }
  t.channels = channels, t.pixel_step = (size_t)stride * channels;
  if (run != NULL && stride >= 1) { /* (a graph blob's params are untrusted) */
    /* window ox lies across the input where ox * stride >= pad and ox * stride - pad + fw <= input_width */
    first = pad > 0 ? (pad + stride - 1) / stride : 0;
    last = p->input_width + pad >= fw ? (p->input_width + pad - fw) / stride + 1 : 0;
    if (last > p->output_width) last = p->output_width;
    if (last < first) last = first;
  }
  for (ox = 0; ox < first && ox < p->output_width; ++ox) lanes_pixel(p, &t, fast, y, ox, out);
  if (last > first) run(&t, (size_t)(first * stride - pad) * channels, last - first, out + (size_t)first * channels);
  for (ox = last > first ? last : first; ox < p->output_width; ++ox) lanes_pixel(p, &t, fast, y, ox, out);
#endif
}
#endif
