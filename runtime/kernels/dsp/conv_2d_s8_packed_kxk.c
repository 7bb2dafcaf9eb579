/* int8 k x k CONV_2D over packed int8 weight words (microaot/kernels/packed.h). */
/* microaot-links: kernels/dsp/packed_rows.c */
#define MICROAOT_PACKED_WIDE_WEIGHTS 0
#define MICROAOT_FN microaot_conv_2d_s8_packed_kxk
#define MICROAOT_FN_OVERLAP microaot_conv_2d_s8_packed_kxk_overlap
#include "microaot/internal/templates/packed_conv_2d_kxk.h"
