/* AVERAGE_POOL_2D, int16: integer mean of the in-bounds window elements (TFLite Micro's reference rounding). */
#define MICROAOT_DTYPE s16
#define MICROAOT_POOL average
#define MICROAOT_FN microaot_average_pool_2d_s16
#define MICROAOT_FN_OVERLAP microaot_average_pool_2d_s16_overlap
#include "microaot/internal/templates/pool_2d.h"
