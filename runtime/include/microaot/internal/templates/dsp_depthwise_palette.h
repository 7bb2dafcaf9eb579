/* The entry points of the DSP DEPTHWISE_CONV_2D palette kernels, shared by dsp/depthwise_conv_2d_s8_widened_palette.c
 * (every layer of microaot_fit_depthwise_widened_palette: the widened ring at stride 1, else the unrolled windows)
 * and dsp/depthwise_conv_2d_s8_ring_palette.c (microaot_fit_depthwise_ring_palette's layers: the ring alone, so
 * that it links no unrolled windows), which define before including it:
 *   MICROAOT_FN, MICROAOT_FN_OVERLAP  the entry points' names
 *   MICROAOT_DWP_UNROLLED  1 when the kernel takes layers outside the ring's (and links the unrolled windows)
 * A depthwise weight serves every output pixel, so each group of 4 channels is decoded once per call into a block
 * of the scratch, in the filter's own order (a tap's 4 channels side by side), then set up by the DSP kernel's
 * own group set-up and run over all the rows by its own rows: the arithmetic is the DSP kernel's, not a copy. Any
 * other layer is refused with a status before a byte of the output is written. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "microaot/internal/dsp_depthwise.h"
#include "microaot/internal/palette.h"
#include "microaot/kernels/conv.h"
#include "microaot/status.h"

#define DWP_TAPS 9

/* What every group of a call reads: the palette, the rows, and where they go. */
typedef struct {
  const uint8_t* indices;
  const int8_t* table;
  int bits;
  dw_channels ch;
  int8_t* block;      /* MICROAOT_DEPTHWISE_PALETTE_BLOCK_BYTES: the group's taps decoded */
  int8_t* row;        /* the overlap variant's scratch row, or NULL */
  int ringed;         /* the group's rows through the widened ring */
} dwp_call;

/* The layers the kernel takes, within microaot_fit_depthwise_widened_palette. */
static int dwp_takes(const dw_params* p) {
#if MICROAOT_DWP_UNROLLED
  (void)p;
  return 1;
#else
  return microaot_fit_depthwise_ring_palette(p);
#endif
}

/* Channels [c, c + 4)'s taps decoded into the block, tap k's four weights at block + 4 k, as the filter holds
 * them. */
static void dwp_decode_group(const dwp_call* k, int32_t c) {
  int32_t j;
  for (j = 0; j < 4; ++j) {
    microaot_palette_decode_strided(k->indices, k->bits, k->table, (size_t)(c + j), DWP_TAPS, k->block + j, 4);
  }
}

/* Output rows [row_begin, row_end) (counted over all batches) of every group into `output` (row i at
 * output + i * row_stride), group by group: each group decoded and set up once. */
static void dwp_rows(const dw_params* p, const dwp_call* k, const int8_t* input, int8_t* output, size_t row_stride,
                     int32_t row_begin, int32_t row_end) {
  int32_t c;
  dw_group g;
  dw_ring ring;
  ring.cols = 0; /* no tile yet */
  for (c = 0; c < p->output_depth; c += 4) {
    dwp_decode_group(k, c);
    microaot_dsp_depthwise_group_at(p, k->block, 4, &k->ch, c, &g);
#if MICROAOT_DWP_UNROLLED
    if (!k->ringed) {
      microaot_dsp_depthwise_group_rows_3x3(p, &g, input + c, output + c, row_stride, row_begin, row_end,
                                            k->row != NULL ? k->row + c : NULL);
      continue;
    }
#endif
    microaot_dsp_depthwise_group_ringed(p, &g, input + c, output + c, row_stride, row_begin, row_end, &ring);
  }
}

/* As microaot_depthwise_conv_2d_s8_overlap: with output and input a whole number of pixels apart (every output
 * byte over an input byte of its own channel) the groups go outermost, the ring without the scratch row when a
 * row is one tile (always, for the ring's own kernel); otherwise a chunk of microaot_depthwise_palette_overlap_rows
 * rows at a time through the scratch (each chunk decodes the groups again), stored after all of the chunk's
 * reads. */
static microaot_status dwp_run(const dw_params* p, const int8_t* input, const uint8_t* indices, const int8_t* table,
                               const int32_t* bias, int8_t* output, int8_t* scratch, int overlap) {
  const size_t row_size = (size_t)p->output_width * (size_t)p->output_depth;
  const int32_t rows = p->batches * p->output_height, chunk = microaot_depthwise_palette_overlap_rows(p);
  int32_t row;
  dwp_call k;
  if (indices == NULL || table == NULL || scratch == NULL) return MICROAOT_STATUS_NULL_POINTER;
  k.indices = indices;
  k.table = table;
  k.bits = microaot_palette_bits(indices);
  k.ch = dw_channels_of(p, bias);
  if (k.bits == 0 || !microaot_fit_depthwise_widened_palette(p) || !dwp_takes(p) ||
      !microaot_dsp_depthwise_fits(p, &k.ch)) {
    return MICROAOT_STATUS_VALUE_OUT_OF_RANGE;
  }
  k.block = scratch;
  k.row = NULL;
  k.ringed = microaot_fit_depthwise_ringed(p);
  if (!overlap) {
    dwp_rows(p, &k, input, output, row_size, 0, rows);
    return MICROAOT_STATUS_OK;
  }
  if (dw_whole_pixels_apart(input, output, p->output_depth)) {
    k.ringed = k.ringed && MICROAOT_DEPTHWISE_RING_TILE_WIDTH >= p->output_width;
    k.row = k.ringed ? NULL : scratch + MICROAOT_DEPTHWISE_PALETTE_BLOCK_BYTES;
    dwp_rows(p, &k, input, output, row_size, 0, rows);
    return MICROAOT_STATUS_OK;
  }
  for (row = 0; row < rows; row += chunk) {
    const int32_t end = rows - row < chunk ? rows : row + chunk;
    dwp_rows(p, &k, input, scratch + MICROAOT_DEPTHWISE_PALETTE_BLOCK_BYTES, row_size, row, end);
    memcpy(output + (size_t)row * row_size, scratch + MICROAOT_DEPTHWISE_PALETTE_BLOCK_BYTES,
           (size_t)(end - row) * row_size);
  }
  return MICROAOT_STATUS_OK;
}

microaot_status MICROAOT_FN(const microaot_depthwise_conv_2d_params_q* params, const int8_t* input,
                            const uint8_t* indices, const int8_t* table, const int32_t* bias, int8_t* output,
                            void* scratch) {
  return dwp_run(params, input, indices, table, bias, output, (int8_t*)scratch, 0);
}

microaot_status MICROAOT_FN_OVERLAP(const microaot_depthwise_conv_2d_params_q* params, const int8_t* input,
                                    const uint8_t* indices, const int8_t* table, const int32_t* bias,
                                    int8_t* output, void* scratch) {
  return dwp_run(params, input, indices, table, bias, output, (int8_t*)scratch, 1);
}
