/* AVERAGE_POOL_2D, float32: sum of the in-bounds window elements (row by row) divided by their count. */
#define MICROAOT_DTYPE f32
#define MICROAOT_POOL average
#define MICROAOT_FN microaot_average_pool_2d_f32
#define MICROAOT_FN_OVERLAP microaot_average_pool_2d_f32_overlap
#include "microaot/internal/templates/pool_2d.h"
