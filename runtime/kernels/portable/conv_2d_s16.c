/* int16 CONV_2D (16x8), portable C99: TFLite Micro's reference arithmetic for int16 activations, int8
 * per-channel weights and an int64 bias (64-bit accumulator, TFLite's 16x8 per-channel requantization). */
#define MICROAOT_DTYPE s16
#define MICROAOT_CONV conv_2d
#define MICROAOT_FN microaot_conv_2d_s16
#define MICROAOT_FN_OVERLAP microaot_conv_2d_s16_overlap
#include "microaot/internal/templates/conv.h"
