/* FULLY_CONNECTED, float32: products summed in depth order, then the bias, then the clamp (TFLite order). */
#define MICROAOT_DTYPE f32
#define MICROAOT_FN microaot_fully_connected_f32
#include "microaot/internal/templates/fully_connected.h"
