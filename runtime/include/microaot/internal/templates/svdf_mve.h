/* The integer SVDF ring kernel with Helium (MVE), bit-exact with the portable one (microaot/internal/templates/
 * svdf.h). The including file (runtime/kernels/mve/svdf_s8_*.c) defines MICROAOT_RING_FN, MICROAOT_RING_PORTABLE
 * (the portable ring kernel, for a layer outside microaot_fit_svdf_packed), MICROAOT_SVDF_STATE and its range
 * MICROAOT_SVDF_STATE_MIN / _MAX, and for the state type:
 *   MICROAOT_SVDF_SLOT                          the gather loads' offset type (uint8_t, uint16_t)
 *   svdf_ring_dot(w, s, ring, memory, zp)       a filter's memory s against its weights_time row w, oldest
 *                                               first: the sum of w[j] * (s[ring[j]] - zp), mod 2^32
 *   svdf_scatter(base, offsets, v, pred)        lanes v stored at base[offsets] in the state type
 * Per batch: the input row against two filters' feature rows per step, 16 products per VMLADAVA and the rows'
 * weight sums beside them (the input offset's factor, microaot_mve_dot_1x2_sums); four feature values
 * requantized per vector and scattered into their filters' newest slots; each filter's ring against its
 * weights_time row by gather loads through the ring's slots in age order (found once per call; a memory over
 * MICROAOT_SVDF_MVE_MEMORY takes the portable code), the zero point's products as it times the weights' sum;
 * the units' sums over their rank, then the output step four units per vector. */
#define MICROAOT_SVDF_MVE_MEMORY 256
#include <stddef.h>

#include "microaot/fit/svdf.h"
#include "microaot/internal/mve_recurrent.h"
#include "microaot/kernels/svdf.h"

/* The feature values of batch row x: filter f's sum (x . w + input offset * sum w, mod 2^32, as the reference's
 * int32 sums) requantized to the state, clamped, plus the state zero point, into slot `newest` of its memory. */
static void svdf_features(const microaot_svdf_params_q* p, const int8_t* x, const int8_t* weights,
                          MICROAOT_SVDF_STATE* state, int32_t newest) {
  const int32_t depth = p->input_size, filters = p->filters, memory = p->memory;
  const microaot_mve_requant q = microaot_mve_requant_of(p->feature_multiplier, p->feature_shift);
  const uint32x4_t slots = vmulq_n_u32(vidupq_n_u32(0, 1), (uint32_t)memory);
  int32_t sums[4], acc[4];
  int32_t f, k;
  for (f = 0; f < filters; f += 4) {
    const mve_pred16_t pred = vctp32q((uint32_t)(filters - f));
    int32x4_t v;
    for (k = 0; k < 4; k += 2) {
      const int32_t first = f + k < filters ? f + k : filters - 1, second = first + 1 < filters ? first + 1 : first;
      const int8_t* w0 = weights + (size_t)first * (size_t)depth;
      microaot_mve_set4(acc, 0, 0, 0, 0);
      microaot_mve_dot_1x2_sums(x, w0, w0 + (size_t)(second - first) * (size_t)depth, depth, acc);
      sums[k] = (int32_t)((uint32_t)acc[0] + (uint32_t)p->input_offset * (uint32_t)acc[2]);
      sums[k + 1] = (int32_t)((uint32_t)acc[1] + (uint32_t)p->input_offset * (uint32_t)acc[3]);
    }
    v = microaot_mve_clamp4(microaot_mve_requant4(q, vldrwq_s32(sums)), MICROAOT_SVDF_STATE_MIN,
                            MICROAOT_SVDF_STATE_MAX);
    /* TFLM stores zero point + value in the state type as it is (a wrap for an int8 state near its ends) */
    svdf_scatter(state + (size_t)f * (size_t)memory + (size_t)newest, slots, vaddq_n_s32(v, p->state_zero_point),
                 pred);
  }
}

/* Each filter's memory against its weights_time row, oldest first (weight j meets slot ring[j]), less the zero
 * point times the weights' sum, into sums[filters]. */
static void svdf_time_dots(const microaot_svdf_params_q* p, const MICROAOT_SVDF_STATE* weights,
                           const MICROAOT_SVDF_STATE* state, const MICROAOT_SVDF_SLOT* ring, int32_t* sums) {
  const int32_t memory = p->memory;
  int32_t f;
  for (f = 0; f < p->filters; ++f) {
    sums[f] = svdf_ring_dot(weights + (size_t)f * (size_t)memory, state + (size_t)f * (size_t)memory, ring, memory,
                            p->state_zero_point);
  }
}

/* The units' sums (bias plus their rank filters' sums) requantized to int8, four units per vector. */
static void svdf_outputs(const microaot_svdf_params_q* p, const int32_t* filter_sums, const int32_t* bias,
                         int32_t* unit_sums, int8_t* out) {
  const microaot_mve_requant q = microaot_mve_requant_of(p->output_multiplier, p->output_shift);
  int32_t u, j;
  for (u = 0; u < p->units; ++u) {
    int32_t acc = bias != NULL ? bias[u] : 0;
    for (j = 0; j < p->rank; ++j) acc += filter_sums[u * p->rank + j];
    unit_sums[u] = acc;
  }
  for (u = 0; u < p->units; u += 4) {
    const mve_pred16_t pred = vctp32q((uint32_t)(p->units - u));
    const int32x4_t v = vaddq_n_s32(microaot_mve_requant4(q, vldrwq_z_s32(unit_sums + u, pred)), p->output_offset);
    vstrbq_p_s32(out + u, microaot_mve_clamp4(v, -128, 127), pred);
  }
}

microaot_status MICROAOT_RING_FN(const microaot_svdf_params_q* params, const int8_t* input,
                                 const int8_t* weights_feature, const MICROAOT_SVDF_STATE* weights_time,
                                 const int32_t* bias, MICROAOT_SVDF_STATE* state, int32_t* position, int8_t* output,
                                 void* scratch) {
  const int32_t newest = *position; /* the slot the new values replace */
  int32_t* filter_sums = (int32_t*)scratch;
  int32_t* unit_sums = filter_sums + params->filters;
  const size_t batch_state = (size_t)params->filters * (size_t)params->memory;
  MICROAOT_SVDF_SLOT ring[MICROAOT_SVDF_MVE_MEMORY];
  int32_t b, j;
  if (newest < 0 || newest >= params->memory) return MICROAOT_STATUS_VALUE_OUT_OF_RANGE;
  if (!microaot_fit_svdf_packed(params) || params->memory > MICROAOT_SVDF_MVE_MEMORY) {
    return MICROAOT_RING_PORTABLE(params, input, weights_feature, weights_time, bias, state, position, output, scratch);
  }
  for (j = 0; j < params->memory; ++j) { /* the slot of age j (0: the oldest; the newest value's slot last) */
    const int32_t slot = newest + 1 + j;
    ring[j] = (MICROAOT_SVDF_SLOT)(slot >= params->memory ? slot - params->memory : slot);
  }
  for (b = 0; b < params->batches; ++b) {
    MICROAOT_SVDF_STATE* s = state + (size_t)b * batch_state;
    svdf_features(params, input + (size_t)b * (size_t)params->input_size, weights_feature, s, newest);
    svdf_time_dots(params, weights_time, s, ring, filter_sums);
    svdf_outputs(params, filter_sums, bias, unit_sums, output + (size_t)b * (size_t)params->units);
  }
  *position = newest + 1 == params->memory ? 0 : newest + 1;
  return MICROAOT_STATUS_OK;
}
