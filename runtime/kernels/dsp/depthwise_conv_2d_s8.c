/* int8 DEPTHWISE_CONV_2D with the DSP extension, bit-exact with the portable kernel, for depth multiplier 1
 * (input channel c feeds output channel c only) or a multiple of 4 (four output channels read one input
 * channel: micro_speech's layer, multiplier 8). Each output row is done four channels at a time over all its
 * pixels: each tap's four inputs (or one, replicated) and four weights widened to 16-bit lanes with
 * SXTAB16/SXTB16 (the input offset added on the way) and accumulated per channel with SMLABB/SMLATT from the
 * bias on. 3x3 windows without dilation (depth multiplier 1): at stride 1 through the widened ring (each input
 * row widened once, output rows in pairs: see dw_ring in microaot/internal/dsp_depthwise.h, which KWS's layers
 * also reach through a kernel of their own), a map whose padded input fits one ring (any stride) through the
 * patch (dsp/depthwise_conv_2d_s8_patch.c), else a group's rows counted on in one function, a window wholly
 * inside the image unrolled, one at an edge by its in-image taps only, as the reference does, in a function of
 * its own so that its sums stay in registers. Other filters (depth multiplier 1) through the strip (dw_strip
 * below: every window, edge or not, over a zero-point-padded copy of the group's rows, two a pass), beyond its
 * bounds each window by its in-image taps (dw_group_row_any). The output step is one SMMLAR per value with the
 * group's constants computed once (see dw_group), four values (eight in the ring's pairs) in one asm statement.
 * Other depth multipliers and requantizations outside the fast path's bounds (microaot_dsp_depthwise_fits)
 * take the portable code. */
/* microaot-links: kernels/dsp/depthwise_conv_2d_s8_setup.c */
/* microaot-links: kernels/dsp/depthwise_conv_2d_s8_portable.c */
/* microaot-links: kernels/dsp/depthwise_conv_2d_s8_patch.c */
/* microaot-links: kernels/dsp/depthwise_conv_2d_s8_rows_3x3.c */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "microaot/internal/dsp_dot.h"
#include "microaot/kernels/conv.h"
#include "microaot/internal/window.h"

#include "microaot/internal/dsp_depthwise.h"

static const int32_t* dw_bias(const dw_group* g) { return g->bias_weights; }

static inline void dw_tap4(const int8_t* in, const int8_t* w, uint32_t offset, int32_t s[4]) {
  const uint32_t weights = microaot_dsp_load4(w);
  microaot_dsp_mac4_lanes(microaot_dsp_load4(in), microaot_dsp_sxtb16(weights), microaot_dsp_sxtb16_ror8(weights),
                          offset, s);
}

/* Four channels over the in-image taps of window (y, x): `image` and `filter` start at the group's channel. */
/* Four output channels of one input channel (a depth multiplier that is a multiple of 4) over the in-image
 * taps of window (y, x), added to sums: each tap's input byte (plus offset) in both 16-bit lanes. `image` starts at the
 * input channel, `filter` at the first output channel. Not inlined: the sums stay in registers. */
static __attribute__((noinline)) void dw_taps_replicated(const dw_params* p, const int8_t* image,
                                                         const int8_t* filter, const microaot_window* y,
                                                         const microaot_window* x, int32_t sums[4]) {
  const size_t depth = (size_t)p->output_depth, in_depth = (size_t)p->input_depth;
  const size_t in_step = (size_t)p->dilation_width * in_depth, w_row_step = (size_t)p->filter_width * depth;
  const size_t in_row_step = (size_t)p->dilation_height * (size_t)p->input_width * in_depth;
  const uint32_t offset = microaot_dsp_pack16(p->input_offset, p->input_offset);
  const int32_t n = x->end - x->begin;
  const int8_t *in_row, *w_row;
  int32_t fy, t, s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  if (n <= 0 || y->end <= y->begin) return; /* no tap inside: the pointers below would leave the arrays */
  in_row = image + ((size_t)(y->origin + y->begin * p->dilation_height) * (size_t)p->input_width +
                    (size_t)(x->origin + x->begin * p->dilation_width)) * in_depth;
  w_row = filter + ((size_t)y->begin * (size_t)p->filter_width + (size_t)x->begin) * depth;
  for (fy = y->begin; fy < y->end; ++fy, in_row += in_row_step, w_row += w_row_step) {
    const int8_t* in = in_row;
    const int8_t* w = w_row;
    for (t = 0; t < n; ++t, in += in_step, w += depth) {
      /* the byte in bytes 0 and 2: both lanes of v hold input + offset */
      const uint32_t v = microaot_dsp_sxtab16(offset, 0x00010001u * (uint8_t)*in), weights = microaot_dsp_load4(w);
      const uint32_t w02 = microaot_dsp_sxtb16(weights), w13 = microaot_dsp_sxtb16_ror8(weights);
      s0 = microaot_dsp_smlabb(v, w02, s0);
      s2 = microaot_dsp_smlatt(v, w02, s2);
      s1 = microaot_dsp_smlabb(v, w13, s1);
      s3 = microaot_dsp_smlatt(v, w13, s3);
    }
  }
  sums[0] += s0;
  sums[1] += s1;
  sums[2] += s2;
  sums[3] += s3;
}

