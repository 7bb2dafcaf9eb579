/* int8 AVERAGE_POOL_2D for the layers the DSP kernel computes in its 16-bit lanes
 * (dsp/average_pool_2d_s8_lanes.c): without the DSP extension, the portable kernel's arithmetic, which computes
 * every layer, so the status the DSP build may return (a layer outside the lanes' bounds) is always OK here. */
#define MICROAOT_POOL_STATUS_PORTABLE
#define MICROAOT_POOL_STATUS_FN microaot_average_pool_2d_s8_lanes
#define MICROAOT_POOL_STATUS_FN_OVERLAP microaot_average_pool_2d_s8_lanes_overlap
#include "microaot/internal/templates/pool_2d_s8_status.h"
