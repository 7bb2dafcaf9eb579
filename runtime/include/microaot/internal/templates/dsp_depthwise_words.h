/* The entry points of a DSP int8 DEPTHWISE_CONV_2D over each channel group's words from the compiler
 * (microaot/internal/depthwise_group_words.h: one dw_group per group of 4 channels, or their compact form), shared
 * by dsp/depthwise_conv_2d_s8_w16.c and dsp/depthwise_conv_2d_s8_w8.c (every path) and their ring-alone builds
 * dsp/depthwise_conv_2d_s8_ring_w16.c and dsp/depthwise_conv_2d_s8_ring_w8.c, which define before including it:
 *   MICROAOT_FN, MICROAOT_FN_OVERLAP  the entry points' names
 *   static int dww_takes(const dw_params* p)  the layers it takes within microaot_fit_depthwise_widened_palette
 *   static int dww_in_place(const dw_params* p)  whether, output and input a whole number of pixels apart, its
 *       rows read a group's inputs before they write its outputs (given the scratch row as `row`)
 *   static void dww_rows(p, words, input, output, row_stride, row_begin, row_end, row)  rows [row_begin,
 *       row_end) (counted over all batches) of every group, row i at output + i * row_stride
 * A layer it does not take is refused with a status before a byte of the output is written. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "microaot/internal/dsp_depthwise.h"
#include "microaot/kernels/conv.h"
#include "microaot/status.h"

/* All rows at once, or (`overlap`: output and input may share bytes) row by row through the scratch row unless
 * dww_in_place: no constants recomputed either way. */
static microaot_status dww_run(const dw_params* p, const int8_t* input, const int32_t* words, int8_t* output,
                               int8_t* scratch, int overlap) {
  const size_t row_size = (size_t)p->output_width * (size_t)p->output_depth;
  const int32_t rows = p->batches * p->output_height;
  int32_t r;
  if (words == NULL || (overlap && scratch == NULL)) return MICROAOT_STATUS_NULL_POINTER;
  if (!microaot_fit_depthwise_widened_palette(p) || !dww_takes(p)) return MICROAOT_STATUS_VALUE_OUT_OF_RANGE;
  if (!overlap) {
    dww_rows(p, words, input, output, row_size, 0, rows, NULL);
  } else if (dw_whole_pixels_apart(input, output, p->output_depth) && dww_in_place(p)) {
    dww_rows(p, words, input, output, row_size, 0, rows, scratch);
  } else {
    for (r = 0; r < rows; ++r) {
      dww_rows(p, words, input, scratch, row_size, r, r + 1, NULL);
      memcpy(output + (size_t)r * row_size, scratch, row_size);
    }
  }
  return MICROAOT_STATUS_OK;
}

microaot_status MICROAOT_FN(const microaot_depthwise_conv_2d_params_q* params, const int8_t* input,
                                const int32_t* groups, int8_t* output) {
  return dww_run(params, input, groups, output, NULL, 0);
}

microaot_status MICROAOT_FN_OVERLAP(const microaot_depthwise_conv_2d_params_q* params, const int8_t* input,
                                        const int32_t* groups, int8_t* output, void* scratch) {
  return dww_run(params, input, groups, output, (int8_t*)scratch, 1);
}
