/* MAX_POOL_2D int8 with Helium (MVE), bit-exact with the portable kernel: 16 channels a vector, VMAX over each
 * pixel's in-image window, the last channels predicated (microaot/internal/mve_pool.h); a build without MVE is
 * the portable kernel. */
#include <stdint.h>

#include "microaot/internal/mve_pool.h"
#include "microaot/kernels/pooling.h"

#if MICROAOT_MVE
static void mve_max_row(const microaot_pool_2d_params_q* p, const int8_t* in_image, int32_t oy, int8_t* out) {
  microaot_mve_pool_row(p, in_image, oy, out, 1);
}
#define MICROAOT_POOL_ROW mve_max_row
#define MICROAOT_POOL_ROW_ALONE
#endif

#define MICROAOT_DTYPE s8
#define MICROAOT_POOL max
#define MICROAOT_FN microaot_max_pool_2d_s8
#define MICROAOT_FN_OVERLAP microaot_max_pool_2d_s8_overlap
#include "microaot/internal/templates/pool_2d.h"
