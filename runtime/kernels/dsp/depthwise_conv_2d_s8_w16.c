/* int8 DEPTHWISE_CONV_2D with each channel group's constants computed at compile time (--optimize speed): the
 * compiler writes, in the place of the filter, bias and requantization, one dw_group per group of 4 channels
 * (microaot/internal/depthwise_group_words.h: the bias doubled, the 3x3 weights widened to 16-bit lanes and
 * doubled, the output steps, the clamp), which the DSP kernel otherwise computes per group and call (about 180
 * instructions a group; per group and row where an in-place output forces row-by-row work). The rows are the
 * DSP kernel's own, not a copy: the small-map patch, the widened ring at stride 1, else the unrolled windows.
 * For the layers of microaot_fit_depthwise_widened_palette (3x3, no dilation, depth multiplier 1, whole groups
 * of 4) whose requantization the compiler proved within the DSP bounds; any other geometry is refused with a
 * status before a byte of the output is written. The words are trusted as the packed _w16 kernels' weights are:
 * they come from the compiler. */
/* microaot-work: per call */
/* microaot-links: kernels/dsp/depthwise_conv_2d_s8_setup.c */
/* microaot-links: kernels/dsp/depthwise_conv_2d_s8_patch.c */
/* microaot-links: kernels/dsp/depthwise_conv_2d_s8_rows_3x3.c */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "microaot/internal/dsp_depthwise.h"
#include "microaot/kernels/conv.h"
#include "microaot/status.h"

/* Rows [row_begin, row_end) (counted over all batches) of every group into `output` (row i at output + i *
 * row_stride), as the DSP kernel's dw_rows: the patch, the ring or the unrolled windows, group by group. With
 * `row` (the overlap variant, output and input a whole number of pixels apart, so that the groups may go
 * outermost) the unrolled windows build each group's part of a row there first, and the ring takes the layer
 * only when a row is one tile (both widen a group's inputs before they write its outputs). */
static void dww_rows(const dw_params* p, const dw_group* groups, const int8_t* input, int8_t* output,
                     size_t row_stride, int32_t row_begin, int32_t row_end, int8_t* row) {
  int32_t c;
  if (microaot_fit_depthwise_patched(p)) {
    microaot_dsp_depthwise_rows_patched_pre(p, input, groups, output, row_stride, row_begin, row_end, p->output_depth);
  } else if (microaot_fit_depthwise_ringed(p) && (row == NULL || MICROAOT_DEPTHWISE_RING_TILE_WIDTH >= p->output_width)) {
    microaot_dsp_depthwise_rows_ringed_pre(p, input, groups, output, row_stride, row_begin, row_end, p->output_depth);
  } else {
    for (c = 0; c < p->output_depth; c += 4) {
      microaot_dsp_depthwise_group_rows_3x3(p, groups + c / 4, input + c, output + c, row_stride, row_begin,
                                            row_end, row != NULL ? row + c : NULL);
    }
  }
}

static microaot_status dww_run(const dw_params* p, const int8_t* input, const int32_t* words, int8_t* output,
                               int8_t* scratch, int overlap) {
  const size_t row_size = (size_t)p->output_width * (size_t)p->output_depth;
  const int32_t rows = p->batches * p->output_height;
  const dw_group* groups = (const dw_group*)(const void*)words;
  int32_t r;
  if (words == NULL || (overlap && scratch == NULL)) return MICROAOT_STATUS_NULL_POINTER;
  if (!microaot_fit_depthwise_widened_palette(p)) return MICROAOT_STATUS_VALUE_OUT_OF_RANGE;
  if (!overlap) {
    dww_rows(p, groups, input, output, row_size, 0, rows, NULL);
  } else if (dw_whole_pixels_apart(input, output, p->output_depth)) {
    dww_rows(p, groups, input, output, row_size, 0, rows, scratch);
  } else { /* row by row through the scratch row: no constants recomputed */
    for (r = 0; r < rows; ++r) {
      dww_rows(p, groups, input, scratch, row_size, r, r + 1, NULL);
      memcpy(output + (size_t)r * row_size, scratch, row_size);
    }
  }
  return MICROAOT_STATUS_OK;
}

microaot_status microaot_depthwise_conv_2d_s8_w16(const microaot_depthwise_conv_2d_params_q* params,
                                                  const int8_t* input, const int32_t* groups, int8_t* output) {
  return dww_run(params, input, groups, output, NULL, 0);
}

microaot_status microaot_depthwise_conv_2d_s8_w16_overlap(const microaot_depthwise_conv_2d_params_q* params,
                                                          const int8_t* input, const int32_t* groups,
                                                          int8_t* output, void* scratch) {
  return dww_run(params, input, groups, output, (int8_t*)scratch, 1);
}