/* Four channels over the in-image taps of window (y, x): `image` starts at the group's input channel, `filter`
 * at its first output channel; each channel reads its own input byte (depth multiplier 1), or see
 * dw_taps_replicated. */
static void dw_taps(const dw_params* p, const int8_t* image, const int8_t* filter, const microaot_window* y,
                    const microaot_window* x, int32_t s[4]) {
  const size_t depth = (size_t)p->output_depth, in_depth = (size_t)p->input_depth;
  const uint32_t offset = microaot_dsp_pack16(p->input_offset, p->input_offset);
  int32_t fy, fx;
  if (p->depth_multiplier != 1) {
    dw_taps_replicated(p, image, filter, y, x, s);
    return;
  }
  for (fy = y->begin; fy < y->end; ++fy) {
    const int32_t in_y = y->origin + fy * p->dilation_height;
    const int8_t* in_row = image + (size_t)in_y * (size_t)p->input_width * in_depth;
    const int8_t* w_row = filter + (size_t)fy * (size_t)p->filter_width * depth;
    for (fx = x->begin; fx < x->end; ++fx) {
      dw_tap4(in_row + (size_t)(x->origin + fx * p->dilation_width) * in_depth, w_row + (size_t)fx * depth, offset,
              s);
    }
  }
}

/* Output columns [0, output width) of one row for the group at channel c, each window on its own, by the
 * filter's own weights (filters other than 3x3 or dilated): the sums doubled afterwards. */
static void dw_group_row_any(const dw_params* p, const dw_group* g, const int8_t* image, const int8_t* filter,
                             const microaot_window* y, int8_t* out) {
  const size_t depth = (size_t)p->output_depth;
  int32_t ox, k, s[4];
  for (ox = 0; ox < p->output_width; ++ox) {
    const microaot_window x = microaot_window_of(ox, p->stride_width, p->pad_width, p->filter_width,
                                                 p->dilation_width, p->input_width);
    memset(s, 0, sizeof s);
    dw_taps(p, image, filter, y, &x, s);
    for (k = 0; k < 4; ++k) s[k] = 2 * s[k] + dw_bias(g)[k];
    dw_store4_tested(g, s, out + (size_t)ox * depth);
  }
}

/* The general path's strip (depth multiplier 1, any filter other than the 3x3 undilated ones, any stride and
 * dilation): per channel group, the input rows its windows read, each pixel's four channels as a word, held in
 * `slots` rows (a window's height, dilation included) each stored twice (rows t to t + slots - 1 lie side by side
 * from slot t mod slots on, as in dw_ring), their padding columns and rows the input zero point: every window
 * reads all its taps, a padding tap adding (zero point + offset) * weight = 0 as the reference's skipped tap
 * does, so that edge windows take the loop of the others. The offset is in the sums' starting values (bias plus
 * offset times each channel's sum of weights), the taps' weights widened once per group: two windows a pass
 * through microaot_dsp_mac4x2_strip. Output columns go in tiles of the strip's width; the bounds are
 * microaot_fit_depthwise_strip_tile's (microaot/fit/depthwise_conv_2d.h), other layers keep dw_group_row_any. */
typedef struct {
  int32_t table;             /* the table's words, the strip's first word */
  int32_t slots, cols, tile; /* rows per window, strip columns (words) per row, output columns per tile */
  int32_t unroll;            /* taps a pass of the loop over a window's taps: 5, 3 or 1, a divisor of theirs */
  uint32_t padding;          /* the input zero point in each byte */
} dw_strip_shape;

