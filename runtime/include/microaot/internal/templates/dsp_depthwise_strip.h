/* The DSP int8 DEPTHWISE_CONV_2D's strip (any filter, stride and dilation, output columns in tiles): per channel
 * group of four output channels, the input rows its windows read, each pixel's four lanes (the input bytes the
 * group's channels read) as a word, held in `slots` rows (a window's height, dilation included) each stored
 * twice (rows t to t + slots - 1 lie side by side from slot t mod slots on, as in dw_ring), their padding columns
 * and rows the input zero point: every window reads all its taps, a padding tap adding (zero point + offset) *
 * weight = 0 as the reference's skipped tap does, so that edge windows take the loop of the others. The offset is
 * in the sums' starting values (bias plus offset times each channel's sum of weights), the taps' weights widened
 * once per group: two windows a pass through microaot_dsp_mac4x2_strip. The tile's bounds are
 * microaot_fit_depthwise_strip_geometry's (microaot/fit/depthwise_conv_2d.h). Included by dsp/depthwise_conv_2d_s8.c
 * (depth multiplier 1: a pixel's four channels are one word) and dsp/depthwise_conv_2d_s8_multiplier_strip.c (output
 * channel c reads input channel c / multiplier: a word of at most two input bytes), each of which defines
 * dw_strip_pixels, the words of a row's pixels inside the image. */
#ifndef MICROAOT_DSP_DEPTHWISE_STRIP_H
#define MICROAOT_DSP_DEPTHWISE_STRIP_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "microaot/fit/depthwise_conv_2d.h"
#include "microaot/internal/dsp_depthwise.h"
#include "microaot/internal/dsp_depthwise_blocks.h"

/* The groups over one strip (dw_strip_shape's `groups`); an includer whose strips have one group defines it as 1
 * (dsp/depthwise_conv_2d_s8.c), so that its row loop keeps no test or call for more. */
#ifndef MICROAOT_DW_STRIP_GROUPS
#define MICROAOT_DW_STRIP_GROUPS(s) ((s)->groups)
#endif

typedef struct {
  int32_t table;             /* a group's table words (the strip follows the groups' tables) */
  int32_t slots, cols, tile; /* rows per window, strip columns (words) per row, output columns per tile */
  int32_t unroll;            /* taps a pass of the loop over a window's taps: 5, 3 or 1, a divisor of theirs */
  uint32_t padding;          /* the input zero point in each byte */
  uint32_t first_lanes;      /* depth multiplier above 1: 1 in the bytes of the lanes reading the group's first
                                input channel (the others read the next) */
  int32_t groups;            /* channel groups side by side over one strip (the same words: a multiplier of 8k) */
} dw_strip_shape;

/* The words of columns [begin, end) of a row, pixels from `in` on (`depth` bytes apart), into `a` and `b`: the
 * includer's. */
static void dw_strip_pixels(const dw_strip_shape* s, const int8_t* in, size_t depth, int32_t begin, int32_t end,
                            uint32_t* a, uint32_t* b);

/* The strip's shape for the layer and its tile (the fit rule's, microaot/fit/depthwise_conv_2d.h), one group; tile
 * 0: the strip does not take the layer. */
