/* The DSP int8 DEPTHWISE_CONV_2D's small-map patch (microaot/internal/templates/dsp_depthwise_patch.h) over each
 * group's compact words: linked by depthwise_conv_2d_s8_w8 alone, so that the other kernels' patch is as it was. */
/* microaot-links: kernels/dsp/depthwise_conv_2d_s8_compact.c */
#include "microaot/internal/templates/dsp_depthwise_patch.h"

void microaot_dsp_depthwise_rows_patched_compact(const dw_params* p, const int8_t* input, const int32_t* words,
                                                 int8_t* output, size_t row_stride, int32_t row_begin,
                                                 int32_t row_end, int32_t groups_end) {
  dw_rows_patched_from(p, input, NULL, NULL, 1, words, NULL, output, row_stride, row_begin, row_end, groups_end);
}
