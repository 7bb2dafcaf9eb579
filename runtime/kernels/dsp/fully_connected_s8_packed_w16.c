/* int8 FULLY_CONNECTED over packed int16 weight words (microaot/kernels/packed.h): no widening in the inner loop. */
/* microaot-links: kernels/dsp/packed_rows_w16.c */
#define MICROAOT_PACKED_WIDE_WEIGHTS 1
#define MICROAOT_FN microaot_fully_connected_s8_packed_w16
#include "microaot/internal/templates/packed_fully_connected.h"
