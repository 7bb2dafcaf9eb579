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

#include "microaot/internal/dsp_depthwise.h"

/* Every layer of microaot_fit_depthwise_widened_palette, in place whenever output and input are a whole number of
 * pixels apart (dww_rows below). */
static int dww_takes(const dw_params* p) {
  (void)p;
  return 1;
}
static int dww_in_place(const dw_params* p) {
  (void)p;
  return 1;
}

/* Rows [row_begin, row_end) (counted over all batches) of every group into `output` (row i at output + i *
 * row_stride), as the DSP kernel's dw_rows: the patch, the ring or the unrolled windows, group by group. With
 * `row` (the overlap variant, output and input a whole number of pixels apart, so that the groups may go
 * outermost) the unrolled windows build each group's part of a row there first, and the ring takes the layer
 * only when a row is one tile (both widen a group's inputs before they write its outputs). */
static void dww_rows(const dw_params* p, const int32_t* words, const int8_t* input, int8_t* output,
                     size_t row_stride, int32_t row_begin, int32_t row_end, int8_t* row) {
  const dw_group* groups = (const dw_group*)(const void*)words;
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

#define MICROAOT_FN microaot_depthwise_conv_2d_s8_w16
#define MICROAOT_FN_OVERLAP microaot_depthwise_conv_2d_s8_w16_overlap
#include "microaot/internal/templates/dsp_depthwise_words.h"
