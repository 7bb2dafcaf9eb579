/* DEPTHWISE_CONV_2D, hybrid: float32 activations and bias, int8 1HWC filters kept in flash; the float loop of
 * depthwise_conv_2d_f32.c with each channel's sum multiplied by its weight scale before the bias. */
#define MICROAOT_DTYPE f32
#define MICROAOT_WEIGHT_DTYPE s8
#define MICROAOT_CONV depthwise_conv_2d
#define MICROAOT_FN microaot_depthwise_conv_2d_f32_s8w
#define MICROAOT_FN_OVERLAP microaot_depthwise_conv_2d_f32_s8w_overlap
#include "microaot/internal/templates/conv.h"