/* The strip's shape for the layer; tile 0: the strip does not take it (`whole_row`: see
 * microaot_fit_depthwise_strip_tile). */
static dw_strip_shape dw_strip_shape_of(const dw_params* p, int whole_row) {
  dw_strip_shape s = {0, 0, 0, 0, 0, 0};
  const int32_t taps = p->filter_height * p->filter_width;
  s.tile = microaot_fit_depthwise_strip_tile(p, whole_row);
  if (s.tile == 0) return s;
  s.table = 4 + 4 * taps;
  s.slots = (p->filter_height - 1) * p->dilation_height + 1;
  s.cols = (s.tile - 1) * p->stride_width + (p->filter_width - 1) * p->dilation_width + 1;
  s.padding = 0x01010101u * (uint8_t)(int8_t)(-p->input_offset);
  s.unroll = taps % 5 == 0 ? 5 : taps % 3 == 0 ? 3 : 1;
  return s;
}

/* The group's sums' starting values and tap entries (microaot_dsp_mac4x2_strip) into `table`: `filter` at the
 * group's channel, taps in reverse order so that the top-left one (offset 0) ends the loop. */
static void dw_strip_table(const dw_params* p, const dw_group* g, const dw_strip_shape* s, const int8_t* filter,
                           int32_t* table) {
  const size_t depth = (size_t)p->output_depth;
  const int32_t taps = p->filter_height * p->filter_width;
  int32_t t, k, sums[4] = {0, 0, 0, 0};
  int32_t* e = table + 4 * taps; /* tap 0's entry: the last */
  for (t = 0; t < taps; ++t, e -= 4) {
    const int8_t* w = filter + (size_t)t * depth;
    const int32_t fy = t / p->filter_width, fx = t % p->filter_width;
    e[0] = 4 * (fy * p->dilation_height * s->cols + fx * p->dilation_width);
    e[1] = e[0] + 4 * p->stride_width;
    e[2] = (int32_t)microaot_dsp_pack16(2 * w[0], 2 * w[2]); /* doubled, as the sums the output step takes */
    e[3] = (int32_t)microaot_dsp_pack16(2 * w[1], 2 * w[3]);
    for (k = 0; k < 4; ++k) sums[k] += w[k];
  }
  for (k = 0; k < 4; ++k) table[k] = dw_bias(g)[k] + 2 * p->input_offset * sums[k];
}

/* Input row r (any, padding outside the image) into its two slots, the columns from input column x0 on. */
static void dw_strip_row(const dw_params* p, const dw_strip_shape* s, const int8_t* image, int32_t r, int32_t x0,
                         uint32_t* strip) {
  const int32_t slot = (r % s->slots + s->slots) % s->slots;
  uint32_t* a = strip + (size_t)slot * (size_t)s->cols;
  uint32_t* b = a + (size_t)s->slots * (size_t)s->cols;
  const size_t depth = (size_t)p->input_depth;
  int32_t begin = 0, end = 0, c; /* the columns inside the image: [begin, end) */
  if (r >= 0 && r < p->input_height) {
    begin = x0 < 0 ? -x0 : 0; /* below cols: the padding is under a window's span */
    end = p->input_width - x0 < s->cols ? p->input_width - x0 : s->cols;
    if (end > begin) {
      const int8_t* in = image + ((size_t)r * (size_t)p->input_width + (size_t)(x0 + begin)) * depth;
      for (c = begin; c < end; ++c, in += depth) a[c] = b[c] = microaot_dsp_load4(in);
    } else {
      end = begin; /* a tile wholly in the right padding */
    }
  }
  for (c = 0; c < begin; ++c) a[c] = b[c] = s->padding;
  for (c = end; c < s->cols; ++c) a[c] = b[c] = s->padding;
}

/* Two windows from `in` on (microaot_dsp_mac4x2_strip, `unroll` taps a pass: a constant at each call). */
static inline __attribute__((always_inline)) void dw_strip_pair(const uint32_t* in, const int32_t* table,
                                                                int32_t a[4], int32_t b[4], int unroll) {
  if (unroll == 5) {
    microaot_dsp_mac4x2_strip_x5(in, table, a, b);
  } else if (unroll == 3) {
    microaot_dsp_mac4x2_strip_x3(in, table, a, b);
  } else {
    microaot_dsp_mac4x2_strip(in, table, a, b);
  }
}

