/* 16x8 FULLY_CONNECTED over packed int16 weight words (microaot/kernels/packed.h): no widening in the inner loop. */
#define MICROAOT_PACKED_WIDE_WEIGHTS 1
#define MICROAOT_FN microaot_fully_connected_s16_packed_w16
#include "microaot/internal/templates/packed_fully_connected_s16.h"
