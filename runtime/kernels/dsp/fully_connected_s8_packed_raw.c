/* int8 FULLY_CONNECTED over raw-form int8 weight words (microaot/kernels/packed.h): one SXTB16 per word. */
/* microaot-links: kernels/dsp/packed_rows_raw.c */
#define MICROAOT_PACKED_RAW_WEIGHTS 1
#define MICROAOT_FN microaot_fully_connected_s8_packed_raw
#include "microaot/internal/templates/packed_fully_connected.h"
