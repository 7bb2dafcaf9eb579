/* int8 DEPTHWISE_CONV_2D through the widened ring alone, bit-exact with the portable kernel: the compiler picks
 * this stem for a layer that takes the ring in the full DSP kernel (compiler/ops/depthwise_dsp_path.h: 3x3,
 * stride 1, depth multiplier 1, a depth a multiple of 4, rows of 3 to 12 pixels), so that a model whose layers
 * all do links none of that kernel's other paths; both call the ring's rows. The compiler picks it only for
 * layers whose requantization it proved within the ring's bounds (depthwise_dsp_requantization_fits), so it
 * links no portable fallback: any other layer (a graph blob is untrusted, a user may call it) is refused with
 * a status before a byte of the output is written. The per-channel requantization comes as an argument
 * (`requant`: the multipliers, then the shifts), never from the params, so that layers differing only in it
 * share one params struct. Its work is per call (the bounds test, then the ring's rows): built for size. */
/* microaot-work: per call */
/* microaot-links: kernels/dsp/depthwise_conv_2d_s8_setup.c */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "microaot/internal/dsp_depthwise.h"
#include "microaot/kernels/conv.h"

/* Every channel group through the ring, the requantization within its bounds. */
static int dw_ring_takes(const dw_params* p, const dw_channels* ch) {
  return microaot_fit_depthwise_ring(p) && microaot_dsp_depthwise_fits(p, ch);
}

/* All rows at once into `output`, or (`overlap`: output and input may share bytes) row by row through the
 * scratch row unless the ring reads each row's inputs before its outputs overwrite them. */
static __attribute__((noinline)) microaot_status dw_ring_run(const dw_params* p, const int8_t* input,
                                                             const int8_t* filter, const int32_t* bias,
                                                             const int32_t* requant, int8_t* output, void* scratch,
                                                             int overlap) {
  const size_t row_size = (size_t)p->output_width * (size_t)p->output_depth;
  const int32_t rows = p->batches * p->output_height;
  int32_t row;
  dw_channels ch;
  if (requant == NULL) return MICROAOT_STATUS_NULL_POINTER;
  if (p->output_depth <= 0) return MICROAOT_STATUS_VALUE_OUT_OF_RANGE;
  ch.bias = bias;
  ch.multiplier = requant;
  ch.shift = requant + p->output_depth;
  if (!dw_ring_takes(p, &ch)) return MICROAOT_STATUS_VALUE_OUT_OF_RANGE;
  if (!overlap ||
      (dw_whole_pixels_apart(input, output, p->output_depth) && MICROAOT_DEPTHWISE_RING_TILE_WIDTH >= p->output_width)) {
    microaot_dsp_depthwise_rows_ringed(p, input, filter, &ch, output, row_size, 0, rows, p->output_depth);
    return MICROAOT_STATUS_OK;
  }
  for (row = 0; row < rows; ++row) {
    microaot_dsp_depthwise_rows_ringed(p, input, filter, &ch, (int8_t*)scratch, row_size, row, row + 1,
                                       p->output_depth);
    memcpy(output + (size_t)row * row_size, scratch, row_size);
  }
  return MICROAOT_STATUS_OK;
}

microaot_status microaot_depthwise_conv_2d_s8_ring(const microaot_depthwise_conv_2d_params_q* params,
                                                   const int8_t* input, const int8_t* filter, const int32_t* bias,
                                                   const int32_t* requant, int8_t* output) {
  return dw_ring_run(params, input, filter, bias, requant, output, NULL, 0);
}

/* As microaot_depthwise_conv_2d_s8_overlap does for these layers: output and input a whole number of pixels
 * apart and a row in one tile, the ring reads each row's inputs before its outputs overwrite them; otherwise
 * row by row through the scratch row. */
microaot_status microaot_depthwise_conv_2d_s8_ring_overlap(const microaot_depthwise_conv_2d_params_q* params,
                                                           const int8_t* input, const int8_t* filter,
                                                           const int32_t* bias, const int32_t* requant,
                                                           int8_t* output, void* scratch) {
  return dw_ring_run(params, input, filter, bias, requant, output, scratch, 1);
}
