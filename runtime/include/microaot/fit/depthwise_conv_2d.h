/* Which DSP int8 DEPTHWISE_CONV_2D kernel may compute a layer, written once: the compiler's chooser
 * (compiler/ops/depthwise_conv_2d.cpp, through depthwise_dsp_path.cpp) picks by these, and the kernels' guards
 * (microaot_dsp_depthwise_fits in dsp/depthwise_conv_2d_s8_setup.c, and each specialised kernel's own) check
 * them at run time (a graph blob is untrusted). Pure functions of the params and the per-channel constants. */
#ifndef MICROAOT_FIT_DEPTHWISE_CONV_2D_H
#define MICROAOT_FIT_DEPTHWISE_CONV_2D_H

#include <stddef.h>
#include <stdint.h>

#include "microaot/kernels/conv.h"

/* A layer's per-channel constants as the DSP code reads them: the bias (NULL: none) and the requantization,
 * from the params' arrays in the full kernel, from their own argument in the ring's kernels (whose params leave
 * the arrays NULL). */
typedef struct {
  const int32_t *bias, *multiplier, *shift;
} microaot_depthwise_channels;

/* The DSP code's requantization bounds: |input + offset| <= 256 and |weight| <= 128, so fewer than 2^14 taps and
 * a bias below 2^29 in magnitude keep every sum below 2^30, and twice it fits in int32 for SMMLAR; per channel a
 * right shift e in [1, 31], a multiplier >= 0 and the rounding term of the output step below 2^30. */
/* The offsets within [-128, 128] and fewer than 2^14 taps (both requantization rules below). */
static inline int microaot_fit_depthwise_dsp_offsets(const microaot_depthwise_conv_2d_params_q* p) {
  return p->input_offset >= -128 && p->input_offset <= 128 && p->filter_height * p->filter_width < (1 << 14) &&
         p->output_offset >= -128 && p->output_offset <= 128;
}

static inline int microaot_fit_depthwise_dsp_requantization(const microaot_depthwise_conv_2d_params_q* p,
                                                            const microaot_depthwise_channels* ch) {
  int32_t c, rounding_factor;
  if (!microaot_fit_depthwise_dsp_offsets(p)) return 0;
  /* the rounding term 2^(e-1) + |offset| * 2^e = (2 |offset| + 1) * 2^(e-1) < 2^30: 2 |offset| + 1 < 2^(31-e) */
  rounding_factor = 2 * (p->output_offset < 0 ? -p->output_offset : p->output_offset) + 1;
  for (c = 0; c < p->output_depth; ++c) {
    const int32_t shift = ch->shift[c];
    if (shift > -1 || shift < -31 || ch->multiplier[c] < 0) return 0;
    if (ch->bias != NULL && (ch->bias[c] > (1 << 29) || ch->bias[c] < -(1 << 29))) return 0;
    if (rounding_factor >= (int32_t)1 << (31 + shift)) return 0;
  }
  return 1;
}

/* The multiplier kernel's requantization (depthwise_conv_2d_s8_multiplier): the bounds above, or per channel a left
 * shift L >= 0 (TFLM shifts the sum left, rounds its doubling high multiply and shifts nothing right): SMMLAR of the
 * doubled sum times 2^L is that multiply exactly while it stays in int32, (|bias| + taps * 2^15) * 2^(L+1) < 2^31,
 * and the output offset is then the whole rounding term. Channels of right shifts only: the rule above. */
static inline int microaot_fit_depthwise_dsp_requantization_left(const microaot_depthwise_conv_2d_params_q* p,
                                                                 const microaot_depthwise_channels* ch) {
  const int64_t taps_bound = (int64_t)p->filter_height * p->filter_width * 32768;
  int32_t c, right_only = 1;
  if (!microaot_fit_depthwise_dsp_offsets(p)) return 0;
  for (c = 0; c < p->output_depth; ++c) {
    const int64_t bias = ch->bias != NULL ? ch->bias[c] : 0, magnitude = bias < 0 ? -bias : bias;
    if (ch->shift[c] < 0) continue; /* the rule above, below */
    right_only = 0;
    if (ch->shift[c] > 29 || ch->multiplier[c] < 0 || magnitude > (1 << 29) ||
        ((magnitude + taps_bound) << (ch->shift[c] + 1)) >= ((int64_t)1 << 31)) {
      return 0;
    }
  }
  if (right_only) return microaot_fit_depthwise_dsp_requantization(p, ch);
  {
    /* the right-shifted channels under the rule above: each alone (its own view of one channel) */
    microaot_depthwise_conv_2d_params_q one = *p;
    microaot_depthwise_channels single;
    one.output_depth = 1;
    for (c = 0; c < p->output_depth; ++c) {
      if (ch->shift[c] >= 0) continue;
      single.bias = ch->bias != NULL ? ch->bias + c : NULL;
      single.multiplier = ch->multiplier + c;
      single.shift = ch->shift + c;
      if (!microaot_fit_depthwise_dsp_requantization(&one, &single)) return 0;
    }
  }
  return 1;
}