/* `n` output columns of a row from window `in` on, `pair_step` words from a pair to the next, `depth` bytes apart
 * from `out`, two a pass; an odd last one's window b lies one stride past the strip's last used column, in the
 * spare words, and is not stored. */
static inline __attribute__((always_inline)) void dw_strip_outputs(const dw_group* g, const int32_t* table,
                                                                   const uint32_t* in, size_t pair_step,
                                                                   size_t depth, int8_t* out, int32_t n,
                                                                   int unroll) {
  int32_t a[4], b[4];
  for (; n > 0; n -= 2, out += 2 * depth, in += pair_step) {
    dw_strip_pair(in, table, a, b, unroll);
    microaot_dsp_output_steps4x2(g->output_step, a, b);
    if (g->full_range) {
      microaot_dsp_store4(a, out);
      if (n > 1) microaot_dsp_store4(b, out + depth);
    } else {
      microaot_dsp_clamp_store4(a, out, g->activation_min4, g->activation_max4);
      if (n > 1) microaot_dsp_clamp_store4(b, out + depth, g->activation_min4, g->activation_max4);
    }
  }
}

/* Output columns [ox0, ox0 + n) of rows [row_begin, row_end) (counted over all batches) of group `g` through the
 * strip: `input` and `output` at the group's channel; with `scratch` each row there first, then to its place. */
static void dw_strip_tile(const dw_params* p, const dw_group* g, const dw_strip_shape* s, const int32_t* table,
                          const int8_t* input, int8_t* output, size_t row_stride, int32_t row_begin,
                          int32_t row_end, int8_t* scratch, int32_t ox0, int32_t n, uint32_t* strip) {
  const size_t image_size = (size_t)p->input_height * (size_t)p->input_width * (size_t)p->input_depth;
  const size_t depth = (size_t)p->output_depth, pair_step = 2 * (size_t)p->stride_width;
  const int32_t x0 = ox0 * p->stride_width - p->pad_width;
  int32_t row, oy = row_begin % p->output_height, next = 0;
  const int8_t* image = input + (size_t)(row_begin / p->output_height) * image_size;
  for (row = row_begin; row < row_end; ++row, output += row_stride) {
    const int32_t top = oy * p->stride_height - p->pad_height;
    int8_t* out = (scratch != NULL ? scratch : output) + (size_t)ox0 * depth;
    const uint32_t* in;
    if (row == row_begin || oy == 0 || next < top) next = top; /* a new image, or rows skipped */
    for (; next < top + s->slots; ++next) dw_strip_row(p, s, image, next, x0, strip);
    in = strip + (size_t)((top % s->slots + s->slots) % s->slots) * (size_t)s->cols;
    if (s->unroll == 5) { /* a copy of the loop per form: its test out of the loop */
      dw_strip_outputs(g, table, in, pair_step, depth, out, n, 5);
    } else if (s->unroll == 3) {
      dw_strip_outputs(g, table, in, pair_step, depth, out, n, 3);
    } else {
      dw_strip_outputs(g, table, in, pair_step, depth, out, n, 1);
    }
    if (scratch != NULL) dw_copy_channels(p, scratch, output, 4);
    if (++oy == p->output_height) {
      oy = 0;
      image += image_size;
    }
  }
}

/* Rows [row_begin, row_end) of group `g` (channels c to c + 3) through the strip, tile by tile (see
 * dw_strip_tile). Not inlined: the strip and the table are on its stack only. */
static __attribute__((noinline)) void dw_group_rows_strip(const dw_params* p, const dw_group* g,
                                                          const dw_strip_shape* s, const int8_t* input,
                                                          const int8_t* filter, int8_t* output, size_t row_stride,
                                                          int32_t row_begin, int32_t row_end, int8_t* scratch,
                                                          int32_t c) {
  uint32_t words[MICROAOT_DEPTHWISE_STRIP_WORDS]; /* the table, then the strip */
  int32_t* const table = (int32_t*)words;
  uint32_t* const strip = words + s->table;
  const size_t used = (size_t)s->table + 2 * (size_t)s->slots * (size_t)s->cols;
  int32_t ox0;
  /* the last pair's window b may read the spare words past the strip: defined values, its sums unused */
  memset(words + used, 0, (MICROAOT_DEPTHWISE_STRIP_WORDS - used) * sizeof words[0]);
  dw_strip_table(p, g, s, filter + c, table);
  for (ox0 = 0; ox0 < p->output_width; ox0 += s->tile) {
    const int32_t n = p->output_width - ox0 < s->tile ? p->output_width - ox0 : s->tile;
    dw_strip_tile(p, g, s, table, input + c, output + c, row_stride, row_begin, row_end,
                  scratch != NULL ? scratch + c : NULL, ox0, n, strip);
  }
}

