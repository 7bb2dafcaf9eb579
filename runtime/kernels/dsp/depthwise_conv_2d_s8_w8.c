/* int8 DEPTHWISE_CONV_2D over each channel group's compact words (levels other than --optimize speed): the
 * compiler writes, in the place of the filter, bias and requantization, MICROAOT_DW_COMPACT_WORDS words per group
 * of 4 channels (microaot/internal/depthwise_group_words.h: the bias doubled, each channel's multiplier and
 * exponent, the int8 taps), no more flash than what they replace. Each group's dw_group is built from them per
 * call (the taps widened, the rounding terms), as the DSP kernel builds it from the filter, but without the
 * kernel's run-time bounds test (microaot_dsp_depthwise_fits, about 90 instructions a group): the compiler proved
 * the bounds. The rows are the DSP kernel's own: the small-map patch, the widened ring at stride 1, else the
 * unrolled windows. For the layers of microaot_fit_depthwise_widened_palette; any other geometry is refused with a
 * status before a byte of the output is written. */
/* microaot-work: per call */
/* microaot-links: kernels/dsp/depthwise_conv_2d_s8_compact.c */
/* microaot-links: kernels/dsp/depthwise_conv_2d_s8_patch_w8.c */
/* microaot-links: kernels/dsp/depthwise_conv_2d_s8_rows_3x3.c */
#include <stddef.h>
#include <stdint.h>

#include "microaot/internal/dsp_depthwise.h"

/* As depthwise_conv_2d_s8_w16: every layer of microaot_fit_depthwise_widened_palette, in place whenever output and
 * input are a whole number of pixels apart. */
static int dww_takes(const dw_params* p) {
  (void)p;
  return 1;
}
static int dww_in_place(const dw_params* p) {
  (void)p;
  return 1;
}

/* As depthwise_conv_2d_s8_w16's dww_rows, each group's constants built from its words. */
static void dww_rows(const dw_params* p, const int32_t* words, const int8_t* input, int8_t* output,
                     size_t row_stride, int32_t row_begin, int32_t row_end, int8_t* row) {
  int32_t c;
  dw_group g;
  if (microaot_fit_depthwise_patched(p)) {
    microaot_dsp_depthwise_rows_patched_compact(p, input, words, output, row_stride, row_begin, row_end,
                                                p->output_depth);
  } else if (microaot_fit_depthwise_ringed(p) &&
             (row == NULL || MICROAOT_DEPTHWISE_RING_TILE_WIDTH >= p->output_width)) {
    microaot_dsp_depthwise_rows_ringed_compact(p, input, words, output, row_stride, row_begin, row_end,
                                               p->output_depth);
  } else {
    microaot_dsp_depthwise_group_clamp(p, &g);
    for (c = 0; c < p->output_depth; c += 4) {
      microaot_dsp_depthwise_group_compact(p, words, c, &g);
      microaot_dsp_depthwise_group_rows_3x3(p, &g, input + c, output + c, row_stride, row_begin, row_end,
                                            row != NULL ? row + c : NULL);
    }
  }
}

#define MICROAOT_FN microaot_depthwise_conv_2d_s8_w8
#define MICROAOT_FN_OVERLAP microaot_depthwise_conv_2d_s8_w8_overlap
#include "microaot/internal/templates/dsp_depthwise_words.h"
