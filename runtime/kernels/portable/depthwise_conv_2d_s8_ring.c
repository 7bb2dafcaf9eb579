/* int8 DEPTHWISE_CONV_2D for the layers the DSP kernel takes through its widened ring
 * (dsp/depthwise_conv_2d_s8_ring.c): without the DSP extension, the portable kernel's arithmetic. */
#define MICROAOT_DTYPE s8
#define MICROAOT_CONV depthwise_conv_2d
#define MICROAOT_FN microaot_depthwise_conv_2d_s8_ring
#define MICROAOT_FN_OVERLAP microaot_depthwise_conv_2d_s8_ring_overlap
#include "microaot/templates/conv.h"
