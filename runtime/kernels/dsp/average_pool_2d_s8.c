/* AVERAGE_POOL_2D int8 for a cpu with the DSP extension, bit-exact with the portable kernel: the layers the
 * 16-bit lanes compute (microaot/internal/templates/pool_2d_s8_lanes.h: at least four channels, windows of at most
 * 256 elements) through them, the others (fewer channels, larger windows) through the template's
 * per-element row. The compiler gives the lanes' layers their own kernel (dsp/average_pool_2d_s8_lanes.c),
 * without the per-element row; this one keeps both for the others. */
#include <stdint.h>

#include "microaot/kernels/pooling.h"

static void dsp_average_row(const microaot_pool_2d_params_q* p, const int8_t* in_image, int32_t oy, int8_t* out);
#define MICROAOT_POOL_ROW dsp_average_row

#define MICROAOT_DTYPE s8
#define MICROAOT_POOL average
#define MICROAOT_FN microaot_average_pool_2d_s8
#define MICROAOT_FN_OVERLAP microaot_average_pool_2d_s8_overlap
#include "microaot/internal/templates/pool_2d.h"
#include "microaot/internal/templates/pool_2d_s8_lanes.h"

static void dsp_average_row(const microaot_pool_2d_params_q* p, const int8_t* in_image, int32_t oy, int8_t* out) {
  if (microaot_fit_pool_lanes(p)) {
    dsp_pool_lanes_row(p, in_image, oy, out);
  } else {
    pool_row(p, in_image, oy, out);
  }
}