/* Channel c (one of the depth % 4 last) of every pixel of one row, by the general output step. */
static void dw_channel_row(const dw_params* p, const int32_t* bias, const int8_t* image, const int8_t* filter,
                           const microaot_window* y, int32_t c, int8_t* out) {
  const size_t depth = (size_t)p->output_depth;
  const microaot_dsp_output_stage stage = MICROAOT_DSP_OUTPUT_STAGE(p, bias);
  int32_t ox, fy, fx;
  for (ox = 0; ox < p->output_width; ++ox) {
    const microaot_window x =
        microaot_window_of(ox, p->stride_width, p->pad_width, p->filter_width, p->dilation_width, p->input_width);
    int32_t sum = 0;
    for (fy = y->begin; fy < y->end; ++fy) {
      const int32_t in_y = y->origin + fy * p->dilation_height;
      for (fx = x.begin; fx < x.end; ++fx) {
        const int32_t in_x = x.origin + fx * p->dilation_width;
        const int32_t value = image[((size_t)in_y * (size_t)p->input_width + (size_t)in_x) * depth + (size_t)c];
        sum += (value + p->input_offset) * filter[(size_t)(fy * p->filter_width + fx) * depth + (size_t)c];
      }
    }
    out[(size_t)ox * depth + (size_t)c] = microaot_dsp_output(&stage, sum, c);
  }
}

/* dw_rows's channels [c, depth) outside the ring: unrolled 3x3 windows, any other filter, the last depth % 4
 * channels one by one. */
static __attribute__((noinline)) void dw_rows_from(const dw_params* p, const int8_t* input, const int8_t* filter,
                                                   const dw_channels* ch, int8_t* output, size_t row_stride,
                                                   int32_t row_begin, int32_t row_end, int8_t* row_scratch,
                                                   int32_t c) {
  const size_t image_size = (size_t)p->input_height * (size_t)p->input_width * (size_t)p->input_depth;
  int32_t row, k;
  dw_group g;
  for (; c < p->output_depth; c += 4) {
    const int whole = c + 4 <= p->output_depth; /* else the last depth % 4 channels */
    if (whole) microaot_dsp_depthwise_group_of(p, filter, ch, c, &g);
    if (whole && microaot_fit_depthwise_widened(p)) {
      microaot_dsp_depthwise_group_rows_3x3(p, &g, input + c, output + c, row_stride, row_begin, row_end,
                                            row_scratch != NULL ? row_scratch + c : NULL);
      continue;
    }
    if (whole) {
      const dw_strip_shape s = dw_strip_shape_of(p, row_scratch != NULL);
      if (s.tile > 0) {
        dw_group_rows_strip(p, &g, &s, input, filter, output, row_stride, row_begin, row_end, row_scratch, c);
        continue;
      }
    } else if (c >= 4 && row_scratch == NULL && !microaot_fit_depthwise_widened(p)) {
      /* The last depth % 4 channels as the group of the last four, whose first ones' bytes it writes again, the
       * same: output apart from input (with a scratch row, in place, the group would read those channels'
       * inputs already overwritten). The 3x3 layers keep their code. */
      const dw_strip_shape s = dw_strip_shape_of(p, 0);
      if (s.tile > 0) {
        microaot_dsp_depthwise_group_of(p, filter, ch, p->output_depth - 4, &g);
        dw_group_rows_strip(p, &g, &s, input, filter, output, row_stride, row_begin, row_end, NULL,
                            p->output_depth - 4);
        continue;
      }
    }
    for (row = row_begin; row < row_end; ++row) {
      const int8_t* image = input + (size_t)(row / p->output_height) * image_size;
      const int32_t oy = row % p->output_height;
      const microaot_window y = microaot_window_of(oy, p->stride_height, p->pad_height, p->filter_height,
                                                   p->dilation_height, p->input_height);
      int8_t* out = output + (size_t)(row - row_begin) * row_stride;
      int8_t* dst = row_scratch != NULL ? row_scratch : out;
      if (whole) {
        dw_group_row_any(p, &g, image + c / p->depth_multiplier, filter + c, &y, dst + c);
      } else {
        for (k = c; k < p->output_depth; ++k) dw_channel_row(p, ch->bias, image, filter, &y, k, dst);
      }
      if (row_scratch != NULL) dw_copy_channels(p, row_scratch + c, out + c, whole ? 4 : (size_t)(p->output_depth - c));
    }
  }
}

