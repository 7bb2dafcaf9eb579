/* int8 AVERAGE_POOL_2D for the global layers the DSP kernel sums in its 16-bit lanes
 * (dsp/average_pool_2d_s8_global.c): without the DSP extension, the portable kernel's arithmetic, which computes
 * every layer, so the status the DSP build may return (a layer not global or beyond the lanes) is always OK here. */
#define MICROAOT_POOL_STATUS_PORTABLE
#define MICROAOT_POOL_STATUS_FN microaot_average_pool_2d_s8_global
#define MICROAOT_POOL_STATUS_FN_OVERLAP microaot_average_pool_2d_s8_global_overlap
#include "microaot/internal/templates/pool_2d_s8_status.h"
