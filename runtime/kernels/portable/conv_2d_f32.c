/* float32 CONV_2D, portable C99: the loop and summation order of TFLite's reference Conv (sum of
 * input * filter over the in-image taps, then + bias, then the activation clamp). */
#define MICROAOT_DTYPE f32
#define MICROAOT_CONV conv_2d
#define MICROAOT_FN microaot_conv_2d_f32
#define MICROAOT_FN_OVERLAP microaot_conv_2d_f32_overlap
#include "microaot/internal/templates/conv.h"
