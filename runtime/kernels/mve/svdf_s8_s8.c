/* SVDF, int8 input with int8 weights_time and state, with Helium (MVE): the ring kernel
 * (microaot_svdf_ring_s8_s8) as microaot/internal/templates/svdf_mve.h computes it, sixteen time products per
 * VMLADAVA; the shifting kernel (microaot_svdf_s8_s8) the portable code, which this file defines too, as the
 * portable file does (a model with both forms links one definition of each). A build without MVE: portable. */
#include <stddef.h>

#include "microaot/internal/mve_recurrent.h"
#include "microaot/kernels/svdf.h"

#define MICROAOT_FN microaot_svdf_s8_s8
#if MICROAOT_MVE
microaot_status microaot_svdf_ring_s8_s8_portable(const microaot_svdf_params_q* params, const int8_t* input,
                                                   const int8_t* weights_feature, const int8_t* weights_time,
                                                   const int32_t* bias, int8_t* state, int32_t* position,
                                                   int8_t* output, void* scratch);
#define MICROAOT_RING_FN microaot_svdf_ring_s8_s8_portable
#else
#define MICROAOT_RING_FN microaot_svdf_ring_s8_s8
#endif
#define MICROAOT_SVDF_STATE int8_t
#define MICROAOT_SVDF_STATE_MIN (-128)
#define MICROAOT_SVDF_STATE_MAX 127
#include "microaot/internal/templates/svdf.h"

#if MICROAOT_MVE
#define MICROAOT_SVDF_SLOT uint8_t
static inline int32_t svdf_ring_dot(const int8_t* w, const int8_t* s, const uint8_t* ring, int32_t n, int32_t zp) {
  int32_t acc = 0, sum = 0;
  for (; n > 0; n -= 16, w += 16, ring += 16) {
    const mve_pred16_t pred = vctp8q((uint32_t)n);
    const int8x16_t wv = vldrbq_z_s8(w, pred);
    acc = vmladavaq_s8(acc, wv, vldrbq_gather_offset_z_s8(s, vldrbq_z_u8(ring, pred), pred));
    if (zp != 0) sum = vaddvaq_s8(sum, wv);
  }
  return (int32_t)((uint32_t)acc - (uint32_t)zp * (uint32_t)sum);
}

static inline void svdf_scatter(int8_t* base, uint32x4_t offsets, int32x4_t v, mve_pred16_t pred) {
  vstrbq_scatter_offset_p_s32(base, offsets, v, pred);
}

#undef MICROAOT_RING_FN
#define MICROAOT_RING_FN microaot_svdf_ring_s8_s8
#define MICROAOT_RING_PORTABLE microaot_svdf_ring_s8_s8_portable
#include "microaot/internal/templates/svdf_mve.h"
#endif /* MICROAOT_MVE */
