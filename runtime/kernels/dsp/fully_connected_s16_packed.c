/* 16x8 FULLY_CONNECTED over packed int8 weight words (microaot/kernels/packed.h): --optimize balanced. */
#define MICROAOT_FN microaot_fully_connected_s16_packed
#include "microaot/internal/templates/packed_fully_connected_s16.h"
