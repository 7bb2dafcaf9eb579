/* ADD and SUB int16 for a cpu with the DSP extension (runtime/kernels/dsp/add_s16.c, sub_s16.c): the one-rounding
 * rule of microaot/internal/rescale_s16.h two elements a pass, where both inputs step by one. A word of each
 * input holds two values; q * 2^16 (the doubled q * 2^15) is the word shifted left by 16 or its top lane masked.
 * An input of the larger scale has TFLM's multiplier 2^30 and shift 0, (q * 2^15) * 2^30 / 2^31 = q * 2^14 exactly
 * ("exact": one shift, which the sum's ADD folds); the other is one SMMLAR and a shift ("scaled", shift >= 1).
 * The outputs are saturated to int16, packed, clamped by SSUB16 and SEL, stored as one word; a row's odd last
 * element takes the rule's element, as do other rows (an input broadcast along them, strided). A flat walk and a
 * [rows, n] walk whose inputs move on or repeat their row run without a call per row. */
#ifndef MICROAOT_INTERNAL_DSP_ADD_S16_H
#define MICROAOT_INTERNAL_DSP_ADD_S16_H

#include <string.h>

#include "microaot/internal/rescale_s16.h"

typedef struct dsp_add_s16 dsp_add_s16;
typedef void (*dsp_add_s16_pairs)(const dsp_add_s16* k, const int16_t* a, const int16_t* b, int16_t* out, int32_t n,
                                  int32_t rows, int32_t a_next, int32_t b_next);

struct dsp_add_s16 {
  microaot_add_s16_constants rule;
  uint32_t lo2, hi2;       /* the clamp's bounds in both lanes */
  dsp_add_s16_pairs pairs; /* NULL: element by element */
};

static inline uint32_t microaot_dsp_load2x16(const int16_t* p) {
  uint32_t word;
  memcpy(&word, p, 4);
  return word;
}

/* A scaled input's rescaling of x = q * 2^16 (its shift >= 1): the sign's add folded into one instruction. */
static inline int32_t dsp_add_s16_scaled(int32_t x, const microaot_rescale_s16* r) {
#if MICROAOT_DSP_ASM
  int32_t c, u;
  __asm__("add %[c], %[r], %[x], asr #31\n\t"
          "smmlar %[u], %[x], %[m], %[c]"
          : [c] "=&r"(c), [u] "=r"(u)
          : [x] "r"(x), [m] "r"(r->multiplier), [r] "r"(r->rounding));
  return u >> r->exponent;
#else
  return microaot_dsp_smmlar(x, r->multiplier, r->rounding + (x >> 31)) >> r->exponent;
#endif
}

/* The top lane of a word as q * 2^16 (BFC clears the bottom lane in place). */
static inline int32_t dsp_add_s16_top(uint32_t w) {
#if MICROAOT_DSP_ASM
  __asm__("bfc %0, #0, #16" : "+r"(w));
  return (int32_t)w;
#else
  return (int32_t)(w & 0xFFFF0000u);
#endif
}

#define DSP_ADD_S16_SCALED(x, r) dsp_add_s16_scaled(x, &(r))
#define DSP_ADD_S16_EXACT(x, r) ((x) >> 2)

/* An output from its sum (the output's shift >= 1), saturated to int16. */
static inline int32_t dsp_add_s16_output(const microaot_rescale_s16* r, int32_t raw) {
  return microaot_dsp_ssat16(microaot_dsp_smmlar(raw * 2, r->multiplier, r->rounding + (raw >> 31)) >> r->exponent);
}

/* Two outputs from two sums: saturated, packed (bottom: the first), clamped. */
static inline uint32_t dsp_add_s16_output2(const dsp_add_s16* k, int32_t raw0, int32_t raw1) {
  const int32_t v0 = dsp_add_s16_output(&k->rule.output, raw0), v1 = dsp_add_s16_output(&k->rule.output, raw1);
  return microaot_dsp_smin16(microaot_dsp_smax16(microaot_dsp_pkhbt((uint32_t)v0, (uint32_t)v1), k->lo2), k->hi2);
}

/* `rows` rows of n elements of two contiguous inputs, OP + or -, each next row a_next (b_next) elements further
 * in input 1 (2): n (the next row) or 0 (a row repeated: per-channel broadcasting); an odd last element by the
 * rule's element. */
#define DSP_ADD_S16_PAIRS(name, OP, INPUT1, INPUT2)                                                          \
  static void name(const dsp_add_s16* constants, const int16_t* a, const int16_t* b, int16_t* out,          \
                   int32_t n, int32_t rows, int32_t a_next, int32_t b_next) {                                \
    const dsp_add_s16 k = *constants; /* a local: a store through int16_t* could alias the struct */        \
    for (; rows > 0; --rows, a += a_next, b += b_next, out += n) {                                           \
      int32_t c;                                                                                             \
      for (c = 0; c + 2 <= n; c += 2) {                                                                      \
        const uint32_t wa = microaot_dsp_load2x16(a + c), wb = microaot_dsp_load2x16(b + c);                 \
        const int32_t raw0 =                                                                                 \
            INPUT1((int32_t)(wa << 16), k.rule.input1) OP INPUT2((int32_t)(wb << 16), k.rule.input2);        \
        const int32_t raw1 =                                                                                 \
            INPUT1(dsp_add_s16_top(wa), k.rule.input1) OP INPUT2(dsp_add_s16_top(wb), k.rule.input2);        \
        const uint32_t packed = dsp_add_s16_output2(&k, raw0, raw1);                                         \
        memcpy(out + c, &packed, 4);                                                                         \
      }                                                                                                      \
      if (c < n) {                                                                                           \
        out[c] = (int16_t)microaot_add_s16_output(                                                           \
            microaot_add_s16_input(a[c], &k.rule.input1) OP microaot_add_s16_input(b[c], &k.rule.input2), &k.rule); \
      }                                                                                                      \
    }                                                                                                        \
  }

