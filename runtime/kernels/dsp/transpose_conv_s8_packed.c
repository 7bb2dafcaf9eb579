/* int8 TRANSPOSE_CONV over packed int8 weight words, one set per stride phase (microaot/kernels/packed.h). */
/* microaot-links: kernels/dsp/packed_rows.c */
#define MICROAOT_PACKED_WIDE_WEIGHTS 0
#define MICROAOT_FN microaot_transpose_conv_s8_packed
#include "microaot/internal/templates/packed_transpose_conv.h"
