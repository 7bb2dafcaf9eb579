/* int8 TRANSPOSE_CONV, portable C99: TFLite Micro's per-channel reference arithmetic (int32 sums of
 * (input + input_offset) * filter, + bias, per-channel requantization, + output offset, clamp). */
#define MICROAOT_DTYPE s8
#define MICROAOT_FN microaot_transpose_conv_s8
#include "microaot/internal/templates/transpose_conv.h"