/* Output rows [row_begin, row_end) (counted over all batches), channel group by channel group (each group's
 * constants once), into `output` (row i at output + i * row_stride), or with row_scratch each group's part
 * of a row into the scratch row first and then to its place (see the overlap variant). The ring and the other
 * paths in functions of their own: the stack holds either's data, not both. */
static void dw_rows(const dw_params* p, const int8_t* input, const int8_t* filter, const dw_channels* ch,
                    int8_t* output, size_t row_stride, int32_t row_begin, int32_t row_end, int8_t* row_scratch) {
  int32_t c = 0;
  /* The ring reads a row's inputs before the row's outputs are written, as the scratch row ensures
   * elsewhere: the ring needs no scratch row, but with one (overlap) the whole row in one tile, else a
   * later tile would read inputs that an earlier tile's later rows overwrote. */
  if (microaot_fit_depthwise_patched(p)) { /* as the ring: every group's inputs widened before its outputs */
    c = p->output_depth / 4 * 4;
    microaot_dsp_depthwise_rows_patched(p, input, filter, ch, output, row_stride, row_begin, row_end, c);
  } else if (microaot_fit_depthwise_ringed(p) &&
             (row_scratch == NULL || MICROAOT_DEPTHWISE_RING_TILE_WIDTH >= p->output_width)) {
    c = p->output_depth / 4 * 4; /* the whole groups; the last depth % 4 channels by dw_rows_from */
    microaot_dsp_depthwise_rows_ringed(p, input, filter, ch, output, row_stride, row_begin, row_end, c);
  }
  dw_rows_from(p, input, filter, ch, output, row_stride, row_begin, row_end, row_scratch, c);
}

void microaot_depthwise_conv_2d_s8(const microaot_depthwise_conv_2d_params_q* params, const int8_t* input,
                                   const int8_t* filter, const int32_t* bias, int8_t* output) {
  const size_t row_size = (size_t)params->output_width * (size_t)params->output_depth;
  const dw_channels ch = dw_channels_of(params, bias);
  if (!microaot_dsp_depthwise_fits(params, &ch)) {
    microaot_depthwise_conv_2d_s8_portable(params, input, filter, bias, output);
    return;
  }
  dw_rows(params, input, filter, &ch, output, row_size, 0, params->batches * params->output_height, NULL);
}

/* Output channel c reads input channel c only. When output and input lie a whole number of pixels apart,
 * every output byte overwrites an input byte of its own channel, so a channel group done row by row (each
 * row through the scratch row, as the portable kernel does with whole rows) sees the same inputs as in
 * whole-row order: the groups go outermost and each computes its constants once. Otherwise (and with a depth
 * multiplier above 1, where output channel c reads input channel c / multiplier) whole rows. */
void microaot_depthwise_conv_2d_s8_overlap(const microaot_depthwise_conv_2d_params_q* params, const int8_t* input,
                                           const int8_t* filter, const int32_t* bias, int8_t* output,
                                           void* scratch) {
  const size_t row_size = (size_t)params->output_width * (size_t)params->output_depth;
  const int32_t rows = params->batches * params->output_height;
  const dw_channels ch = dw_channels_of(params, bias);
  int32_t row;
  if (!microaot_dsp_depthwise_fits(params, &ch)) {
    microaot_depthwise_conv_2d_s8_overlap_portable(params, input, filter, bias, output, scratch);
    return;
  }
  if (params->depth_multiplier == 1 && dw_whole_pixels_apart(input, output, params->output_depth)) {
    dw_rows(params, input, filter, &ch, output, row_size, 0, rows, (int8_t*)scratch);
    return;
  }
  for (row = 0; row < rows; ++row) {
    dw_rows(params, input, filter, &ch, (int8_t*)scratch, row_size, row, row + 1, NULL);
    memcpy(output + (size_t)row * row_size, scratch, row_size);
  }
}
