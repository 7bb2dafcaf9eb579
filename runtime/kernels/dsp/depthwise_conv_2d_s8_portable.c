/* The portable int8 DEPTHWISE_CONV_2D under its own names (microaot/internal/dsp_depthwise.h), linked by both DSP
 * depthwise kernels for the layers they do not specialise: one copy in a model that calls both. */
#include "microaot/internal/dsp_depthwise.h"
#define MICROAOT_DTYPE s8
#define MICROAOT_CONV depthwise_conv_2d
#define MICROAOT_FN microaot_depthwise_conv_2d_s8_portable
#define MICROAOT_FN_OVERLAP microaot_depthwise_conv_2d_s8_overlap_portable
#include "microaot/internal/templates/conv.h"
