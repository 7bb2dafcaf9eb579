/* What the DSP kernels of a binary operator with one operand broadcast share (kernels/dsp/add_s8_linear.c,
 * kernels/dsp/mul_s8_folded.c): each element of the other operand is clamp(floor(s / 2^16), lo, hi) for
 * s = bias + floor(m * q / 2^8), the broadcast operand's value folded into the bias (and, for MUL, the slope)
 * of its row or channel, the bias offset by c * 2^16 for microaot_dsp_add_folded8's packing. */
#ifndef MICROAOT_DSP_FOLD_H
#define MICROAOT_DSP_FOLD_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "microaot/internal/dsp_word_multiply.h"

#define MICROAOT_DSP_FOLD_MASK 0xFF00FF00u /* bytes 1 and 3 (and, shifted, 0 and 2) as q * 2^8 in the lanes */

typedef struct {
  int32_t offset;    /* c * 2^16, added to every bias */
  int32_t lo, hi;    /* the clamp */
  uint32_t floor4, lo4;
  int clamped;
} microaot_dsp_fold;

static inline microaot_dsp_fold microaot_dsp_fold_of(int32_t lo, int32_t hi) {
  microaot_dsp_fold k;
  k.lo = lo, k.hi = hi;
  k.clamped = lo != -128 || hi != 127;
  k.offset = (k.clamped ? 255 - hi : 128) * 65536;
  k.floor4 = 0x01010101u * (uint8_t)(lo - hi + 255);
  k.lo4 = 0x01010101u * (uint8_t)lo;
  return k;
}

/* n elements of a under one slope and one offset bias (every sum within int32): eight at a time, then one by one. */
static inline void microaot_dsp_fold_row(const microaot_dsp_fold* k, int32_t m, int32_t bias, const int8_t* a,
                                         int8_t* out, int32_t n) {
  int8_t* const end8 = out + (n & ~7);
  const uint32_t floor4 = k->floor4, lo4 = k->lo4; /* locals: a store through int8_t* could alias the struct */
  int32_t c;
  if (k->clamped) {
    if (out != end8) microaot_dsp_add_folded_run_clamped(&a, &out, end8, m, bias, MICROAOT_DSP_FOLD_MASK, floor4, lo4);
  } else {
    if (out != end8) microaot_dsp_add_folded_run(&a, &out, end8, m, bias, MICROAOT_DSP_FOLD_MASK);
  }
  for (c = 0; c < (n & 7); ++c) out[c] = microaot_dsp_fold_element(m, a[c], bias, floor4, lo4, k->clamped);
}

/* The slope and offset bias of a row whose broadcast operand has value v. */
typedef void (*microaot_dsp_fold_row_form_fn)(const void* context, int32_t v, int32_t* m, int32_t* bias);

/* A walk whose rows fold (microaot_broadcast_fold_kind's rows) in at most two dimensions, the other operand's
 * rows contiguous: row by row in the walk's order, without its odometer. 0 (nothing written) for other walks. */
static inline int microaot_dsp_fold_rows(const void* context, microaot_dsp_fold_row_form_fn form_of,
                                         const microaot_dsp_fold* k, int32_t num_dims, const int32_t* shape,
                                         const int32_t* v_strides, const int32_t* q_strides, const int8_t* v,
                                         const int8_t* q, int8_t* out) {
  const int32_t rows = num_dims == 2 ? shape[0] : 1, n = shape[num_dims - 1];
  const int32_t v_step = num_dims == 2 ? v_strides[0] : 0;
  int32_t r, m, bias;
  if (num_dims > 2 || (num_dims == 2 && q_strides[0] != n)) return 0;
  for (r = 0; r < rows; ++r, v += v_step, q += n, out += n) {
    form_of(context, *v, &m, &bias);
    microaot_dsp_fold_row(k, m, bias, q, out, n);
  }
  return 1;
}

/* A per-channel operand: `channels` values against `rows` rows of the other (`full`), contiguous. A table on the
 * stack holds each channel's entries for up to `limit` channels; a short vector's table repeats it over as many
 * rows as fit (a whole number of eights of elements where it can), and `span` runs all rows in one call, the
 * table starting again every `period` elements; a long vector goes by blocks of channels (every row's block,
 * then the next). `table_of` fills the entries of n elements from channel `first`. 0 (nothing written) when the
 * output overlaps `full` otherwise than exactly and blocks are needed: a block would overwrite inputs of the next. */
