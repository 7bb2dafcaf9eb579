/* AVERAGE_POOL_2D int8 with Helium (MVE), bit-exact with the portable kernel: eight channels a vector summed in
 * int16, the rounded mean by a multiply (microaot/internal/mve_pool.h); ties to even and windows over 256
 * elements through the template's per-element row; a build without MVE is the portable kernel. */
#include <stdint.h>

#include "microaot/internal/mve_pool.h"
#include "microaot/kernels/pooling.h"

#if MICROAOT_MVE
static void mve_average_row(const microaot_pool_2d_params_q* p, const int8_t* in_image, int32_t oy, int8_t* out);
#define MICROAOT_POOL_ROW mve_average_row
#endif

#define MICROAOT_DTYPE s8
#define MICROAOT_POOL average
#define MICROAOT_FN microaot_average_pool_2d_s8
#define MICROAOT_FN_OVERLAP microaot_average_pool_2d_s8_overlap
#include "microaot/internal/templates/pool_2d.h"

#if MICROAOT_MVE
static void mve_average_row(const microaot_pool_2d_params_q* p, const int8_t* in_image, int32_t oy, int8_t* out) {
  if (microaot_mve_pool_average_fits(p)) {
    microaot_mve_pool_row(p, in_image, oy, out, 0);
  } else {
    pool_row(p, in_image, oy, out);
  }
}
#endif
