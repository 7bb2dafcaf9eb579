/* The DSP int8 DEPTHWISE_CONV_2D's widened ring (microaot/internal/dsp_depthwise.h): a tile of one channel group's rows.
 * Out of line in a source of its own, linked (through dsp/depthwise_conv_2d_s8_setup.c, the loop over groups
 * and tiles) by the full kernel (dsp/depthwise_conv_2d_s8.c, for the layers it takes through the ring) and by
 * the ring's own kernel (dsp/depthwise_conv_2d_s8_ring.c), so that a model compiles it once whichever it
 * calls. */
/* microaot-links: kernels/dsp/depthwise_conv_2d_s8_pairs_s1.c */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "microaot/internal/dsp_depthwise.h"

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
    dw_pixel_pairs(g, ring->lanes[0][dw_slot(ring, top)], n, 16, depth, out, k + 1 < rows ? row_stride : 0);
  }
}

void microaot_dsp_depthwise_tile_ringed(const dw_params* p, const dw_group* g, const int8_t* input, int8_t* output,
                                        size_t row_stride, int32_t row_begin, int32_t row_end, int32_t ox_begin,
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
