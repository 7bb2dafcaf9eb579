/* int8 TRANSPOSE_CONV over packed int16 weight words, one set per stride phase (microaot/kernels/packed.h): no
 * widening in the inner loop. */
/* microaot-links: kernels/dsp/packed_rows_w16.c */
#define MICROAOT_PACKED_WIDE_WEIGHTS 1
#define MICROAOT_FN microaot_transpose_conv_s8_packed_w16
#include "microaot/internal/templates/packed_transpose_conv.h"
