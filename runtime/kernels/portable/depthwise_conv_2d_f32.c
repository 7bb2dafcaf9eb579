/* float32 DEPTHWISE_CONV_2D, portable C99: the summation order of TFLite's reference DepthwiseConv
 * (filter rows, then columns; then + bias; then the activation clamp). */
#define MICROAOT_DTYPE f32
#define MICROAOT_CONV depthwise_conv_2d
#define MICROAOT_FN microaot_depthwise_conv_2d_f32
#define MICROAOT_FN_OVERLAP microaot_depthwise_conv_2d_f32_overlap
#include "microaot/internal/templates/conv.h"
