/* int8 1x1 CONV_2D over packed int8 weight words (microaot/kernels/packed.h). */
/* microaot-links: kernels/dsp/packed_rows.c */
#define MICROAOT_PACKED_WIDE_WEIGHTS 0
#define MICROAOT_FN microaot_conv_2d_s8_packed
#define MICROAOT_FN_OVERLAP microaot_conv_2d_s8_packed_overlap
#include "microaot/internal/templates/packed_conv_2d.h"
