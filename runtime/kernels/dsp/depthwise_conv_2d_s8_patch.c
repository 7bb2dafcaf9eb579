/* The DSP int8 DEPTHWISE_CONV_2D's small-map patch (microaot/internal/templates/dsp_depthwise_patch.h) over each
 * group's constants from the filter or precomputed: linked by the full DSP kernel and depthwise_conv_2d_s8_w16. */
#include "microaot/internal/templates/dsp_depthwise_patch.h"

void microaot_dsp_depthwise_rows_patched(const dw_params* p, const int8_t* input, const int8_t* filter,
                                         const dw_channels* ch, int8_t* output, size_t row_stride, int32_t row_begin,
                                         int32_t row_end, int32_t groups_end) {
  dw_rows_patched_from(p, input, filter, ch, 0, NULL, NULL, output, row_stride, row_begin, row_end, groups_end);
}

void microaot_dsp_depthwise_rows_patched_pre(const dw_params* p, const int8_t* input, const dw_group* groups,
                                             int8_t* output, size_t row_stride, int32_t row_begin, int32_t row_end,
                                             int32_t groups_end) {
  dw_rows_patched_from(p, input, NULL, NULL, 0, NULL, groups, output, row_stride, row_begin, row_end, groups_end);
}
