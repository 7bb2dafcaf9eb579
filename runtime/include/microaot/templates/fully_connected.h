/* The FULLY_CONNECTED template for one element type: the including file defines MICROAOT_DTYPE (s8, f32)
 * and MICROAOT_FN (declared in microaot/kernels/fully_connected.h). Products summed in depth order, then
 * the bias, then the output step of the dtype (int8: per-unit requantization) and the clamp. */
#include <stddef.h>

#include "microaot/kernel_dtype.h"
#include "microaot/kernels/fully_connected.h"

/* One product of an input element x and a weight w; int8 offsets both by their zero points. */
#define MICROAOT_FC_MAC_s8(p, x, w) (((int32_t)(w) + (p)->filter_offset) * ((int32_t)(x) + (p)->input_offset))
#define MICROAOT_FC_MAC_f32(p, x, w) ((x) * (w))
#define MICROAOT_FC_MAC(p, x, w) MICROAOT_CAT(MICROAOT_FC_MAC_, MICROAOT_DTYPE)(p, x, w)

void MICROAOT_FN(const MICROAOT_PARAMS(fully_connected) * params, const MICROAOT_T* input, const MICROAOT_T* weights,
                 const MICROAOT_ACC* bias, MICROAOT_T* output) {
  const int32_t depth = params->input_depth;
  const int32_t units = params->output_depth;
  int32_t b, u, d;
  for (b = 0; b < params->batches; ++b) {
    const MICROAOT_T* in_row = input + (size_t)b * (size_t)depth;
    const MICROAOT_T* w_row = weights;
    MICROAOT_T* out_row = output + (size_t)b * (size_t)units;
    for (u = 0; u < units; ++u, w_row += depth) {
      MICROAOT_ACC acc = 0;
      for (d = 0; d < depth; ++d) acc += MICROAOT_FC_MAC(params, in_row[d], w_row[d]);
      /* Also without a bias a 0 is added, as the reference does (for floats it turns -0.0f into +0.0f). */
      acc += bias != NULL ? bias[u] : 0;
      out_row[u] = MICROAOT_OUTPUT(params, acc, u);
    }
  }
}
