/* The integer SVDF packed ring kernel (microaot/kernels/svdf.h): the including file defines MICROAOT_FN,
 * MICROAOT_SVDF_STATE (int16_t or int8_t), its range MICROAOT_SVDF_STATE_MIN / _MAX and MICROAOT_SVDF_WIDE_STATE
 * (1 for int16). The arithmetic is the ring kernel's (microaot/internal/templates/svdf.h) with the offsets
 * folded into the compiler's constants: every sum is the same int32, the requantizations are
 * microaot/internal/dsp_requant.h's clamped and narrow steps (TFLM's for the multipliers and shifts the fit rule
 * admits). */
#include <stddef.h>
#include <string.h>

#include "microaot/fit/svdf.h"
#include "microaot/internal/dsp_requant.h"
#include "microaot/internal/packed_dot.h"
#include "microaot/kernels/svdf.h"

typedef MICROAOT_SVDF_STATE svdf_packed_state_t;

/* A filter's memory (n slots) against n weights: int8 eight then four at a time (SXTB16 of both words, two
 * SMLADs per four), int16 two at a time (one SMLAD); the weights' words may be unaligned (LDR allows it). */
static inline int32_t svdf_packed_time_dot(const svdf_packed_state_t* w, const svdf_packed_state_t* slots,
                                           int32_t n, int32_t acc) {
  const svdf_packed_state_t* const end = slots + n;
#if MICROAOT_SVDF_WIDE_STATE
  for (; slots + 2 <= end; slots += 2, w += 2) {
    uint32_t s, x;
    memcpy(&s, slots, 4);
    memcpy(&x, w, 4);
    acc = microaot_dsp_smlad(s, x, acc);
  }
#else
  for (; slots + 8 <= end; slots += 8, w += 8) {
    const uint32_t s0 = microaot_dsp_load4(slots), x0 = microaot_dsp_load4(w);
    const uint32_t s1 = microaot_dsp_load4(slots + 4), x1 = microaot_dsp_load4(w + 4);
    acc = microaot_dsp_smlad(microaot_dsp_sxtb16(s0), microaot_dsp_sxtb16(x0), acc);
    acc = microaot_dsp_smlad(microaot_dsp_sxtb16_ror8(s0), microaot_dsp_sxtb16_ror8(x0), acc);
    acc = microaot_dsp_smlad(microaot_dsp_sxtb16(s1), microaot_dsp_sxtb16(x1), acc);
    acc = microaot_dsp_smlad(microaot_dsp_sxtb16_ror8(s1), microaot_dsp_sxtb16_ror8(x1), acc);
  }
  if (slots + 4 <= end) {
    const uint32_t s = microaot_dsp_load4(slots), x = microaot_dsp_load4(w);
    acc = microaot_dsp_smlad(microaot_dsp_sxtb16(s), microaot_dsp_sxtb16(x), acc);
    acc = microaot_dsp_smlad(microaot_dsp_sxtb16_ror8(s), microaot_dsp_sxtb16_ror8(x), acc);
    slots += 4, w += 4;
  }
#endif
  for (; slots != end; ++slots, ++w) acc += (int32_t)*w * (int32_t)*slots;
  return acc;
}

/* One word of the memory against one of the weights, both pointers moved on. */
#define SVDF_PACKED_TIME_WORD                       \
  "ldr %[a], [%[s]], #4\n\t"                        \
  "ldr %[b], [%[x]], #4\n\t"                        \
  "sxtb16 %[c], %[a]\n\t"                           \
  "sxtb16 %[d], %[b]\n\t"                           \
  "smlad %[acc], %[c], %[d], %[acc]\n\t"            \
  "sxtb16 %[c], %[a], ror #8\n\t"                   \
  "sxtb16 %[d], %[b], ror #8\n\t"                   \
  "smlad %[acc], %[c], %[d], %[acc]\n\t"

/* One filter's memory of 4 * words int8 slots (from *slots on, which moves past them) against its weights from
 * *w on (moved as far) added to acc: in assembly where the DSP extension is there (9 instructions per four slots,
 * two words per iteration, the pointers in registers), else svdf_packed_time_dot. */
static inline int32_t svdf_packed_time_words(const svdf_packed_state_t** slots, const svdf_packed_state_t** w,
                                             int32_t words, int32_t acc) {
#if MICROAOT_DSP_ASM && !MICROAOT_SVDF_WIDE_STATE
  const svdf_packed_state_t* s = *slots;
  const svdf_packed_state_t* x = *w;
  const svdf_packed_state_t* const end = s + 4 * words;
  uint32_t a, b, c, d;
  __asm__(
      "sub %[a], %[end], %[s]\n\t" /* an odd count of words: one first */
      "tst %[a], #4\n\t"
      "beq 1f\n\t"
      SVDF_PACKED_TIME_WORD
      "cmp %[s], %[end]\n\t"
      "beq 2f\n\t"
      "1:\n\t"
      SVDF_PACKED_TIME_WORD
      SVDF_PACKED_TIME_WORD
      "cmp %[s], %[end]\n\t"
      "bne 1b\n\t"
      "2:\n\t"
      : [s] "+r"(s), [x] "+r"(x), [acc] "+r"(acc), [a] "=&r"(a), [b] "=&r"(b), [c] "=&r"(c), [d] "=&r"(d)
      : [end] "r"(end)
      : "cc", "memory");
  *slots = s;
  *w = x;
  return acc;
#else
  acc = svdf_packed_time_dot(*w, *slots, 4 * words, acc);
  *slots += 4 * words;
  *w += 4 * words;
  return acc;
#endif
}

/* The feature value's requantization and clamp to the state type: an int16 state's range is too wide for the
 * narrow step (microaot/internal/dsp_requant.h). */