/* The full DSP kernel's fast paths (and the ring's): a depth multiplier of 1 or 4k, within the bounds. */
static inline int microaot_fit_depthwise_dsp(const microaot_depthwise_conv_2d_params_q* p,
                                             const microaot_depthwise_channels* ch) {
  return (p->depth_multiplier == 1 || p->depth_multiplier % 4 == 0) && microaot_fit_depthwise_dsp_requantization(p, ch);
}

/* The widened ring's columns (microaot/internal/dsp_depthwise.h): a tile's windows span at most as many input
 * columns, so a tile has 2 output columns fewer. */
#define MICROAOT_DEPTHWISE_RING_COLUMNS 14
#define MICROAOT_DEPTHWISE_RING_TILE_WIDTH (MICROAOT_DEPTHWISE_RING_COLUMNS - 2)
/* The ring's smallest output row: on smaller maps its set-up costs more than the clipped windows. */
#define MICROAOT_DEPTHWISE_RING_MIN_WIDTH 3

/* A 3x3 filter without dilation, depth multiplier 1: the group's widened weights and the unrolled taps. */
static inline int microaot_fit_depthwise_widened(const microaot_depthwise_conv_2d_params_q* p) {
  return p->depth_multiplier == 1 && p->filter_height == 3 && p->filter_width == 3 && p->dilation_height == 1 &&
         p->dilation_width == 1;
}

/* Whether the ring takes the layer: widened, stride 1 (at stride 2 each input pixel serves fewer windows than
 * its widening costs), rows of MICROAOT_DEPTHWISE_RING_MIN_WIDTH pixels or more. */
static inline int microaot_fit_depthwise_ringed(const microaot_depthwise_conv_2d_params_q* p) {
  return microaot_fit_depthwise_widened(p) && p->stride_width == 1 && p->stride_height == 1 &&
         p->output_width >= MICROAOT_DEPTHWISE_RING_MIN_WIDTH;
}

/* The small-map patch's rows (microaot_dsp_depthwise_rows_patched): widened, at any stride, an image's padded
 * input as its windows read it within one ring's lanes: at most 8 rows (a column's slots) and
 * MICROAOT_DEPTHWISE_RING_COLUMNS columns. VWW's last maps (6x6 and 3x3), where the clipped windows and the
 * ring's set-up cost more than the taps. */
static inline int microaot_fit_depthwise_patched(const microaot_depthwise_conv_2d_params_q* p) {
  return microaot_fit_depthwise_widened(p) && p->stride_height >= 1 && p->stride_width >= 1 &&
         p->output_height >= 1 && p->output_width >= 1 &&
         (int64_t)(p->output_height - 1) * p->stride_height + 3 <= 8 &&
         (int64_t)(p->output_width - 1) * p->stride_width + 3 <= MICROAOT_DEPTHWISE_RING_COLUMNS;
}

/* The ring's own kernel (depthwise_conv_2d_s8_ring): every channel group through the ring. It also needs the
 * bounds above (microaot_fit_depthwise_dsp). */
static inline int microaot_fit_depthwise_ring(const microaot_depthwise_conv_2d_params_q* p) {
  return p->output_depth % 4 == 0 && microaot_fit_depthwise_ringed(p);
}

/* The DSP palette kernel (depthwise_conv_2d_s8_widened_palette): the widened layers in whole groups of 4 channels
 * (each group's taps decoded into a block, then the ring's or the unrolled rows). It also needs the bounds above. */
static inline int microaot_fit_depthwise_widened_palette(const microaot_depthwise_conv_2d_params_q* p) {
  return p->output_depth > 0 && p->output_depth % 4 == 0 && microaot_fit_depthwise_widened(p);
}

/* Its ring-only build (depthwise_conv_2d_s8_ring_palette): the layers whose every row, in both variants, the ring
 * computes (stride 1, a row of 3 or more pixels in one tile), so that it links no unrolled windows. */
