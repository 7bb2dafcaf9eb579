/* int8 DEPTHWISE_CONV_2D over a ring layer's compact channel-group words (dsp/depthwise_conv_2d_s8_ring_w8.c):
 * without the DSP extension, depthwise_conv_2d_s8_w8's portable arithmetic, which computes every layer of
 * microaot_fit_depthwise_widened_palette (as depthwise_conv_2d_s8_ring_w16's portable build). */
/* microaot-links: kernels/portable/depthwise_conv_2d_s8_w8.c */
#include <stdint.h>

#include "microaot/kernels/conv.h"
#include "microaot/status.h"

microaot_status microaot_depthwise_conv_2d_s8_ring_w8(const microaot_depthwise_conv_2d_params_q* params,
                                                      const int8_t* input, const int32_t* groups, int8_t* output) {
  return microaot_depthwise_conv_2d_s8_w8(params, input, groups, output);
}

microaot_status microaot_depthwise_conv_2d_s8_ring_w8_overlap(const microaot_depthwise_conv_2d_params_q* params,
                                                              const int8_t* input, const int32_t* groups,
                                                              int8_t* output, void* scratch) {
  return microaot_depthwise_conv_2d_s8_w8_overlap(params, input, groups, output, scratch);
}
