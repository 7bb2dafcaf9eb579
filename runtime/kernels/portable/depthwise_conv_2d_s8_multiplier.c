/* int8 DEPTHWISE_CONV_2D for the layers of depth multiplier 2 or more that the DSP build computes in its own
 * kernel (dsp/depthwise_conv_2d_s8_multiplier.c): without the DSP extension, the portable kernel's arithmetic,
 * which computes every layer, so the status the DSP build may return (a layer outside its bounds) is always OK
 * here; the overlap variant without its scratch row is refused as there. */
#define MICROAOT_DTYPE s8
#define MICROAOT_CONV depthwise_conv_2d
#define MICROAOT_CONV_LINKAGE static
#define MICROAOT_FN dwm_layer
#define MICROAOT_FN_OVERLAP dwm_layer_overlap
#include "microaot/internal/templates/conv.h"

microaot_status microaot_depthwise_conv_2d_s8_multiplier(const microaot_depthwise_conv_2d_params_q* params,
                                                         const int8_t* input, const int8_t* filter,
                                                         const int32_t* bias, int8_t* output) {
  dwm_layer(params, input, filter, bias, output);
  return MICROAOT_STATUS_OK;
}

microaot_status microaot_depthwise_conv_2d_s8_multiplier_overlap(const microaot_depthwise_conv_2d_params_q* params,
                                                                 const int8_t* input, const int8_t* filter,
                                                                 const int32_t* bias, int8_t* output,
                                                                 void* scratch) {
  if (scratch == NULL) return MICROAOT_STATUS_NULL_POINTER;
  dwm_layer_overlap(params, input, filter, bias, output, scratch);
  return MICROAOT_STATUS_OK;
}
