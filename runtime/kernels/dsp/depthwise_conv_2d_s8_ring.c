/* int8 DEPTHWISE_CONV_2D through the widened ring alone, bit-exact with the portable kernel: the compiler picks
 * this stem for a layer that takes the ring in the full DSP kernel (compiler/ops/depthwise_dsp_path.h: 3x3,
 * stride 1, depth multiplier 1, a depth a multiple of 4, rows of 3 to 12 pixels), so that a model whose layers
 * all do links none of that kernel's other paths; both call the ring's rows. The compiler picks it only for
 * layers whose requantization it proved within the ring's bounds (depthwise_dsp_requantization_fits), so it
 * links no portable fallback: any other layer (a graph blob is untrusted, a user may call it) is refused with
 * a status before a byte of the output is written. */
/* microaot-links: kernels/dsp/depthwise_conv_2d_s8_ring_rows.c */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "microaot/dsp_depthwise.h"
#include "microaot/kernels/conv.h"

/* Every channel group through the ring, the requantization within its bounds. */
static int dw_ring_takes(const dw_params* p, const int32_t* bias) {
  return p->output_depth % 4 == 0 && dw_ringed(p) && microaot_dsp_depthwise_fits(p, bias);
}

microaot_status microaot_depthwise_conv_2d_s8_ring(const microaot_depthwise_conv_2d_params_q* params,
                                                   const int8_t* input, const int8_t* filter, const int32_t* bias,
                                                   int8_t* output) {
  const size_t row_size = (size_t)params->output_width * (size_t)params->output_depth;
  if (!dw_ring_takes(params, bias)) return MICROAOT_STATUS_VALUE_OUT_OF_RANGE;
  microaot_dsp_depthwise_rows_ringed(params, input, filter, bias, output, row_size, 0,
                                     params->batches * params->output_height, params->output_depth);
  return MICROAOT_STATUS_OK;
}

/* As microaot_depthwise_conv_2d_s8_overlap does for these layers: output and input a whole number of pixels
 * apart and a row in one tile, the ring reads each row's inputs before its outputs overwrite them; otherwise
 * row by row through the scratch row. */
microaot_status microaot_depthwise_conv_2d_s8_ring_overlap(const microaot_depthwise_conv_2d_params_q* params,
                                                           const int8_t* input, const int8_t* filter,
                                                           const int32_t* bias, int8_t* output, void* scratch) {
  const size_t row_size = (size_t)params->output_width * (size_t)params->output_depth;
  const int32_t rows = params->batches * params->output_height;
  int32_t row;
  if (!dw_ring_takes(params, bias)) return MICROAOT_STATUS_VALUE_OUT_OF_RANGE;
  if (dw_whole_pixels_apart(input, output, params->output_depth) && dw_tile_width() >= params->output_width) {
    microaot_dsp_depthwise_rows_ringed(params, input, filter, bias, output, row_size, 0, rows, params->output_depth);
    return MICROAOT_STATUS_OK;
  }
  for (row = 0; row < rows; ++row) {
    microaot_dsp_depthwise_rows_ringed(params, input, filter, bias, (int8_t*)scratch, row_size, row, row + 1,
                                       params->output_depth);
    memcpy(output + (size_t)row * row_size, scratch, row_size);
  }
  return MICROAOT_STATUS_OK;
}
