/* AVERAGE_POOL_2D int8 through the DSP kernel's 16-bit lanes alone (microaot/internal/templates/pool_2d_s8_lanes.h),
 * bit-exact with the portable kernel: the compiler picks this stem for a layer the lanes compute (at least four
 * channels, windows of at most 256 elements), so that a model whose average pools all do links no
 * per-element row. Any other layer (a graph blob is untrusted, a user may call it) is refused with a status
 * before a byte of the output is written. */
#include <stddef.h>
#include <stdint.h>

#include "microaot/kernels/pooling.h"
#include "microaot/status.h"

static void dsp_pool_lanes_row(const microaot_pool_2d_params_q* p, const int8_t* in_image, int32_t oy,
                               int8_t* out);
#define MICROAOT_POOL_ROW dsp_pool_lanes_row
#define MICROAOT_POOL_ROW_ALONE

#define MICROAOT_DTYPE s8
#define MICROAOT_POOL average
#define MICROAOT_POOL_LINKAGE static inline /* lanes_layer unused: pool_status_layer takes both */
#define MICROAOT_FN lanes_layer
#define MICROAOT_FN_OVERLAP lanes_layer_overlap
#include "microaot/internal/templates/pool_2d.h"
#include "microaot/internal/templates/pool_2d_s8_lanes.h"

/* Both variants: the overlap one's rows go through `scratch`, the plain one's (NULL) straight to the output. */
#if defined(__GNUC__)
__attribute__((noinline)) /* one copy of the check: the variants tail-call it */
#endif
static microaot_status pool_status_layer(const microaot_pool_2d_params_q* params, const int8_t* input,
                                         int8_t* output, void* scratch) {
  if (!microaot_fit_pool_lanes(params)) return MICROAOT_STATUS_VALUE_OUT_OF_RANGE;
  lanes_layer_overlap(params, input, output, scratch);
  return MICROAOT_STATUS_OK;
}

#define MICROAOT_POOL_STATUS_FN microaot_average_pool_2d_s8_lanes
#define MICROAOT_POOL_STATUS_FN_OVERLAP microaot_average_pool_2d_s8_lanes_overlap
#include "microaot/internal/templates/pool_2d_s8_status.h"
