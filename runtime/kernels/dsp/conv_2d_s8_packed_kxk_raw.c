/* int8 k x k CONV_2D over raw-form int8 weight words (microaot/kernels/packed.h): one SXTB16 per word. */
/* microaot-links: kernels/dsp/packed_rows_raw.c */
#define MICROAOT_PACKED_RAW_WEIGHTS 1
#define MICROAOT_FN microaot_conv_2d_s8_packed_kxk_raw
#define MICROAOT_FN_OVERLAP microaot_conv_2d_s8_packed_kxk_raw_overlap
#include "microaot/internal/templates/packed_conv_2d_kxk.h"
