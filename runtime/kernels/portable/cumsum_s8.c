/* CUMSUM int8: running sums along the axis as TFLite Micro's reference computes them. */
#define MICROAOT_DTYPE s8
#define MICROAOT_FN microaot_cumsum_s8
#include "microaot/internal/templates/cumsum.h"