#if MICROAOT_SVDF_WIDE_STATE
#define svdf_packed_state_sat microaot_dsp_ssat16
#define svdf_packed_feature_requant microaot_dsp_requant_clamped
#else
#define svdf_packed_state_sat microaot_dsp_ssat8
#define svdf_packed_feature_requant microaot_dsp_requant_narrow
#endif

/* Filters per chunk of the feature pass: their sums wait on the stack, then one tight loop (the requantization's
 * constants in registers) writes them into the ring. */
#define SVDF_PACKED_CHUNK 16

/* Every filter's feature value of one input row (widened in `row`) into slot `newest` of its memory: four
 * filters per product, then a chunk's values requantized and stored together. */
MICROAOT_PACKED_OUT_OF_LINE void svdf_packed_features(const microaot_svdf_params_q* p, const uint32_t* row,
                                                      const int32_t* features, const int32_t* offsets,
                                                      svdf_packed_state_t* state, int32_t newest) {
  const int32_t groups = microaot_packed_groups(p->input_size), zero_point = p->state_zero_point;
  const microaot_dsp_requant q = microaot_dsp_requant_of(p->feature_multiplier, p->feature_shift);
  const size_t memory = (size_t)p->memory;
  const int32_t* pair = features;
  svdf_packed_state_t* slot = state + newest;
  int32_t sums[SVDF_PACKED_CHUNK];
  int32_t f, k;
  for (f = 0; f < p->filters; f += SVDF_PACKED_CHUNK) {
    const int32_t n = p->filters - f < SVDF_PACKED_CHUNK ? p->filters - f : SVDF_PACKED_CHUNK;
    for (k = 0; k < n; k += 4) {
      microaot_packed_set4(sums + k, offsets[f + k], offsets[f + k + 1], offsets[f + k + 2], offsets[f + k + 3]);
      pair = microaot_packed_dot_1x4(pair, row, groups, sums + k);
    }
    /* as the portable kernel: zero point + value in the state type as it is */
    for (k = 0; k < n; ++k, slot += memory) {
      *slot = (svdf_packed_state_t)(zero_point + svdf_packed_state_sat(svdf_packed_feature_requant(&q, sums[k])));
    }
  }
}

/* Each unit's output: its filters' memories against their time weights from `offset` on, its constant, then (a
 * chunk of units at a time, as the feature pass) the output requantization. */
MICROAOT_PACKED_OUT_OF_LINE void svdf_packed_outputs(const microaot_svdf_params_q* p,
                                                     const svdf_packed_state_t* time, const int32_t* unit_constants,
                                                     const svdf_packed_state_t* slots, size_t offset, int8_t* output) {
  const int32_t memory = p->memory, rank = p->rank, output_offset = p->output_offset;
  const microaot_dsp_requant q = microaot_dsp_requant_of(p->output_multiplier, p->output_shift);
  const svdf_packed_state_t* w = time + offset;
  int32_t sums[SVDF_PACKED_CHUNK];
  int32_t u, k, j;
  for (u = 0; u < p->units; u += SVDF_PACKED_CHUNK) {
    const int32_t n = p->units - u < SVDF_PACKED_CHUNK ? p->units - u : SVDF_PACKED_CHUNK;
    if (memory % 4 == 0 && rank == 1) { /* a unit per filter: the loop without its inner one */
      for (k = 0; k < n; ++k, w += memory) {
        sums[k] = svdf_packed_time_words(&slots, &w, memory / 4, unit_constants[u + k]);
      }
    } else if (memory % 4 == 0) {
      for (k = 0; k < n; ++k) {
        int32_t acc = unit_constants[u + k];
        for (j = 0; j < rank; ++j, w += memory) acc = svdf_packed_time_words(&slots, &w, memory / 4, acc);
        sums[k] = acc;
      }
    } else {
      for (k = 0; k < n; ++k) {
        int32_t acc = unit_constants[u + k];
        for (j = 0; j < rank; ++j, slots += memory, w += 2 * memory) {
          acc = svdf_packed_time_dot(w, slots, memory, acc);
        }
        sums[k] = acc;
      }
    }
    for (k = 0; k < n; ++k) {
      output[u + k] = (int8_t)microaot_dsp_ssat8(microaot_dsp_requant_narrow(&q, sums[k]) + output_offset);
    }
  }
}

microaot_status MICROAOT_FN(const microaot_svdf_params_q* params, const int8_t* input, const int32_t* features,
                            const svdf_packed_state_t* time, const int32_t* constants, svdf_packed_state_t* state,
                            int32_t* position, int8_t* output, void* scratch) {
  const int32_t memory = params->memory;
  const int32_t newest = *position; /* the oldest slot, which the new values replace */
  const int32_t* const unit_constants = constants + MICROAOT_SVDF_PACKED_FILTERS(params->filters);
  /* slot k meets weight (k + memory - 1 - newest) mod memory: the doubled row from that offset on */
  const size_t offset = (size_t)(memory - 1 - newest);
  uint32_t* const row = (uint32_t*)scratch;
  int32_t b;
  if (!microaot_fit_svdf_packed(params) || newest < 0 || newest >= memory) return MICROAOT_STATUS_VALUE_OUT_OF_RANGE;
  for (b = 0; b < params->batches; ++b) {
    svdf_packed_state_t* batch_state = state + (size_t)b * (size_t)params->filters * (size_t)memory;
    microaot_packed_widen(input + (size_t)b * (size_t)params->input_size, params->input_size, row, 2);
    svdf_packed_features(params, row, features, constants, batch_state, newest);
    svdf_packed_outputs(params, time, unit_constants, batch_state, offset, output + (size_t)b * (size_t)params->units);
  }
  *position = newest + 1 == memory ? 0 : newest + 1;
  return MICROAOT_STATUS_OK;
}
