/* int16 CONV_2D (16x8) with an int32 bias, portable C99: as TFLite Micro computes such models, the products
 * accumulate in 32 bits and the sum is requantized with the 32-bit (two-rounding) multiply. */
#define MICROAOT_DTYPE s16
#define MICROAOT_BIAS_DTYPE s32
#define MICROAOT_CONV conv_2d
#define MICROAOT_FN microaot_conv_2d_s16_bias32
#define MICROAOT_FN_OVERLAP microaot_conv_2d_s16_bias32_overlap
#include "microaot/internal/templates/conv.h"
