/* int8 DEPTHWISE_CONV_2D over a ring layer's channel-group words (dsp/depthwise_conv_2d_s8_ring_w16.c): without
 * the DSP extension, depthwise_conv_2d_s8_w16's portable arithmetic, which computes every layer of
 * microaot_fit_depthwise_widened_palette (a superset of the DSP build's: the status the DSP build may return for
 * a layer outside the ring is OK here, as for depthwise_conv_2d_s8_ring). */
/* microaot-links: kernels/portable/depthwise_conv_2d_s8_w16.c */
#include <stdint.h>

#include "microaot/kernels/conv.h"
#include "microaot/status.h"

microaot_status microaot_depthwise_conv_2d_s8_ring_w16(const microaot_depthwise_conv_2d_params_q* params,
                                                       const int8_t* input, const int32_t* groups, int8_t* output) {
  return microaot_depthwise_conv_2d_s8_w16(params, input, groups, output);
}

microaot_status microaot_depthwise_conv_2d_s8_ring_w16_overlap(const microaot_depthwise_conv_2d_params_q* params,
                                                               const int8_t* input, const int32_t* groups,
                                                               int8_t* output, void* scratch) {
  return microaot_depthwise_conv_2d_s8_w16_overlap(params, input, groups, output, scratch);
}
