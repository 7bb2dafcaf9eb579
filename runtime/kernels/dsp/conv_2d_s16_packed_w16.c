/* 16x8 CONV_2D over packed int16 weight words (microaot/kernels/packed.h): no widening in the inner loop. */
#define MICROAOT_PACKED_WIDE_WEIGHTS 1
#define MICROAOT_FN microaot_conv_2d_s16_packed_w16
#define MICROAOT_FN_OVERLAP microaot_conv_2d_s16_packed_w16_overlap
#include "microaot/internal/templates/packed_conv_2d_s16.h"
