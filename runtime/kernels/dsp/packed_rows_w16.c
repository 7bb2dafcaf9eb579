/* The packed kernels' row machinery over int16 weight words (microaot/internal/templates/packed_rows.h). */
#define MICROAOT_PACKED_WIDE_WEIGHTS 1
#include "microaot/internal/templates/packed_rows.h"