static dw_strip_shape dw_strip_shape_of(const dw_params* p, int32_t tile) {
  dw_strip_shape s = {0, 0, 0, 0, 0, 0, 0, 1};
  const int32_t taps = p->filter_height * p->filter_width;
  s.tile = tile;
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
  for (k = 0; k < 4; ++k) table[k] = g->bias_weights[k] + 2 * p->input_offset * sums[k];
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
      dw_strip_pixels(s, in, depth, begin, end, a, b);
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

/* A row's `n` outputs of group `g` (dw_strip_outputs) where several groups share the strip, a copy of the loop per
 * unroll form. Not inlined: inside the groups' loop the fourteen-register statements would find no registers. */
static __attribute__((noinline, unused)) void dw_strip_row_outputs(const dw_group* g, const dw_strip_shape* s,
                                                                   const int32_t* table, const uint32_t* in,
                                                                   size_t pair_step, size_t depth, int8_t* out,
                                                                   int32_t n) {
  if (s->unroll == 5) {
    dw_strip_outputs(g, table, in, pair_step, depth, out, n, 5);
  } else if (s->unroll == 3) {
    dw_strip_outputs(g, table, in, pair_step, depth, out, n, 3);
  } else {
    dw_strip_outputs(g, table, in, pair_step, depth, out, n, 1);
  }
}

/* Output columns [ox0, ox0 + n) of rows [row_begin, row_end) (counted over all batches) of the s->groups groups
 * from `g` on (their tables s->table words apart) through the strip: `input` at the first group's input channel,
 * `output` at its first output channel; with `scratch` each row there first, then to its place. */
static void dw_strip_tile(const dw_params* p, const dw_group* g, const dw_strip_shape* s, const int32_t* table,
                          const int8_t* input, int8_t* output, size_t row_stride, int32_t row_begin,
                          int32_t row_end, int8_t* scratch, int32_t ox0, int32_t n, uint32_t* strip) {
  const size_t image_size = (size_t)p->input_height * (size_t)p->input_width * (size_t)p->input_depth;
  const size_t depth = (size_t)p->output_depth, pair_step = 2 * (size_t)p->stride_width;
  const int32_t x0 = ox0 * p->stride_width - p->pad_width;
  int32_t row, k, oy = row_begin % p->output_height, next = 0;
  const int8_t* image = input + (size_t)(row_begin / p->output_height) * image_size;
  for (row = row_begin; row < row_end; ++row, output += row_stride) {
    const int32_t top = oy * p->stride_height - p->pad_height;
    int8_t* out = (scratch != NULL ? scratch : output) + (size_t)ox0 * depth;
    const uint32_t* in;
    if (row == row_begin || oy == 0 || next < top) next = top; /* a new image, or rows skipped */
    for (; next < top + s->slots; ++next) dw_strip_row(p, s, image, next, x0, strip);
    in = strip + (size_t)((top % s->slots + s->slots) % s->slots) * (size_t)s->cols;
    if (MICROAOT_DW_STRIP_GROUPS(s) == 1) {
      if (s->unroll == 5) { /* a copy of the loop per form: its test out of the loop */
        dw_strip_outputs(g, table, in, pair_step, depth, out, n, 5);
      } else if (s->unroll == 3) {
        dw_strip_outputs(g, table, in, pair_step, depth, out, n, 3);
      } else {
        dw_strip_outputs(g, table, in, pair_step, depth, out, n, 1);
      }
    } else {
      for (k = 0; k < MICROAOT_DW_STRIP_GROUPS(s); ++k) {
        dw_strip_row_outputs(g + k, s, table + (size_t)k * (size_t)s->table, in, pair_step, depth, out + 4 * k, n);
      }
    }
    if (scratch != NULL) dw_copy_channels(p, scratch, output, 4 * (size_t)MICROAOT_DW_STRIP_GROUPS(s));
    if (++oy == p->output_height) {
      oy = 0;
      image += image_size;
    }
  }
}

/* Rows [row_begin, row_end) of the s->groups groups from `g` on through the strip, tile by tile (see
 * dw_strip_tile): `input` at the first group's input channel, `filter`, `output` and `scratch` (or NULL) at its
 * first output channel. Not inlined: the strip and the tables are on its stack only. */
static __attribute__((noinline)) void dw_group_rows_strip(const dw_params* p, const dw_group* g,
                                                          const dw_strip_shape* s, const int8_t* input,
                                                          const int8_t* filter, int8_t* output, size_t row_stride,
                                                          int32_t row_begin, int32_t row_end, int8_t* scratch) {
  uint32_t words[MICROAOT_DEPTHWISE_STRIP_WORDS]; /* the groups' tables, then the strip */
  int32_t* const table = (int32_t*)words;
  const size_t tables = (size_t)MICROAOT_DW_STRIP_GROUPS(s) * (size_t)s->table;
  uint32_t* const strip = words + tables;
  const size_t used = tables + 2 * (size_t)s->slots * (size_t)s->cols;
  int32_t ox0, k;
  /* the last pair's window b may read up to a stride of spare words past the strip (the fit leaves them): defined
   * values, its sums unused */
  memset(words + used, 0, (size_t)p->stride_width * sizeof words[0]);
  for (k = 0; k < MICROAOT_DW_STRIP_GROUPS(s); ++k) dw_strip_table(p, g + k, s, filter + 4 * k, table + (size_t)k * (size_t)s->table);
  for (ox0 = 0; ox0 < p->output_width; ox0 += s->tile) {
    const int32_t n = p->output_width - ox0 < s->tile ? p->output_width - ox0 : s->tile;
    dw_strip_tile(p, g, s, table, input, output, row_stride, row_begin, row_end, scratch, ox0, n, strip);
  }
}

#endif /* MICROAOT_DSP_DEPTHWISE_STRIP_H */
