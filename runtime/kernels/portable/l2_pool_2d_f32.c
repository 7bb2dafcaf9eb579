/* L2_POOL_2D, float32: sqrt of the mean of the squares of the in-bounds window elements, then the clamp. */
#define MICROAOT_DTYPE f32
#define MICROAOT_POOL l2
#define MICROAOT_POOL_L2
#define MICROAOT_FN microaot_l2_pool_2d_f32
#define MICROAOT_FN_OVERLAP microaot_l2_pool_2d_f32_overlap
#include "microaot/internal/templates/pool_2d.h"
