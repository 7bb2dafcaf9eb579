/* MUL int16 for a cpu with the DSP extension, bit-exact with the portable kernel (the one-rounding rule of
 * microaot/internal/rescale_s16.h): two elements a pass where input 1 steps by one and input 2 steps by one or is
 * one value along the row (input 1 one value: the product commutes). SMULBB and SMULTT multiply a word of each
 * input lane by lane, one SMMLAR rescales each product against the wrapped multiplier (plus the product), the
 * outputs are saturated, packed, clamped by SSUB16 and SEL, stored as one word. Other rows, a shift of 0 and the
 * odd last element take the rule element by element. */
#include "microaot/internal/dsp_add_s16.h"

typedef struct {
  microaot_mul_s16_constants rule;
  uint32_t lo2, hi2; /* the clamp's bounds in both lanes */
} dsp_mul_s16;

static inline int32_t dsp_mul_s16_lane(int32_t product, const microaot_rescale_s16* r) {
  const int32_t high = microaot_dsp_smmlar(product, r->multiplier, r->rounding + (product >> 31));
  return microaot_dsp_ssat16((int32_t)((uint32_t)high + (uint32_t)product) >> r->exponent);
}

/* `rows` rows of n elements of a (contiguous) and b (contiguous, or one value: SCALAR), each next row a_next (b_next)
 * elements further: n or 0 (a row repeated); an odd last element by the rule's element. */
#define DSP_MUL_S16_PAIRS(name, SCALAR)                                                                         \
  static void name(const dsp_mul_s16* constants, const int16_t* a, const int16_t* b, int16_t* out, int32_t n,  \
                   int32_t rows, int32_t a_next, int32_t b_next) {                                             \
    const dsp_mul_s16 k = *constants; /* a local: a store through int16_t* could alias the struct */           \
    for (; rows > 0; --rows, a += a_next, b += b_next, out += n) {                                             \
      const uint32_t one = microaot_dsp_pack16(*b, *b);                                                        \
      int32_t c;                                                                                               \
      for (c = 0; c + 2 <= n; c += 2) {                                                                        \
        const uint32_t wa = microaot_dsp_load2x16(a + c), wb = SCALAR ? one : microaot_dsp_load2x16(b + c);    \
        const int32_t v0 = dsp_mul_s16_lane(microaot_dsp_smlabb(wa, wb, 0), &k.rule.output);                  \
        const int32_t v1 = dsp_mul_s16_lane(microaot_dsp_smlatt(wa, wb, 0), &k.rule.output);                   \
        const uint32_t packed = microaot_dsp_smin16(                                                           \
            microaot_dsp_smax16(microaot_dsp_pkhbt((uint32_t)v0, (uint32_t)v1), k.lo2), k.hi2);                \
        memcpy(out + c, &packed, 4);                                                                           \
      }                                                                                                        \
      if (c < n) out[c] = (int16_t)(MICROAOT_MUL_S16_ONE_ROUNDING(&k.rule, a[c], b[SCALAR ? 0 : c]));          \
    }                                                                                                          \
  }
DSP_MUL_S16_PAIRS(mul_s16_pairs, 0)
DSP_MUL_S16_PAIRS(mul_s16_pairs_scalar, 1)
#undef DSP_MUL_S16_PAIRS

/* A row of the walk (an input stepping by one, the other by one or zero): all its elements (else none). */
static int32_t dsp_mul_s16_rows(const dsp_mul_s16* k, const int16_t* a, const int16_t* b, int32_t step1,
                                int32_t step2, int16_t* out, int32_t n) {
  if (k->rule.output.exponent < 1) return 0;
  if (step1 == 1 && step2 == 1) {
    mul_s16_pairs(k, a, b, out, n, 1, 0, 0);
  } else if (step1 == 1 && step2 == 0) {
    mul_s16_pairs_scalar(k, a, b, out, n, 1, 0, 0);
  } else if (step1 == 0 && step2 == 1) {
    mul_s16_pairs_scalar(k, b, a, out, n, 1, 0, 0);
  } else {
    return 0;
  }
  return n;
}

/* The whole tensor at once (1) where the walk is flat or [rows, n] with both inputs stepping by one along the rows
 * and each moving on or repeating its row (per-channel broadcasting): no walk, no call per row. */
static int dsp_mul_s16_whole(const microaot_mul_params_q* p, const dsp_mul_s16* k, const int16_t* a, const int16_t* b,
                             int16_t* out) {
  if (k->rule.output.exponent < 1) return 0;
  if (p->num_dims == 0) {
    mul_s16_pairs(k, a, b, out, p->flat_size, 1, 0, 0);
    return 1;
  }
  if (p->num_dims == 2 && p->input1_strides[1] == 1 && p->input2_strides[1] == 1 &&
      (p->input1_strides[0] == 0 || p->input1_strides[0] == p->output_shape[1]) &&
      (p->input2_strides[0] == 0 || p->input2_strides[0] == p->output_shape[1])) {
    mul_s16_pairs(k, a, b, out, p->output_shape[1], p->output_shape[0], p->input1_strides[0], p->input2_strides[0]);
    return 1;
  }
  return 0;
}

static int dsp_mul_s16_constants(const microaot_mul_params_q* p, dsp_mul_s16* k) {
  if (!microaot_mul_s16_constants_of(p, &k->rule)) return 0;
  k->lo2 = microaot_dsp_pack16(p->activation_min, p->activation_min);
  k->hi2 = microaot_dsp_pack16(p->activation_max, p->activation_max);
  return 1;
}

#define DSP_MUL_S16_ELEMENT(k, a, b) MICROAOT_MUL_S16_ONE_ROUNDING(&(k)->rule, a, b)

MICROAOT_DEFINE_S16_ONE_ROUNDING_KERNEL(mul_s16, mul_s16_dsp_reference, microaot_mul_params_q, dsp_mul_s16,
                                        dsp_mul_s16_constants, DSP_MUL_S16_ELEMENT, MICROAOT_MUL_QUANTIZED,
                                        dsp_mul_s16_rows, dsp_mul_s16_whole)
