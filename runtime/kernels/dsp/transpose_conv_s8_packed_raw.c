/* int8 TRANSPOSE_CONV over raw-form int8 weight words, one set per stride phase (microaot/kernels/packed.h): one
 * SXTB16 per word. */
/* microaot-links: kernels/dsp/packed_rows_raw.c */
#define MICROAOT_PACKED_RAW_WEIGHTS 1
#define MICROAOT_FN microaot_transpose_conv_s8_packed_raw
#include "microaot/internal/templates/packed_transpose_conv.h"
