/* The integer SVDF packed ring kernel (microaot/kernels/svdf.h): the including file defines MICROAOT_FN,
 * MICROAOT_SVDF_STATE (int16_t or int8_t), its range MICROAOT_SVDF_STATE_MIN / _MAX and MICROAOT_SVDF_WIDE_STATE
 * (1 for int16). The arithmetic is the ring kernel's (microaot/internal/templates/svdf.h) with the offsets
 * folded into the compiler's constants: every sum is the same int32, the requantizations are
 * microaot/internal/dsp_requant.h's (TFLM's for the multipliers and shifts the fit rule admits). */
#include <stddef.h>
#include <string.h>

#include "microaot/fit/svdf.h"
#include "microaot/internal/dsp_requant.h"
#include "microaot/internal/packed_dot.h"
#include "microaot/kernels/svdf.h"

typedef MICROAOT_SVDF_STATE svdf_packed_state_t;

/* A filter's memory (n slots) against n weights: int8 four at a time (SXTB16 of both words, two SMLADs), int16
 * two at a time (one SMLAD); the words may be unaligned (LDR allows it). */
static inline int32_t svdf_packed_time_dot(const svdf_packed_state_t* w, const svdf_packed_state_t* slots,
                                           int32_t n) {
  int32_t acc = 0, k = 0;
#if MICROAOT_SVDF_WIDE_STATE
  for (; k + 2 <= n; k += 2) {
    uint32_t s, x;
    memcpy(&s, slots + k, 4);
    memcpy(&x, w + k, 4);
    acc = microaot_dsp_smlad(s, x, acc);
  }
#else
  for (; k + 4 <= n; k += 4) {
    const uint32_t s = microaot_dsp_load4(slots + k), x = microaot_dsp_load4(w + k);
    acc = microaot_dsp_smlad(microaot_dsp_sxtb16(s), microaot_dsp_sxtb16(x), acc);
    acc = microaot_dsp_smlad(microaot_dsp_sxtb16_ror8(s), microaot_dsp_sxtb16_ror8(x), acc);
  }
#endif
  for (; k < n; ++k) acc += (int32_t)w[k] * (int32_t)slots[k];
  return acc;
}

/* Every filter's feature value of one input row (widened in `row`) into slot `newest` of its memory, four
 * filters per inner loop. */
static void svdf_packed_features(const microaot_svdf_params_q* p, const uint32_t* row, const int32_t* features,
                                 const int32_t* offsets, svdf_packed_state_t* state, int32_t newest) {
  const int32_t groups = microaot_packed_groups(p->input_size);
  const microaot_dsp_requant q = microaot_dsp_requant_of(p->feature_multiplier, p->feature_shift);
  const int32_t* pair = features;
  int32_t f, k;
  for (f = 0; f < p->filters; f += 4) {
    int32_t acc[4];
    microaot_packed_set4(acc, offsets[f], offsets[f + 1], offsets[f + 2], offsets[f + 3]);
    pair = microaot_packed_dot_1x4(pair, row, groups, acc);
    for (k = 0; k < 4 && f + k < p->filters; ++k) {
      const int32_t value = microaot_clamp_s32(microaot_dsp_requant_clamped(&q, acc[k]), MICROAOT_SVDF_STATE_MIN,
                                               MICROAOT_SVDF_STATE_MAX);
      /* as the portable kernel: zero point + value in the state type as it is */
      state[(size_t)(f + k) * (size_t)p->memory + (size_t)newest] = (svdf_packed_state_t)(p->state_zero_point + value);
    }
  }
}

microaot_status MICROAOT_FN(const microaot_svdf_params_q* params, const int8_t* input, const int32_t* features,
                            const svdf_packed_state_t* time, const int32_t* constants, svdf_packed_state_t* state,
                            int32_t* position, int8_t* output, void* scratch) {
  const int32_t memory = params->memory, rank = params->rank;
  const int32_t newest = *position; /* the oldest slot, which the new values replace */
  const int32_t* const unit_constants = constants + MICROAOT_SVDF_PACKED_FILTERS(params->filters);
  /* slot k meets weight (k + memory - 1 - newest) mod memory: the doubled row from that offset on */
  const size_t offset = (size_t)(memory - 1 - newest);
  uint32_t* const row = (uint32_t*)scratch;
  const microaot_dsp_requant q = microaot_dsp_requant_of(params->output_multiplier, params->output_shift);
  int32_t b, u, j;
  if (!microaot_fit_svdf_packed(params) || newest < 0 || newest >= memory) return MICROAOT_STATUS_VALUE_OUT_OF_RANGE;
  for (b = 0; b < params->batches; ++b) {
    svdf_packed_state_t* batch_state = state + (size_t)b * (size_t)params->filters * (size_t)memory;
    microaot_packed_widen(input + (size_t)b * (size_t)params->input_size, params->input_size, row, 2);
    svdf_packed_features(params, row, features, constants, batch_state, newest);
    for (u = 0; u < params->units; ++u) {
      int32_t acc = unit_constants[u];
      for (j = 0; j < rank; ++j) {
        const size_t f = (size_t)u * (size_t)rank + (size_t)j;
        acc += svdf_packed_time_dot(time + 2 * f * (size_t)memory + offset, batch_state + f * (size_t)memory, memory);
      }
      output[(size_t)b * (size_t)params->units + (size_t)u] = (int8_t)microaot_clamp_s32(
          microaot_dsp_requant_clamped(&q, acc) + params->output_offset, -128, 127);
    }
  }
  *position = newest + 1 == memory ? 0 : newest + 1;
  return MICROAOT_STATUS_OK;
}
