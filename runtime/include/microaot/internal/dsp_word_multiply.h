/* The DSP extension's word-by-halfword multiplies (SMLAWB, SMLAWT) and SSAT with a shift, beside microaot/internal/dsp.h
 * and under the same rule: inline assembly under MICROAOT_DSP_ASM, a C definition of the same result elsewhere.
 * The ADD kernel over one linear form (kernels/dsp/add_s8_linear.c) is made of them. */
#ifndef MICROAOT_DSP_WORD_MULTIPLY_H
#define MICROAOT_DSP_WORD_MULTIPLY_H

#include <stdint.h>

#include "microaot/internal/dsp.h"

#if MICROAOT_DSP_ASM

/* SMLAWB (SMLAWT): acc + the top 32 bits of the 48-bit product of m and the bottom (top) lane of x, that is
 * acc + floor(m * lane / 2^16). */
#define MICROAOT_DSP_SMLAW(lane)                                                            \
  static inline int32_t microaot_dsp_smlaw##lane(int32_t m, uint32_t x, int32_t acc) {      \
    int32_t r;                                                                              \
    __asm__("smlaw" #lane " %0, %1, %2, %3" : "=r"(r) : "r"(m), "r"(x), "r"(acc));          \
    return r;                                                                               \
  }
MICROAOT_DSP_SMLAW(b)
MICROAOT_DSP_SMLAW(t)
#undef MICROAOT_DSP_SMLAW

/* SSAT #8 of x >> 16 (arithmetic): floor(x / 2^16) clamped to [-128, 127]. */
static inline int32_t microaot_dsp_ssat8_asr16(int32_t x) {
  int32_t r;
  __asm__("ssat %0, #8, %1, asr #16" : "=r"(r) : "r"(x));
  return r;
}

/* Four elements of ADD over the linear form (microaot/kernels/add.h): one word of each input, its bytes 1, 3
 * (and, shifted left by 8, bytes 0, 2) masked into the top bytes of the 16-bit lanes (q * 2^8 each, mask
 * 0xFF00FF00), two SMLAW per element for bias + floor(m1 * q1 / 2^8) + floor(m2 * q2 / 2^8), SSAT #8 with
 * ASR #16, a byte store each; the three pointers advance by 4. One statement: 24 instructions with the loop's
 * compare and branch. Every load comes before the first store, so the output may be an input. */
static inline void microaot_dsp_add_linear4(const int8_t** a, const int8_t** b, int8_t** out, int32_t m1,
                                            int32_t m2, int32_t bias, uint32_t mask) {
  uint32_t w1, w2, x02, y02;
  int32_t t;
  __asm__(
#define MICROAOT_DSP_LINEAR(lane, x, y, store)          \
  "smlaw" lane " %[t], %[m1], %[" x "], %[bias]\n\t"  \
  "smlaw" lane " %[t], %[m2], %[" y "], %[t]\n\t"     \
  "ssat %[t], #8, %[t], asr #16\n\t"                  \
  store "\n\t"
      "ldr %[w1], [%[a]], #4\n\t"
      "ldr %[w2], [%[b]], #4\n\t"
      "and %[x02], %[mask], %[w1], lsl #8\n\t"
      "and %[w1], %[w1], %[mask]\n\t"
      "and %[y02], %[mask], %[w2], lsl #8\n\t"
      "and %[w2], %[w2], %[mask]\n\t"
      MICROAOT_DSP_LINEAR("t", "w1", "w2", "strb %[t], [%[out], #3]")
      MICROAOT_DSP_LINEAR("t", "x02", "y02", "strb %[t], [%[out], #2]")
      MICROAOT_DSP_LINEAR("b", "w1", "w2", "strb %[t], [%[out], #1]")
      MICROAOT_DSP_LINEAR("b", "x02", "y02", "strb %[t], [%[out]], #4")
#undef MICROAOT_DSP_LINEAR
      : [w1] "=&r"(w1), [w2] "=&r"(w2), [x02] "=&r"(x02), [y02] "=&r"(y02), [t] "=&r"(t), [a] "+r"(*a),
        [b] "+r"(*b), [out] "+r"(*out), "=m"(*(int8_t(*)[4])*out)
      : [m1] "r"(m1), [m2] "r"(m2), [bias] "r"(bias), [mask] "r"(mask), "m"(*(const int8_t(*)[4])*a),
        "m"(*(const int8_t(*)[4])*b));
}

#else /* the same results in C */

/* The product fits in 48 bits; >> of a negative int64 is arithmetic on every compiler microaot supports. */
static inline int32_t microaot_dsp_smlaw_lane(int32_t m, int32_t lane, int32_t acc) {
  return (int32_t)((uint32_t)acc + (uint32_t)(int32_t)(((int64_t)m * lane) >> 16));
}
static inline int32_t microaot_dsp_smlawb(int32_t m, uint32_t x, int32_t acc) {
  return microaot_dsp_smlaw_lane(m, (int16_t)(uint16_t)(x & 0xFFFFu), acc);
}
static inline int32_t microaot_dsp_smlawt(int32_t m, uint32_t x, int32_t acc) {
  return microaot_dsp_smlaw_lane(m, (int16_t)(uint16_t)(x >> 16), acc);
}

static inline int32_t microaot_dsp_ssat8_asr16(int32_t x) {
  const int32_t v = x >> 16;
  return v < -128 ? -128 : (v > 127 ? 127 : v);
}

static inline void microaot_dsp_add_linear4(const int8_t** a, const int8_t** b, int8_t** out, int32_t m1,
                                            int32_t m2, int32_t bias, uint32_t mask) {
  const uint32_t w1 = microaot_dsp_load4(*a), w2 = microaot_dsp_load4(*b);
  const uint32_t lanes1[2] = {(w1 << 8) & mask, w1 & mask}, lanes2[2] = {(w2 << 8) & mask, w2 & mask};
  int k;
  for (k = 0; k < 4; ++k) {
    const uint32_t x = lanes1[k % 2], y = lanes2[k % 2];
    const int32_t sum = k < 2 ? microaot_dsp_smlawb(m2, y, microaot_dsp_smlawb(m1, x, bias))
                              : microaot_dsp_smlawt(m2, y, microaot_dsp_smlawt(m1, x, bias));
    (*out)[k] = (int8_t)microaot_dsp_ssat8_asr16(sum);
  }
  *a += 4, *b += 4, *out += 4;
}

#endif

#endif /* MICROAOT_DSP_WORD_MULTIPLY_H */
