/* A GLOBAL int8 AVERAGE_POOL_2D (the window the whole input plane, no padding, a 1x1 output) for a cpu with the
 * DSP extension, bit-exact with the portable kernel: each batch's plane is one window of the lanes' window_means
 * (microaot/internal/templates/pool_2d_s8_lanes.h), without the row and window walk of the lanes' kernel. Any other layer
 * (a graph blob is untrusted, a user may call it) is refused with a status before a byte of the output is written. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "microaot/kernels/pooling.h"
#include "microaot/status.h"

#define MICROAOT_POOL_MEANS_ONLY
#define MICROAOT_DTYPE s8
#define MICROAOT_POOL average
#include "microaot/internal/templates/pool_2d.h"
#include "microaot/internal/templates/pool_2d_s8_lanes.h"

/* Both variants: the overlap one's means go through `scratch` (channels bytes), the plain one's (NULL) straight
 * to the output, so that no output byte is stored before the last read of its batch's plane. */
#if defined(__GNUC__)
__attribute__((noinline)) /* one copy: the variants tail-call it */
#endif
static microaot_status pool_status_layer(const microaot_pool_2d_params_q* params, const int8_t* input,
                                         int8_t* output, void* scratch) {
  const size_t channels = (size_t)params->channels;
  const size_t plane = (size_t)params->input_height * (size_t)params->input_width * channels;
  int32_t batch;
  if (!microaot_fit_pool_global(params)) return MICROAOT_STATUS_VALUE_OUT_OF_RANGE;
  for (batch = 0; batch < params->batches; ++batch, input += plane, output += channels) {
    /* The plane's rows are contiguous (the window spans the width): one row of height x width pixels. */
    window_means(params, input, 1, plane, scratch != NULL ? (int8_t*)scratch : output);
    if (scratch != NULL) memcpy(output, scratch, channels);
  }
  return MICROAOT_STATUS_OK;
}

#define MICROAOT_POOL_STATUS_FN microaot_average_pool_2d_s8_global
#define MICROAOT_POOL_STATUS_FN_OVERLAP microaot_average_pool_2d_s8_global_overlap
#include "microaot/internal/templates/pool_2d_s8_status.h"
