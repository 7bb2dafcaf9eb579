/* TFLM's MultiplyByQuantizedMultiplier in the steps the recurrent DSP kernels (LSTM, SVDF) take, with the layer's
 * constants split once per call: the left shift, the high multiply floor((x * m + 2^30) / 2^31) (TFLM's saturating
 * rounding doubling one for m >= 0: one SMLAL), and the rounding right shift as (high + round - (high < 0)) >> right,
 * which is exact while |high| + round < 2^31. A value clamped right after to a range within
 * +-(2^(30 - right) - |offset added|) may saturate the high part to 2^30 first (microaot_dsp_requant_clamped): a
 * larger one gives a value beyond the range either way. The fit rules (microaot/fit/) bound the shifts. */
#ifndef MICROAOT_DSP_REQUANT_H
#define MICROAOT_DSP_REQUANT_H

#include <stdint.h>

#include "microaot/internal/dsp.h"

typedef struct {
  int32_t left, multiplier, right, round, negative; /* negative: -1 with a right shift, else 0 */
} microaot_dsp_requant;

static inline microaot_dsp_requant microaot_dsp_requant_of(int32_t multiplier, int32_t shift) {
  microaot_dsp_requant q;
  q.left = shift > 0 ? shift : 0;
  q.right = shift > 0 ? 0 : -shift;
  q.multiplier = multiplier;
  q.round = q.right > 0 ? (int32_t)1 << (q.right - 1) : 0;
  q.negative = q.right > 0 ? -1 : 0;
  return q;
}

static inline int32_t microaot_dsp_requant_high(const microaot_dsp_requant* q, int32_t acc) {
  const int64_t product = (int64_t)(int32_t)((uint32_t)acc << q->left) * q->multiplier + ((int64_t)1 << 30);
  return (int32_t)(product >> 31);
}

static inline int32_t microaot_dsp_requant_round(const microaot_dsp_requant* q, int32_t high) {
  return (high + q->round + ((high >> 31) & q->negative)) >> q->right;
}

/* For a value clamped right after (see above). */
static inline int32_t microaot_dsp_requant_clamped(const microaot_dsp_requant* q, int32_t acc) {
  return microaot_dsp_requant_round(q, microaot_dsp_ssat31(microaot_dsp_requant_high(q, acc)));
}

/* microaot_dsp_requant_clamped for a multiplier of 0 or at least 2^30 and a value clamped right after to a range
 * within +-(2^(29 - right) - |offset added|) (an int8 one for right shifts up to 21), in two instructions: the
 * high multiply as SMMULR of the doubled value, floor((2x m + 2^31) / 2^32) = floor((x m + 2^30) / 2^31), exact
 * for |x| < 2^30; beyond, the doubling saturates (QADD) and both forms give a high part of at least 2^29 in
 * magnitude and of x's sign, which the clamp takes to the same end. */
static inline int32_t microaot_dsp_requant_narrow(const microaot_dsp_requant* q, int32_t acc) {
  const int32_t x = (int32_t)((uint32_t)acc << q->left);
  return microaot_dsp_requant_round(q, microaot_dsp_smmlar(microaot_dsp_qadd(x, x), q->multiplier, 0));
}

#endif /* MICROAOT_DSP_REQUANT_H */
