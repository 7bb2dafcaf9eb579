/* int8 AVERAGE_POOL_2D for the global layers the DSP kernel sums in its 16-bit lanes
 * (dsp/average_pool_2d_s8_global.c): without the DSP extension, the portable kernel's arithmetic, which computes
 * every layer, so the status the DSP build may return (a layer not global or beyond the lanes) is always OK here. */
#include "microaot/status.h"

#define MICROAOT_DTYPE s8
#define MICROAOT_POOL average
#define MICROAOT_POOL_LINKAGE static
#define MICROAOT_FN pool_layer
#define MICROAOT_FN_OVERLAP pool_layer_overlap
#include "microaot/templates/pool_2d.h"

microaot_status microaot_average_pool_2d_s8_global(const microaot_pool_2d_params_q* params, const int8_t* input,
                                                   int8_t* output) {
  pool_layer(params, input, output);
  return MICROAOT_STATUS_OK;
}

microaot_status microaot_average_pool_2d_s8_global_overlap(const microaot_pool_2d_params_q* params,
                                                           const int8_t* input, int8_t* output, void* scratch) {
  pool_layer_overlap(params, input, output, scratch);
  return MICROAOT_STATUS_OK;
}
