/* The FULLY_CONNECTED template for one element type: the including file defines MICROAOT_DTYPE (s8, s16,
 * f32), MICROAOT_FN (declared in microaot/kernels/fully_connected.h) and optionally MICROAOT_BIAS_DTYPE or
 * MICROAOT_WEIGHT_DTYPE (hybrid). Products summed in depth order in the bias type, scaled by the unit's weight
 * scale (hybrid only), then the bias, then the output step of the dtype (integers: per-unit requantization)
 * and the clamp. */
#include <stddef.h>

#include "microaot/internal/fpu_dot.h"
#include "microaot/internal/kernel_dtype.h"
#include "microaot/kernels/fully_connected.h"

/* One product of an input element x and a weight w; integers offset both by their zero points (TFLM applies
 * the offsets to int16 too). */
#define MICROAOT_FC_MAC_INT(p, x, w) (((int32_t)(w) + (p)->filter_offset) * ((int32_t)(x) + (p)->input_offset))
#define MICROAOT_FC_MAC_s8 MICROAOT_FC_MAC_INT
#define MICROAOT_FC_MAC_s16 MICROAOT_FC_MAC_INT
#define MICROAOT_FC_MAC_f32(p, x, w) ((x) * (w))
#define MICROAOT_FC_MAC(p, x, w) MICROAOT_CAT(MICROAOT_FC_MAC_, MICROAOT_DTYPE)(p, x, w)

/* A unit's products added to acc in depth order: floats through microaot_dot_f32 (float32 weights), the others
 * one by one. */
#define MICROAOT_FC_DOT_EACH(p, x, w, n, acc)                          \
  do {                                                                 \
    int32_t d_;                                                        \
    for (d_ = 0; d_ < (n); ++d_) acc += MICROAOT_FC_MAC(p, (x)[d_], (w)[d_]); \
  } while (0)
#define MICROAOT_FC_DOT_s8 MICROAOT_FC_DOT_EACH
#define MICROAOT_FC_DOT_s16 MICROAOT_FC_DOT_EACH
#define MICROAOT_FC_DOT_f32(p, x, w, n, acc) acc = microaot_dot_f32(x, w, n, acc)
#if defined(MICROAOT_WEIGHT_DTYPE) /* hybrid: int8 weights */
#define MICROAOT_FC_DOT MICROAOT_FC_DOT_EACH
#else
#define MICROAOT_FC_DOT(p, x, w, n, acc) MICROAOT_CAT(MICROAOT_FC_DOT_, MICROAOT_DTYPE)(p, x, w, n, acc)
#endif

void MICROAOT_FN(const MICROAOT_PARAMS_Q(fully_connected) * params, const MICROAOT_T* input, const MICROAOT_W* weights,
                 const MICROAOT_BIAS* bias, MICROAOT_T* output) {
  const int32_t depth = params->input_depth;
  const int32_t units = params->output_depth;
  int32_t b, u;
  for (b = 0; b < params->batches; ++b) {
    const MICROAOT_T* in_row = input + (size_t)b * (size_t)depth;
    const MICROAOT_W* w_row = weights;
    MICROAOT_T* out_row = output + (size_t)b * (size_t)units;
    for (u = 0; u < units; ++u, w_row += depth) {
      MICROAOT_BIAS acc = 0;
      MICROAOT_FC_DOT(params, in_row, w_row, depth, acc);
      /* Also without a bias a 0 is added, as the reference does (for floats it turns -0.0f into +0.0f). */
      acc = MICROAOT_SCALE_SUM(params, acc, u) + (bias != NULL ? bias[u] : 0);
      out_row[u] = MICROAOT_OUTPUT(params, acc, u);
    }
  }
}
