/* The Helium (MVE) primitives of the recurrent kernels (runtime/kernels/mve/: UNIDIRECTIONAL_SEQUENCE_LSTM,
 * SVDF), beside the matrix products' (microaot/internal/mve_dot.h): one row against four weight rows, 16 int8
 * products per VMLADAVA; a layer-wide requantization of four int32 sums per vector; the int16 LOGISTIC/TANH
 * table lookups four lanes at a time (gather loads). Bit-exact with the portable arithmetic
 * (microaot/fixedpoint.h, microaot/kernels/sigmoid.h). Only for a compiler with MVE. */
#ifndef MICROAOT_MVE_RECURRENT_H
#define MICROAOT_MVE_RECURRENT_H

#include <stdint.h>

#include "microaot/internal/mve_dot.h"

#if MICROAOT_MVE

/* Row x against the four weight rows w0..w3 (n int8 each): acc[k] += x . w_k. Per 16 elements: five loads,
 * four VMLADAVA, the LETP (0.16 instructions per product); tail-predicated as mve_dot.h's loops. */
static inline void microaot_mve_dot_1x4(const int8_t* x, const int8_t* w0, const int8_t* w1, const int8_t* w2,
                                        const int8_t* w3, int32_t n, int32_t acc[4]) {
  int32_t s0 = acc[0], s1 = acc[1], s2 = acc[2], s3 = acc[3];
  __asm__ volatile(
      "wlstp.8 lr, %[n], 2f\n"
      "1:\n\t"
      "vldrb.8 q0, [%[x]], #16\n\t"
      "vldrb.8 q1, [%[w0]], #16\n\t"
      "vmladava.s8 %[s0], q0, q1\n\t"
      "vldrb.8 q2, [%[w1]], #16\n\t"
      "vmladava.s8 %[s1], q0, q2\n\t"
      "vldrb.8 q1, [%[w2]], #16\n\t"
      "vmladava.s8 %[s2], q0, q1\n\t"
      "vldrb.8 q2, [%[w3]], #16\n\t"
      "vmladava.s8 %[s3], q0, q2\n\t"
      "letp lr, 1b\n"
      "2:\n"
      : [s0] "+Te"(s0), [s1] "+Te"(s1), [s2] "+Te"(s2), [s3] "+Te"(s3), [x] "+r"(x), [w0] "+r"(w0), [w1] "+r"(w1),
        [w2] "+r"(w2), [w3] "+r"(w3)
      : [n] "r"(n)
      : "q0", "q1", "q2", "lr", "memory");
  microaot_mve_set4(acc, s0, s1, s2, s3);
}

/* One requantization for every lane (microaot_multiply_by_quantized_multiplier with a layer's multiplier and
 * shift): wrapping left shift, VQRDMULH, the rounding right shift with ties away from zero (VRSHL rounds ties
 * up: a negative value is lowered by one first). */
typedef struct {
  int32_t multiplier, left, right;
} microaot_mve_requant;

static inline microaot_mve_requant microaot_mve_requant_of(int32_t multiplier, int32_t shift) {
  microaot_mve_requant q;
  q.multiplier = multiplier;
  q.left = shift > 0 ? shift : 0;
  q.right = shift > 0 ? 0 : -shift;
  return q;
}

static inline __attribute__((always_inline)) int32x4_t microaot_mve_requant4(const microaot_mve_requant q,
                                                                             int32x4_t v) {
  v = vqrdmulhq_n_s32(vshlq_r_s32(v, q.left), q.multiplier);
  if (q.right > 0) v = vrshlq_n_s32(vaddq_s32(v, vshrq_n_s32(v, 31)), -q.right);
  return v;
}

static inline __attribute__((always_inline)) int32x4_t microaot_mve_clamp4(int32x4_t v, int32_t lo, int32_t hi) {
  return vminq_s32(vmaxq_s32(v, vdupq_n_s32(lo)), vdupq_n_s32(hi));
}

/* The int16 table (microaot_sigmoid_table_lookup) at magnitude / 2^step_bits, four lanes: entries index and
 * index + 1 by gather loads (the index held at 254 so that they stay in the table), the lanes from entry 255 on
 * the saturation value. */
static inline __attribute__((always_inline)) int32x4_t microaot_mve_table4(const int16_t* table, int32x4_t magnitude,
                                                                           int step_bits, int32_t saturation) {
  const int32x4_t at = vshlq_r_s32(magnitude, -step_bits);
  const uint32x4_t held = vreinterpretq_u32_s32(vminq_s32(at, vdupq_n_s32(254)));
  const int32x4_t below = vaddq_n_s32(vldrhq_gather_shifted_offset_s32(table, held), 32768);
  const int32x4_t above = vaddq_n_s32(vldrhq_gather_shifted_offset_s32(table + 1, held), 32768);
  const int32x4_t low = vandq_s32(magnitude, vdupq_n_s32((1 << step_bits) - 1));
  const int32x4_t s = vaddq_s32(vshlq_r_s32(below, step_bits), vmulq_s32(low, vsubq_s32(above, below)));
  return vpselq_s32(vdupq_n_s32(saturation), s, vcmpgtq_n_s32(at, 254));
}

/* LOGISTIC (microaot_logistic_s16_of_units) of four inputs in table units, Q0.15. */
static inline __attribute__((always_inline)) int32x4_t microaot_mve_logistic4(const int16_t* table, int32x4_t v) {
  const int32x4_t s = microaot_mve_table4(table, vabsq_s32(v), 9, 0x7FFF << 10);
  const int32x4_t negative = vsubq_s32(vdupq_n_s32((1 << 25) + (1 << 9) - 1), s);
  return vshrq_n_s32(vpselq_s32(vaddq_n_s32(s, 1 << 9), negative, vcmpgeq_n_s32(v, 0)), 10);
}

/* TANH (microaot_tanh_s16_of_units) of four inputs in table units, Q0.15. */
static inline __attribute__((always_inline)) int32x4_t microaot_mve_tanh4(const int16_t* table, int32x4_t v) {
  const int32x4_t s = microaot_mve_table4(table, vabsq_s32(v), 8, (int32_t)(0xFFFFu << 8));
  const int32x4_t negative = vsubq_s32(vdupq_n_s32((1 << 23) + (1 << 7) - 1), s);
  return vshrq_n_s32(vpselq_s32(vaddq_n_s32(s, -(1 << 23) + (1 << 7)), negative, vcmpgeq_n_s32(v, 0)), 8);
}

#endif /* MICROAOT_MVE */

#endif /* MICROAOT_MVE_RECURRENT_H */
