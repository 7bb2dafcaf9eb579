/* int8 DEPTHWISE_CONV_2D over a layer's compact channel-group words (dsp/depthwise_conv_2d_s8_w8.c): without the
 * DSP extension, the reference arithmetic on the values they hold (portable/depthwise_conv_2d_s8_w16.c reads both
 * forms), bit-exact with microaot_depthwise_conv_2d_s8. A layer outside microaot_fit_depthwise_widened_palette is
 * refused with a status, as the DSP build refuses it. */
/* microaot-links: kernels/portable/depthwise_conv_2d_s8_w16.c */
#include <stddef.h>
#include <stdint.h>

#include "microaot/internal/depthwise_group_words.h"
#include "microaot/kernels/conv.h"
#include "microaot/status.h"

microaot_status microaot_depthwise_conv_2d_s8_w8(const microaot_depthwise_conv_2d_params_q* params,
                                                 const int8_t* input, const int32_t* groups, int8_t* output) {
  return microaot_depthwise_conv_2d_s8_words_portable(params, input, groups, output, NULL, 1);
}

microaot_status microaot_depthwise_conv_2d_s8_w8_overlap(const microaot_depthwise_conv_2d_params_q* params,
                                                         const int8_t* input, const int32_t* groups, int8_t* output,
                                                         void* scratch) {
  if (scratch == NULL) return MICROAOT_STATUS_NULL_POINTER;
  return microaot_depthwise_conv_2d_s8_words_portable(params, input, groups, output, (int8_t*)scratch, 1);
}
