/* 16x8 CONV_2D over packed int8 weight words (microaot/kernels/packed.h): --optimize balanced. */
#define MICROAOT_FN microaot_conv_2d_s16_packed
#define MICROAOT_FN_OVERLAP microaot_conv_2d_s16_packed_overlap
#include "microaot/internal/templates/packed_conv_2d_s16.h"
