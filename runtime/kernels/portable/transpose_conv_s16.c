/* int16 TRANSPOSE_CONV (16x8), portable C99: TFLite Micro's reference arithmetic for int16 activations, int8
 * per-channel weights and an int64 bias (64-bit sums, TFLite's 16x8 per-channel requantization). */
#define MICROAOT_DTYPE s16
#define MICROAOT_FN microaot_transpose_conv_s16
#include "microaot/internal/templates/transpose_conv.h"
