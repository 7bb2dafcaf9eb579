/* The packed kernels' row machinery over raw-form int8 weight words (microaot/internal/templates/packed_rows.h). */
#define MICROAOT_PACKED_RAW_WEIGHTS 1
#include "microaot/internal/templates/packed_rows.h"
