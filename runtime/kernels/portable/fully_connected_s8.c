/* FULLY_CONNECTED, int8 activations and weights, int32 bias: TFLite Micro's reference arithmetic. */
#define MICROAOT_DTYPE s8
#define MICROAOT_FN microaot_fully_connected_s8
#include "microaot/internal/templates/fully_connected.h"