/* Which pair loop the rescalings allow: each input exact or scaled (bit 1: input 1 exact, bit 0: input 2), the
 * output's shift >= 1; -1: none (element by element). */
static inline int dsp_add_s16_pairs_kind(const microaot_add_s16_constants* k) {
  const microaot_rescale_s16* inputs[2] = {&k->input1, &k->input2};
  int kind = 0, i;
  if (k->output.exponent < 1) return -1;
  for (i = 0; i < 2; ++i) {
    const int exact = inputs[i]->multiplier == (1 << 30) && inputs[i]->exponent == 0 && inputs[i]->rounding == 0;
    if (!exact && inputs[i]->exponent < 1) return -1;
    kind = kind * 2 + exact;
  }
  return kind;
}

/* A row of the walk where both inputs step by one: all its elements (else none). */
static inline int32_t dsp_add_s16_rows(const dsp_add_s16* k, const int16_t* a, const int16_t* b, int32_t step1,
                                       int32_t step2, int16_t* out, int32_t n) {
  if (k->pairs == NULL || step1 != 1 || step2 != 1) return 0;
  k->pairs(k, a, b, out, n, 1, 0, 0);
  return n;
}

/* The whole tensor at once (1) where the walk is flat or [rows, n] with each input stepping by one along the
 * rows and either moving on or repeating its row (per-channel broadcasting): no walk, no call per row. */
static inline int dsp_add_s16_whole(const microaot_add_params_q* p, const dsp_add_s16* k, const int16_t* a,
                                    const int16_t* b, int16_t* out) {
  if (k->pairs == NULL) return 0;
  if (p->num_dims == 0) {
    k->pairs(k, a, b, out, p->flat_size, 1, 0, 0);
    return 1;
  }
  if (p->num_dims == 2 && p->input1_strides[1] == 1 && p->input2_strides[1] == 1 &&
      (p->input1_strides[0] == 0 || p->input1_strides[0] == p->output_shape[1]) &&
      (p->input2_strides[0] == 0 || p->input2_strides[0] == p->output_shape[1])) {
    k->pairs(k, a, b, out, p->output_shape[1], p->output_shape[0], p->input1_strides[0], p->input2_strides[0]);
    return 1;
  }
  return 0;
}

#define DSP_ADD_S16_ROWS(k, a, b, step1, step2, out, n) dsp_add_s16_rows(k, a, b, step1, step2, out, n)

/* Defines microaot_<name> (add_s16, sub_s16) with OP + or -, SUBTRACT 0 or 1, ELEMENT the rule's element. */
#define MICROAOT_DEFINE_DSP_ADD_S16_KERNEL(name, OP, SUBTRACT, ELEMENT, REFERENCE)                           \
  DSP_ADD_S16_PAIRS(name##_scaled_scaled, OP, DSP_ADD_S16_SCALED, DSP_ADD_S16_SCALED)                        \
  DSP_ADD_S16_PAIRS(name##_scaled_exact, OP, DSP_ADD_S16_SCALED, DSP_ADD_S16_EXACT)                          \
  DSP_ADD_S16_PAIRS(name##_exact_scaled, OP, DSP_ADD_S16_EXACT, DSP_ADD_S16_SCALED)                          \
  DSP_ADD_S16_PAIRS(name##_exact_exact, OP, DSP_ADD_S16_EXACT, DSP_ADD_S16_EXACT)                            \
  static int name##_constants(const microaot_add_params_q* p, dsp_add_s16* k) {                              \
    if (!microaot_add_s16_constants_of(p, SUBTRACT, &k->rule)) return 0;                                     \
    k->lo2 = microaot_dsp_pack16(p->activation_min, p->activation_min);                                      \
    k->hi2 = microaot_dsp_pack16(p->activation_max, p->activation_max);                                      \
    {                                                                                                        \
      const dsp_add_s16_pairs loops[4] = {name##_scaled_scaled, name##_scaled_exact, name##_exact_scaled,    \
                                          name##_exact_exact};                                               \
      const int kind = dsp_add_s16_pairs_kind(&k->rule);                                                     \
      k->pairs = kind < 0 ? NULL : loops[kind];                                                              \
    }                                                                                                        \
    return 1;                                                                                                \
  }                                                                                                          \
  MICROAOT_DEFINE_S16_ONE_ROUNDING_KERNEL(name, name##_dsp_reference, microaot_add_params_q, dsp_add_s16,     \
                                          name##_constants, ELEMENT, REFERENCE, DSP_ADD_S16_ROWS, dsp_add_s16_whole)

#endif /* MICROAOT_INTERNAL_DSP_ADD_S16_H */
