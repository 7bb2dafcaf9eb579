/* FULLY_CONNECTED, int16 activations, int8 weights, int32 bias: as TFLite Micro computes such models, the
 * products accumulate in 32 bits and the sum is requantized with the 32-bit (two-rounding) multiply. */
#define MICROAOT_DTYPE s16
#define MICROAOT_BIAS_DTYPE s32
#define MICROAOT_FN microaot_fully_connected_s16_bias32
#include "microaot/internal/templates/fully_connected.h"
