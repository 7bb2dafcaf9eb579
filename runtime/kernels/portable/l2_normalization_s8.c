/* L2_NORMALIZATION int8: each row of the last dimension over its norm, as TFLite Micro's reference computes it. */
#define MICROAOT_DTYPE s8
#define MICROAOT_FN microaot_l2_normalization_s8
#include "microaot/internal/templates/l2_normalization.h"
