/* FULLY_CONNECTED, int16 activations, int8 weights, int64 bias (16x8): TFLite Micro's reference arithmetic
 * (64-bit accumulator, TFLite's 16x8 requantization). */
#define MICROAOT_DTYPE s16
#define MICROAOT_FN microaot_fully_connected_s16
#include "microaot/internal/templates/fully_connected.h"
