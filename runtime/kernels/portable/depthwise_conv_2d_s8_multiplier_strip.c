/* int8 DEPTHWISE_CONV_2D for the depth-multiplier layers the DSP build computes through its strip
 * (dsp/depthwise_conv_2d_s8_multiplier_strip.c): without the DSP extension, depthwise_conv_2d_s8_multiplier's
 * portable arithmetic, which computes every layer. */
/* microaot-links: kernels/portable/depthwise_conv_2d_s8_multiplier.c */
#include <stdint.h>

#include "microaot/kernels/conv.h"
#include "microaot/status.h"

microaot_status microaot_depthwise_conv_2d_s8_multiplier_strip(const microaot_depthwise_conv_2d_params_q* params,
                                                               const int8_t* input, const int8_t* filter,
                                                               const int32_t* bias, int8_t* output) {
  return microaot_depthwise_conv_2d_s8_multiplier(params, input, filter, bias, output);
}

microaot_status microaot_depthwise_conv_2d_s8_multiplier_strip_overlap(
    const microaot_depthwise_conv_2d_params_q* params, const int8_t* input, const int8_t* filter, const int32_t* bias,
    int8_t* output, void* scratch) {
  return microaot_depthwise_conv_2d_s8_multiplier_overlap(params, input, filter, bias, output, scratch);
}
