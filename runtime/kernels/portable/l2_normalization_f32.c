/* L2_NORMALIZATION float: each row of the last dimension over its norm, as TFLite Micro's reference computes it. */
#define MICROAOT_DTYPE f32
#define MICROAOT_FN microaot_l2_normalization_f32
#include "microaot/internal/templates/l2_normalization.h"
