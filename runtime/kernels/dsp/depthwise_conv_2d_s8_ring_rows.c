/* The DSP int8 DEPTHWISE_CONV_2D's bounds test, channel group constants and widened ring
 * (microaot/dsp_depthwise.h), out of line in a source of their own: linked by the full kernel
 * (dsp/depthwise_conv_2d_s8.c, for the layers it takes through the ring) and by the ring's own kernel
 * (dsp/depthwise_conv_2d_s8_ring.c), so that a model compiles them once whichever it calls. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "microaot/dsp_depthwise.h"

/* The same bounds as the compiler's depthwise_dsp_requantization_fits (compiler/ops/depthwise_dsp_path.cpp):
 * change both together. */
int microaot_dsp_depthwise_fits(const dw_params* p, const dw_channels* ch) {
  int32_t c, rounding_factor;
  if ((p->depth_multiplier != 1 && p->depth_multiplier % 4 != 0) || p->input_offset < -128 || p->input_offset > 128 ||
      p->filter_height * p->filter_width >= (1 << 14) || p->output_offset < -128 || p->output_offset > 128) {
    return 0;
  }
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


/* Both 16-bit lanes times 2 (no lane overflows). */
static inline uint32_t dw_double_lanes(uint32_t lanes) { return microaot_dsp_sadd16(lanes, lanes); }

__attribute__((noinline)) void microaot_dsp_depthwise_group_of(const dw_params* p, const int8_t* filter,
                                                              const dw_channels* ch, int32_t c, dw_group* g) {
  int32_t k;
  for (k = 0; k < 4; ++k) {
    const int32_t e = -ch->shift[c + k];
    g->bias_weights[k] = ch->bias != NULL ? 2 * ch->bias[c + k] : 0;
    g->step[k][0] = ch->multiplier[c + k];
    g->step[k][2] = e;
    g->step[k][1] = (2 * p->output_offset + 1) * ((int32_t)1 << (e - 1)); /* |.| < 2^30: microaot_dsp_depthwise_fits */
  }
  g->activation_min4 = 0x01010101u * (uint8_t)p->activation_min;
  g->activation_max4 = 0x01010101u * (uint8_t)p->activation_max;
  g->full_range = p->activation_min == -128 && p->activation_max == 127;
  if (p->filter_height == 3 && p->filter_width == 3) {
    for (k = 0; k < 9; ++k) {
      const uint32_t w = microaot_dsp_load4(filter + (size_t)k * (size_t)p->output_depth + (size_t)c);
      g->bias_weights[4 + 2 * k] = (int32_t)dw_double_lanes(microaot_dsp_sxtb16(w));
      g->bias_weights[5 + 2 * k] = (int32_t)dw_double_lanes(microaot_dsp_sxtb16_ror8(w));
    }
  }
}


/* The widened ring (3x3, no dilation, depth multiplier 1, stride 1): each input row a group's windows read is
 * widened once, its four channels plus the input offset as two words of 16-bit lanes (as the unrolled taps
 * widen them), into slot (row mod 4) of each of its columns and again into slot + 4. Output rows go in
 * pairs: the pair whose top window starts at input row t reads slots t mod 4 to t mod 4 + 3 in their own
 * row order, the lower window one slot down (microaot_dsp_mac4_widened_3x3_x2). A padding row or column holds
 * zero, which is what the raw zero point widens to, so every window, at an edge or not, takes the same nine
 * taps (the reference skips padding taps: each would add 0). The ring holds input columns [origin, origin +
 * cols) of a tile of output columns. */
typedef struct {
  uint32_t lanes[DW_RING_COLS][8][2]; /* slot 7 (slot 3 again) is never read: a store instead of a test */
  int32_t origin, cols;
  int32_t inside_begin, inside_end; /* the ring's columns inside the image: the others stay zero */
  int32_t first_row;                /* the image's first window's top row: slot 0 */
  size_t depth, row_bytes;          /* bytes from one input pixel (row) to the next */
  uint32_t offset;                  /* the input offset in both 16-bit lanes */
} dw_ring;

/* The ring slot of input row `row` (negative for padding rows above the image): rows widened in pairs
 * start at an even slot. */
static uint32_t dw_slot(const dw_ring* ring, int32_t row) { return (uint32_t)(row - ring->first_row) & 3u; }

static inline void dw_ring_set(dw_ring* ring, int32_t col, uint32_t slot, uint32_t even, uint32_t odd) {
  ring->lanes[col][slot][0] = even;
  ring->lanes[col][slot][1] = odd;
  ring->lanes[col][slot + 4][0] = even;
  ring->lanes[col][slot + 4][1] = odd;
}

/* The ring for input columns [origin, origin + cols): its columns outside the image zero in every slot, once
 * for all channel groups (the widening never writes them). */
static __attribute__((noinline)) void dw_ring_init(const dw_params* p, int32_t origin, int32_t cols, dw_ring* ring) {
  if (ring->cols == cols && ring->origin == origin) return; /* the previous group's tile */
  ring->depth = (size_t)p->input_depth;
  ring->row_bytes = (size_t)p->input_width * ring->depth;
  ring->offset = microaot_dsp_pack16(p->input_offset, p->input_offset);
  ring->origin = origin;
  ring->cols = cols;
  ring->inside_begin = origin < 0 ? -origin : 0;
  if (ring->inside_begin > cols) ring->inside_begin = cols; /* padding wider than the tile: all of it */
  ring->inside_end = p->input_width - origin < cols ? p->input_width - origin : cols;
  if (ring->inside_end < ring->inside_begin) ring->inside_end = ring->inside_begin;
  memset(ring->lanes, 0, (size_t)ring->inside_begin * sizeof ring->lanes[0]);
  memset(ring->lanes[ring->inside_end], 0, (size_t)(cols - ring->inside_end) * sizeof ring->lanes[0]);
}

/* Widens the in-image columns of two input rows, the upper input row `row` of `image` (at the group's channel),
 * the lower `lower` bytes further, into the even slot of row's pair and the next in one pass: the pass's
 * overhead once for both, the stores at fixed offsets. */
static __attribute__((noinline)) void dw_ring_widen2(dw_ring* ring, const int8_t* image, int32_t row, size_t lower) {
  const uint32_t slot = dw_slot(ring, row) & ~1u;
  const size_t depth = ring->depth;
  const uint32_t offset = ring->offset;
  const int32_t end = ring->inside_end;
  const int8_t* in;
  int32_t k = ring->inside_begin;
  if (k >= end) return; /* a tile wholly in the padding: no in-image column, and no address left of the image */
  in = image + (size_t)row * ring->row_bytes + (size_t)(ring->origin + k) * depth;
  for (; k < end; ++k, in += depth) {
    const uint32_t upper = microaot_dsp_load4(in), lower_word = microaot_dsp_load4(in + lower);
    const uint32_t upper02 = microaot_dsp_sxtab16(offset, upper), upper13 = microaot_dsp_sxtab16_ror8(offset, upper);
    const uint32_t lower02 = microaot_dsp_sxtab16(offset, lower_word);
    const uint32_t lower13 = microaot_dsp_sxtab16_ror8(offset, lower_word);
    uint32_t(*const at)[2] = &ring->lanes[k][slot]; /* slots slot, slot + 1 and again 4 further */
    at[0][0] = upper02;
    at[0][1] = upper13;
    at[1][0] = lower02;
    at[1][1] = lower13;
    at[4][0] = upper02;
    at[4][1] = upper13;
    at[5][0] = lower02;
    at[5][1] = lower13;
  }
}

/* dw_ring_fill2 where a row is padding: the other (if in the image) widened into both slots, then the padding
 * slots zeroed. */
static __attribute__((noinline)) void dw_ring_fill_edge(const dw_params* p, const int8_t* image, int32_t row,
                                                        dw_ring* ring) {
  const int upper_inside = row >= 0 && row < p->input_height, lower_inside = row + 1 >= 0 && row + 1 < p->input_height;
  const int32_t widened = upper_inside ? row : (lower_inside ? row + 1 : -1);
  const uint32_t slot = dw_slot(ring, row);
  int32_t k;
  if (widened >= 0) dw_ring_widen2(ring, image, widened, 0);
  for (k = ring->inside_begin; k < ring->inside_end; ++k) {
    if (!upper_inside) dw_ring_set(ring, k, slot, 0, 0);
    if (!lower_inside) dw_ring_set(ring, k, slot + 1, 0, 0);
  }
}

/* Input rows `row` and `row` + 1 (`row` at an even slot) into the ring, a padding row as zeros: in one pass
 * when both are in the image. */
static inline void dw_ring_fill2(const dw_params* p, const int8_t* image, int32_t row, dw_ring* ring) {
  if (row < 0 || row + 1 >= p->input_height) {
    dw_ring_fill_edge(p, image, row, ring);
    return;
  }
  dw_ring_widen2(ring, image, row, ring->row_bytes);
}


/* `n` output columns of a pair of rows from the windows at `in` on (16 words apart in the ring), `depth`
 * bytes apart from `out`, the lower row `lower` bytes further. The clamp [-128, 127] is the steps' SSAT, a
 * narrower one a SIMD clamp: a test per pair instead of a second copy of the loop. The lower row goes first:
 * with `lower` 0 (an odd last row) the upper row's store overwrites it, so one loop serves both. */
static inline void dw_pixels_ringed(const dw_group* g, const uint32_t* in, int32_t n, size_t depth, int8_t* out,
                                    size_t lower) {
  const uint32_t* const end = in + 16 * n;
  int32_t a[4], b[4];
  for (; in != end; in += 16, out += depth) {
    microaot_dsp_mac4_widened_3x3_x2(in, g->bias_weights, a, b);
    microaot_dsp_steps4x2(g->step, a, b);
    if (g->full_range) {
      microaot_dsp_store4(b, out + lower);
      microaot_dsp_store4(a, out);
    } else {
      microaot_dsp_clamp_store4(b, out + lower, g->activation_min4, g->activation_max4);
      microaot_dsp_clamp_store4(a, out, g->activation_min4, g->activation_max4);
    }
  }
}

/* Output rows [oy, oy + rows) of one image through the ring, two at a time (an odd last row with a lower one
 * whose results are overwritten): `output` at row oy and the tile's first column. */
static void dw_image_rows_ringed(const dw_params* p, const dw_group* g, const int8_t* image, dw_ring* ring,
                                 int32_t oy, int32_t rows, int8_t* output, size_t row_stride) {
  const size_t depth = (size_t)p->output_depth;
  const int32_t n = ring->cols - 2;
  int32_t k;
  ring->first_row = oy - p->pad_height;
  /* k = -2 widens the first pair's top two rows only (one call site: less code) */
  for (k = -2; k < rows; k += 2) {
    const int32_t top = ring->first_row + k; /* the upper window's top row */
    int8_t* const out = output + (size_t)(k < 0 ? 0 : k) * row_stride;
    dw_ring_fill2(p, image, top + 2, ring);
    if (k < 0) continue;
    /* an odd last row's lower window reads rows top + 1 to top + 3, widened by the dw_ring_fill2 calls so far
     * (zeros past the image): its results are stored over, never an unset slot read */
    dw_pixels_ringed(g, ring->lanes[0][dw_slot(ring, top)], n, depth, out, k + 1 < rows ? row_stride : 0);
  }
}

/* Output columns [ox_begin, ox_end) of rows [row_begin, row_end) (counted over all batches) of the group
 * through the ring, image by image: `input` and `output` at the group's channel. */
static __attribute__((noinline)) void dw_group_tile_ringed(const dw_params* p, const dw_group* g,
                                                           const int8_t* input, int8_t* output, size_t row_stride,
                                                           int32_t row_begin, int32_t row_end, int32_t ox_begin,
                                                           int32_t ox_end, dw_ring* ring) {
  const size_t image_size = (size_t)p->input_height * (size_t)p->input_width * (size_t)p->input_depth;
  int32_t row = row_begin;
  dw_ring_init(p, ox_begin - p->pad_width, ox_end - ox_begin + 2, ring);
  output += (size_t)ox_begin * (size_t)p->output_depth;
  while (row < row_end) {
    const int32_t oy = row % p->output_height;
    const int32_t rows = row_end - row < p->output_height - oy ? row_end - row : p->output_height - oy;
    dw_image_rows_ringed(p, g, input + (size_t)(row / p->output_height) * image_size, ring, oy, rows, output,
                         row_stride);
    row += rows;
    output += (size_t)rows * row_stride;
  }
}

/* Group by group, each tile by tile: one ring for all (the padding columns zeroed once). */
__attribute__((noinline)) void microaot_dsp_depthwise_rows_ringed(const dw_params* p, const int8_t* input,
                                                                  const int8_t* filter, const dw_channels* ch,
                                                                  int8_t* output, size_t row_stride,
                                                                  int32_t row_begin, int32_t row_end,
                                                                  int32_t groups_end) {
  const int32_t width = dw_tile_width();
  int32_t c, ox;
  dw_group g;
  dw_ring ring;
  ring.cols = 0; /* no tile yet */
  for (c = 0; c < groups_end; c += 4) {
    microaot_dsp_depthwise_group_of(p, filter, ch, c, &g);
    for (ox = 0; ox < p->output_width; ox += width) {
      const int32_t end = ox + width < p->output_width ? ox + width : p->output_width;
      dw_group_tile_ringed(p, &g, input + c, output + c, row_stride, row_begin, row_end, ox, end, &ring);
    }
  }
}
