/* MAX_POOL_2D, float32: maximum of the in-bounds window elements, clamped to the activation range. */
#define MICROAOT_DTYPE f32
#define MICROAOT_POOL max
#define MICROAOT_FN microaot_max_pool_2d_f32
#define MICROAOT_FN_OVERLAP microaot_max_pool_2d_f32_overlap
#include "microaot/internal/templates/pool_2d.h"
