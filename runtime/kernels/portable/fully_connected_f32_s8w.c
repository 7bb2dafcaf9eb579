/* FULLY_CONNECTED, hybrid: float32 activations and bias, int8 weights kept in flash; each unit's float sum of
 * input * weight, in depth order, times the unit's weight scale, then the bias and the clamp. */
#define MICROAOT_DTYPE f32
#define MICROAOT_WEIGHT_DTYPE s8
#define MICROAOT_FN microaot_fully_connected_f32_s8w
#include "microaot/internal/templates/fully_connected.h"
