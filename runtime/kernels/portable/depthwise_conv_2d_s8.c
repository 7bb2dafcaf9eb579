/* int8 DEPTHWISE_CONV_2D, portable C99: TFLite Micro's per-channel reference arithmetic. Output channel oc
 * reads input channel oc / depth_multiplier and filter column oc of the [1, H, W, output_depth] filter. */
#define MICROAOT_DTYPE s8
#define MICROAOT_CONV depthwise_conv_2d
#define MICROAOT_FN microaot_depthwise_conv_2d_s8
#define MICROAOT_FN_OVERLAP microaot_depthwise_conv_2d_s8_overlap
#include "microaot/internal/templates/conv.h"
