/* int8 FULLY_CONNECTED over packed int8 weight words (microaot/kernels/packed.h). */
/* microaot-links: kernels/dsp/packed_rows.c */
#define MICROAOT_PACKED_WIDE_WEIGHTS 0
#define MICROAOT_FN microaot_fully_connected_s8_packed
#include "microaot/internal/templates/packed_fully_connected.h"
