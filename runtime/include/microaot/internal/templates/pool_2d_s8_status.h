/* The two entry points, plain and overlap, of an int8 AVERAGE_POOL_2D kernel that returns a status (the lanes' and
 * the global pool's, portable and DSP). The including file defines MICROAOT_POOL_STATUS_FN and
 * MICROAOT_POOL_STATUS_FN_OVERLAP (declared in microaot/kernels/pooling.h) and, before the include, the static
 * pool_status_layer(params, input, output, scratch) that computes or refuses the layer: its output rows go through
 * `scratch` in the overlap variant, straight to the output (scratch NULL) in the plain one; or
 * MICROAOT_POOL_STATUS_PORTABLE, for the portable kernel's arithmetic, which computes every layer (always OK). */
#include <stddef.h>
#include <stdint.h>

#include "microaot/kernels/pooling.h"
#include "microaot/status.h"

#ifdef MICROAOT_POOL_STATUS_PORTABLE
#define MICROAOT_DTYPE s8
#define MICROAOT_POOL average
#define MICROAOT_POOL_LINKAGE static inline /* pool_layer unused: pool_status_layer takes both variants */
#define MICROAOT_FN pool_layer
#define MICROAOT_FN_OVERLAP pool_layer_overlap
#include "microaot/internal/templates/pool_2d.h"

static microaot_status pool_status_layer(const microaot_pool_2d_params_q* params, const int8_t* input,
                                         int8_t* output, void* scratch) {
  pool_layer_overlap(params, input, output, scratch);
  return MICROAOT_STATUS_OK;
}
#endif

microaot_status MICROAOT_POOL_STATUS_FN(const microaot_pool_2d_params_q* params, const int8_t* input,
                                        int8_t* output) {
  return pool_status_layer(params, input, output, NULL);
}

microaot_status MICROAOT_POOL_STATUS_FN_OVERLAP(const microaot_pool_2d_params_q* params, const int8_t* input,
                                                int8_t* output, void* scratch) {
  return pool_status_layer(params, input, output, scratch);
}
