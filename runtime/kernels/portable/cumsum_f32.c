/* CUMSUM float: running sums along the axis as TFLite Micro's reference computes them. */
#define MICROAOT_DTYPE f32
#define MICROAOT_FN microaot_cumsum_f32
#include "microaot/internal/templates/cumsum.h"
