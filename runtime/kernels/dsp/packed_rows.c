/* The packed kernels' row machinery over int8 weight words (microaot/internal/templates/packed_rows.h). */
#define MICROAOT_PACKED_WIDE_WEIGHTS 0
#include "microaot/internal/templates/packed_rows.h"