typedef void (*microaot_dsp_fold_table_fn)(const void* context, int32_t first, int32_t n, int32_t* table);
typedef void (*microaot_dsp_fold_span_fn)(const void* context, const int32_t* table, const int8_t* a, int8_t* out,
                                          int32_t n, int32_t period);
static inline int microaot_dsp_fold_channels(const void* context, microaot_dsp_fold_table_fn table_of,
                                             microaot_dsp_fold_span_fn span, const int8_t* full, int8_t* out,
                                             int32_t rows, int32_t channels, int32_t limit, int32_t* table) {
  int32_t first, r;
  if (channels <= limit) {
    int32_t per_span = limit / channels;
    while (per_span > 1 && per_span * channels % 8 != 0) --per_span;
    table_of(context, 0, per_span * channels, table);
    if (per_span * channels % 8 == 0) {
      span(context, table, full, out, rows * channels, per_span * channels);
      return 1;
    }
    for (r = 0; r < rows; ++r) {
      span(context, table, full + (ptrdiff_t)r * channels, out + (ptrdiff_t)r * channels, channels, channels);
    }
    return 1;
  }
  if (out != full && (uintptr_t)out < (uintptr_t)full + (size_t)rows * (size_t)channels &&
      (uintptr_t)full < (uintptr_t)out + (size_t)rows * (size_t)channels) {
    return 0;
  }
  for (first = 0; first < channels; first += limit) {
    const int32_t n = channels - first < limit ? channels - first : limit;
    table_of(context, first, n, table);
    for (r = 0; r < rows; ++r) {
      span(context, table, full + (ptrdiff_t)r * channels + first, out + (ptrdiff_t)r * channels + first, n, n);
    }
  }
  return 1;
}

/* The whole eights of a span of n elements whose table starts again every `period` elements (a multiple of 8, or
 * >= n): RUN(end, t) runs the elements from `out` to `end` against the table from `t` (advancing `out`), a whole
 * period at a time (about 17 instructions a period, one call site); then *left holds the odd elements at the end and *at their
 * table position (in elements). */
#define MICROAOT_DSP_FOLD_PERIODS(n, period, out, table, RUN, left, at)               \
  do {                                                                                \
    int8_t* const stop_ = (out) + ((n) & ~7);                                         \
    while ((out) != stop_) {                                                          \
      const int32_t* t_ = (table);                                                    \
      RUN((out) + (stop_ - (out) < (period) ? stop_ - (out) : (period)), t_);         \
    }                                                                                 \
    *(left) = (n) & 7, *(at) = ((n) & ~7) % (period);                                 \
  } while (0)

/* Fills table[filled .. n) with copies of table[0 .. filled) (a whole period), doubling what is copied. */
static inline void microaot_dsp_fold_repeat(int32_t* table, size_t filled, size_t n) {
  while (filled < n) {
    const size_t chunk = filled < n - filled ? filled : n - filled;
    memcpy(table + filled, table, chunk * sizeof(int32_t));
    filled += chunk;
  }
}

/* The table position of element i of a span: c0, c2, c1, c3 of each four (the lanes' order). */
static inline int32_t microaot_dsp_fold_lane(int32_t i) { return (i & ~3) + ((i & 1) << 1) + ((i & 2) >> 1); }

/* floor(m * q / 2^8) for an int8 q held in the top byte of x (x = q * 2^24, the rest 0): the high word of
 * m * x, the same floor of the same product (one SMULL where int64's shift by 8 takes three). */
static inline int32_t microaot_dsp_fold_top_term(int32_t m, uint32_t x) {
  return (int32_t)(((int64_t)m * (int32_t)x) >> 32);
}

/* Four table entries, in the lanes' order, of the four int8 values of word w (channels c .. c + 3, byte 0 first):
 * base + floor(m * q / 2^8) each. */
static inline void microaot_dsp_fold_terms4(int32_t* entry, uint32_t w, int32_t m, int32_t base) {
  entry[0] = base + microaot_dsp_fold_top_term(m, w << 24);
  entry[1] = base + microaot_dsp_fold_top_term(m, (w << 8) & 0xFF000000u);
  entry[2] = base + microaot_dsp_fold_top_term(m, (w << 16) & 0xFF000000u);
  entry[3] = base + microaot_dsp_fold_top_term(m, w & 0xFF000000u);
}

#endif /* MICROAOT_DSP_FOLD_H */
