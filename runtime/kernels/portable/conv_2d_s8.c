/* int8 CONV_2D, portable C99: TFLite Micro's per-channel reference arithmetic (int32 accumulator over the
 * in-image taps of (input + input_offset) * filter, + bias, per-channel requantization, + output offset, clamp). */
#define MICROAOT_DTYPE s8
#define MICROAOT_CONV conv_2d
#define MICROAOT_FN microaot_conv_2d_s8
#define MICROAOT_FN_OVERLAP microaot_conv_2d_s8_overlap
#include "microaot/internal/templates/conv.h"