static inline int microaot_fit_depthwise_ring_palette(const microaot_depthwise_conv_2d_params_q* p) {
  return microaot_fit_depthwise_widened_palette(p) && microaot_fit_depthwise_ring(p) &&
         p->output_width <= MICROAOT_DEPTHWISE_RING_TILE_WIDTH;
}

/* The full DSP kernel's strip for the other depth-multiplier-1 filters (microaot/internal/templates/
 * dsp_depthwise_strip.h, in dsp/depthwise_conv_2d_s8.c; the multiplier's below):
 * the taps' table (4 + 4 * taps words) and two copies of the rows a window spans (dilation included), padded, in
 * MICROAOT_DEPTHWISE_STRIP_WORDS words of stack, with the words window b of a row's last pair may read past it (a
 * stride). The output columns of a tile, whole pairs when a row takes more than one; 0: the strip does not take
 * the layer (a tile under 4 columns, or under the row where `whole_row` asks for the row in one tile: in place,
 * the groups outermost, a later tile would read inputs an earlier one's rows overwrote; an input offset of -128,
 * whose zero point 128 would not pad as a byte). 2 KB: a 5x5 row of 36 output columns, a dilated 3x3 one of 43,
 * is one tile. */
#define MICROAOT_DEPTHWISE_STRIP_WORDS 512
/* The strip's tile whatever the depth multiplier (the geometry alone): the rule below and the multiplier's. */
static inline int32_t microaot_fit_depthwise_strip_geometry(const microaot_depthwise_conv_2d_params_q* p,
                                                            int whole_row) {
  const int64_t taps = (int64_t)p->filter_height * p->filter_width;
  const int64_t slots = (int64_t)(p->filter_height - 1) * p->dilation_height + 1;
  const int64_t span = (int64_t)(p->filter_width - 1) * p->dilation_width + 1;
  int64_t cols, tile;
  if (p->input_offset < -127 || p->stride_width < 1 || p->output_width < 1 || taps < 1 || slots < 1 || span < 1 ||
      taps > MICROAOT_DEPTHWISE_STRIP_WORDS / 4) {
    return 0;
  }
  cols = (MICROAOT_DEPTHWISE_STRIP_WORDS - (4 + 4 * taps) - p->stride_width) / (2 * slots);
  if (cols < span) return 0;
  tile = (cols - span) / p->stride_width + 1;
  if (tile >= p->output_width) return p->output_width;
  tile &= ~(int64_t)1; /* an odd tile would compute a window it does not store per tile and row */
  return whole_row || tile < 4 ? 0 : (int32_t)tile;
}

/* The full kernel's strip: depth multiplier 1. */
static inline int32_t microaot_fit_depthwise_strip_tile(const microaot_depthwise_conv_2d_params_q* p, int whole_row) {
  return p->depth_multiplier == 1 ? microaot_fit_depthwise_strip_geometry(p, whole_row) : 0;
}

/* depthwise_conv_2d_s8_multiplier's geometry: a depth multiplier of 2 or more over at least 4 output channels,
 * each input channel's outputs side by side (output depth = input depth * multiplier), so that any 4 channels from
 * an even one on read at most 2 neighbouring input channels. The kernel also needs the bounds above. */
static inline int microaot_fit_depthwise_multiplier(const microaot_depthwise_conv_2d_params_q* p) {
  return p->depth_multiplier >= 2 && p->output_depth >= 4 &&
         (int64_t)p->input_depth * p->depth_multiplier == p->output_depth;
}

/* depthwise_conv_2d_s8_multiplier_strip's layers (microaot/internal/templates/dsp_depthwise_strip.h, each pixel's
 * word the group's input bytes): the multiplier kernel's geometry, the DSP requantization bounds (right shifts: a
 * left shift stays with depthwise_conv_2d_s8_multiplier) and the strip's geometry, rows in tiles (its in-place
 * variant goes row by row through its scratch row). The tile's output columns; 0: the strip does not take the
 * layer. */
static inline int32_t microaot_fit_depthwise_multiplier_strip_tile(const microaot_depthwise_conv_2d_params_q* p,
                                                                   const microaot_depthwise_channels* ch) {
  if (!microaot_fit_depthwise_multiplier(p) || !microaot_fit_depthwise_dsp_requantization(p, ch)) return 0;
  return microaot_fit_depthwise_strip_geometry(p, 0);
}

#endif
