/* SVDF, int8 input with int16 weights_time and state, with Helium (MVE): the ring kernel
 * (microaot_svdf_ring_s8_s16) as microaot/internal/templates/svdf_mve.h computes it, eight time products per
 * VMLADAVA; the shifting kernel (microaot_svdf_s8_s16) the portable code, which this file defines too, as the
 * portable file does (a model with both forms links one definition of each). A build without MVE: portable. */
#include <stddef.h>

#include "microaot/internal/mve_recurrent.h"
#include "microaot/kernels/svdf.h"

#define MICROAOT_FN microaot_svdf_s8_s16
#if MICROAOT_MVE
microaot_status microaot_svdf_ring_s8_s16_portable(const microaot_svdf_params_q* params, const int8_t* input,
                                                   const int8_t* weights_feature, const int16_t* weights_time,
                                                   const int32_t* bias, int16_t* state, int32_t* position,
                                                   int8_t* output, void* scratch);
#define MICROAOT_RING_FN microaot_svdf_ring_s8_s16_portable
#else
#define MICROAOT_RING_FN microaot_svdf_ring_s8_s16
#endif
#define MICROAOT_SVDF_STATE int16_t
#define MICROAOT_SVDF_STATE_MIN (-32768)
#define MICROAOT_SVDF_STATE_MAX 32767
#include "microaot/internal/templates/svdf.h"

#if MICROAOT_MVE
#define MICROAOT_SVDF_SLOT uint16_t
static inline int32_t svdf_ring_dot(const int16_t* w, const int16_t* s, const uint16_t* ring, int32_t n, int32_t zp) {
  int32_t acc = 0, sum = 0;
  for (; n > 0; n -= 8, w += 8, ring += 8) {
    const mve_pred16_t pred = vctp16q((uint32_t)n);
    const int16x8_t wv = vldrhq_z_s16(w, pred);
    acc = vmladavaq_s16(acc, wv, vldrhq_gather_shifted_offset_z_s16(s, vldrhq_z_u16(ring, pred), pred));
    if (zp != 0) sum = vaddvaq_s16(sum, wv);
  }
  return (int32_t)((uint32_t)acc - (uint32_t)zp * (uint32_t)sum);
}

static inline void svdf_scatter(int16_t* base, uint32x4_t offsets, int32x4_t v, mve_pred16_t pred) {
  vstrhq_scatter_shifted_offset_p_s32(base, offsets, v, pred);
}

#undef MICROAOT_RING_FN
#define MICROAOT_RING_FN microaot_svdf_ring_s8_s16
#define MICROAOT_RING_PORTABLE microaot_svdf_ring_s8_s16_portable
#include "microaot/internal/templates/svdf_mve.h"
#endif /* MICROAOT_MVE */
