/* int8 DEPTHWISE_CONV_2D for the layers the DSP kernel takes through its widened ring
 * (dsp/depthwise_conv_2d_s8_ring.c): without the DSP extension, the portable kernel's arithmetic, which
 * computes every layer, so the status the DSP build may return (a requantization outside its ring's bounds)
 * is always OK here. The requantization comes as the argument `requant` (multipliers, then shifts), set into a
 * params copy for the shared arithmetic; a NULL one is refused before the output is written. */
#define MICROAOT_DTYPE s8
#define MICROAOT_CONV depthwise_conv_2d
#define MICROAOT_CONV_LINKAGE static
#define MICROAOT_FN dw_ring_layer
#define MICROAOT_FN_OVERLAP dw_ring_layer_overlap
#include "microaot/internal/templates/conv.h"

/* `params` with its per-channel arrays in `requant`. */
static microaot_depthwise_conv_2d_params_q dw_ring_params(const microaot_depthwise_conv_2d_params_q* params,
                                                          const int32_t* requant) {
  microaot_depthwise_conv_2d_params_q layer = *params;
  layer.output_multiplier = requant;
  layer.output_shift = requant + params->output_depth;
  return layer;
}

microaot_status microaot_depthwise_conv_2d_s8_ring(const microaot_depthwise_conv_2d_params_q* params,
                                                   const int8_t* input, const int8_t* filter, const int32_t* bias,
                                                   const int32_t* requant, int8_t* output) {
  microaot_depthwise_conv_2d_params_q layer;
  if (requant == NULL) return MICROAOT_STATUS_NULL_POINTER;
  layer = dw_ring_params(params, requant);
  dw_ring_layer(&layer, input, filter, bias, output);
  return MICROAOT_STATUS_OK;
}

microaot_status microaot_depthwise_conv_2d_s8_ring_overlap(const microaot_depthwise_conv_2d_params_q* params,
                                                           const int8_t* input, const int8_t* filter,
                                                           const int32_t* bias, const int32_t* requant,
                                                           int8_t* output, void* scratch) {
  microaot_depthwise_conv_2d_params_q layer;
  if (requant == NULL) return MICROAOT_STATUS_NULL_POINTER;
  layer = dw_ring_params(params, requant);
  dw_ring_layer_overlap(&layer, input, filter, bias, output, scratch);
  return MICROAOT_STATUS_OK;
}
