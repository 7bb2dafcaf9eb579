/* MAX_POOL_2D, int16: maximum of the in-bounds window elements, clamped to the activation range. */
#define MICROAOT_DTYPE s16
#define MICROAOT_POOL max
#define MICROAOT_FN microaot_max_pool_2d_s16
#define MICROAOT_FN_OVERLAP microaot_max_pool_2d_s16_overlap
#include "microaot/internal/templates/pool_2d.h"
