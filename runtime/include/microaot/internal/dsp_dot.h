/* The inner loops of the DSP kernels (runtime/kernels/dsp/): dot products of int8 rows, each element plus its
 * row's zero-point offset, two multiply-accumulates per SMLAD, and the int8 output step. Four elements at a
 * time: SXTAB16 widens bytes 0 and 2 (then 1 and 3) of a word and adds the offset to both lanes at once, so
 * an element pairs with the weight of the same byte position; integer sums do not depend on the order. */
#ifndef MICROAOT_DSP_DOT_H
#define MICROAOT_DSP_DOT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "microaot/internal/dsp.h"
#include "microaot/fixedpoint.h"

/* Two rows a0, a1 (offset a_offset) against two rows b0, b1 (offset b_offset), n elements each:
 * acc[2 * i + j] = sum over k of (a_i[k] + a_offset) * (b_j[k] + b_offset). Offsets in [-255, 255]. */
static inline void microaot_dsp_dot_2x2(const int8_t* a0, const int8_t* a1, const int8_t* b0, const int8_t* b1,
                                        int32_t n, int32_t a_offset, int32_t b_offset, int32_t acc[4]) {
  const uint32_t a_off = microaot_dsp_pack16(a_offset, a_offset), b_off = microaot_dsp_pack16(b_offset, b_offset);
  int32_t s00 = 0, s01 = 0, s10 = 0, s11 = 0, k;
  for (k = 0; k + 4 <= n; k += 4) {
    const uint32_t a0w = microaot_dsp_load4(a0 + k), a1w = microaot_dsp_load4(a1 + k);
    const uint32_t b0w = microaot_dsp_load4(b0 + k), b1w = microaot_dsp_load4(b1 + k);
    const uint32_t a0e = microaot_dsp_sxtab16(a_off, a0w), a0o = microaot_dsp_sxtab16_ror8(a_off, a0w);
    const uint32_t a1e = microaot_dsp_sxtab16(a_off, a1w), a1o = microaot_dsp_sxtab16_ror8(a_off, a1w);
    const uint32_t b0e = microaot_dsp_sxtab16(b_off, b0w), b0o = microaot_dsp_sxtab16_ror8(b_off, b0w);
    const uint32_t b1e = microaot_dsp_sxtab16(b_off, b1w), b1o = microaot_dsp_sxtab16_ror8(b_off, b1w);
    s00 = microaot_dsp_smlad(a0o, b0o, microaot_dsp_smlad(a0e, b0e, s00));
    s01 = microaot_dsp_smlad(a0o, b1o, microaot_dsp_smlad(a0e, b1e, s01));
    s10 = microaot_dsp_smlad(a1o, b0o, microaot_dsp_smlad(a1e, b0e, s10));
    s11 = microaot_dsp_smlad(a1o, b1o, microaot_dsp_smlad(a1e, b1e, s11));
  }
  for (; k < n; ++k) {
    const int32_t x0 = a0[k] + a_offset, x1 = a1[k] + a_offset, w0 = b0[k] + b_offset, w1 = b1[k] + b_offset;
    s00 += x0 * w0;
    s01 += x0 * w1;
    s10 += x1 * w0;
    s11 += x1 * w1;
  }
  acc[0] = s00;
  acc[1] = s01;
  acc[2] = s10;
  acc[3] = s11;
}

/* One row a against two rows b0, b1: acc[j] = sum over k of (a[k] + a_offset) * (b_j[k] + b_offset). */
static inline void microaot_dsp_dot_1x2(const int8_t* a, const int8_t* b0, const int8_t* b1, int32_t n,
                                        int32_t a_offset, int32_t b_offset, int32_t acc[2]) {
  const uint32_t a_off = microaot_dsp_pack16(a_offset, a_offset), b_off = microaot_dsp_pack16(b_offset, b_offset);
  const int8_t* const end = a + 4 * (n / 4); /* pointers, not an index: the loop's values fit the registers */
  int32_t s0 = 0, s1 = 0;
  for (; a != end; a += 4, b0 += 4, b1 += 4) {
    const uint32_t aw = microaot_dsp_load4(a), b0w = microaot_dsp_load4(b0), b1w = microaot_dsp_load4(b1);
    const uint32_t ae = microaot_dsp_sxtab16(a_off, aw), ao = microaot_dsp_sxtab16_ror8(a_off, aw);
    s0 = microaot_dsp_smlad(ao, microaot_dsp_sxtab16_ror8(b_off, b0w),
                            microaot_dsp_smlad(ae, microaot_dsp_sxtab16(b_off, b0w), s0));
    s1 = microaot_dsp_smlad(ao, microaot_dsp_sxtab16_ror8(b_off, b1w),
                            microaot_dsp_smlad(ae, microaot_dsp_sxtab16(b_off, b1w), s1));
  }
  for (n %= 4; n > 0; --n) {
    const int32_t x = *a++ + a_offset;
    s0 += x * (*b0++ + b_offset);
    s1 += x * (*b1++ + b_offset);
  }
  acc[0] = s0;
  acc[1] = s1;
}

/* One row a against one row b: the sum over k of (a[k] + a_offset) * (b[k] + b_offset) (a lone unit: a pair
 * would compute it twice). */
static inline int32_t microaot_dsp_dot_1x1(const int8_t* a, const int8_t* b, int32_t n, int32_t a_offset,
                                           int32_t b_offset) {
  const uint32_t a_off = microaot_dsp_pack16(a_offset, a_offset), b_off = microaot_dsp_pack16(b_offset, b_offset);
  const int8_t* const end = a + 4 * (n / 4);
  int32_t s = 0;
  for (; a != end; a += 4, b += 4) {
    const uint32_t aw = microaot_dsp_load4(a), bw = microaot_dsp_load4(b);
    s = microaot_dsp_smlad(microaot_dsp_sxtab16_ror8(a_off, aw), microaot_dsp_sxtab16_ror8(b_off, bw),
                           microaot_dsp_smlad(microaot_dsp_sxtab16(a_off, aw), microaot_dsp_sxtab16(b_off, bw), s));
  }
  for (n %= 4; n > 0; --n) s += (*a++ + a_offset) * (*b++ + b_offset);
  return s;
}

/* One row a against three rows b[0..2]: acc[j] = sum over k of (a[k] + a_offset) * (b[j][k] + b_offset), each
 * word of a widened once for all three (18 instructions per 12 MACs, where a pair takes 13 per 8). */
static inline void microaot_dsp_dot_1x3(const int8_t* a, const int8_t* const b[3], int32_t n, int32_t a_offset,
                                        int32_t b_offset, int32_t acc[3]) {
  const uint32_t a_off = microaot_dsp_pack16(a_offset, a_offset), b_off = microaot_dsp_pack16(b_offset, b_offset);
  const int8_t *b0 = b[0], *b1 = b[1], *b2 = b[2];
  int32_t s0 = 0, s1 = 0, s2 = 0, k;
  for (k = 0; k + 4 <= n; k += 4) {
    const uint32_t aw = microaot_dsp_load4(a + k), b0w = microaot_dsp_load4(b0 + k), b1w = microaot_dsp_load4(b1 + k);
    const uint32_t b2w = microaot_dsp_load4(b2 + k);
    const uint32_t ae = microaot_dsp_sxtab16(a_off, aw), ao = microaot_dsp_sxtab16_ror8(a_off, aw);
    s0 = microaot_dsp_smlad(ao, microaot_dsp_sxtab16_ror8(b_off, b0w),
                            microaot_dsp_smlad(ae, microaot_dsp_sxtab16(b_off, b0w), s0));
    s1 = microaot_dsp_smlad(ao, microaot_dsp_sxtab16_ror8(b_off, b1w),
                            microaot_dsp_smlad(ae, microaot_dsp_sxtab16(b_off, b1w), s1));
    s2 = microaot_dsp_smlad(ao, microaot_dsp_sxtab16_ror8(b_off, b2w),
                            microaot_dsp_smlad(ae, microaot_dsp_sxtab16(b_off, b2w), s2));
  }
  for (; k < n; ++k) {
    const int32_t x = a[k] + a_offset;
    s0 += x * (b0[k] + b_offset);
    s1 += x * (b1[k] + b_offset);
    s2 += x * (b2[k] + b_offset);
  }
  acc[0] = s0;
  acc[1] = s1;
  acc[2] = s2;
}

/* n int8 elements plus `offset`, widened to int16 in SMLAD's lane order: each group of four x0..x3 becomes
 * x0, x2, x1, x3 (bytes 0 and 2, then 1 and 3 of a word), the last n % 4 stay in order. */
static inline void microaot_dsp_widen(const int8_t* src, int32_t n, int32_t offset, int16_t* dst) {
  const uint32_t off = microaot_dsp_pack16(offset, offset);
  int32_t k;
  for (k = 0; k + 4 <= n; k += 4) {
    const uint32_t word = microaot_dsp_load4(src + k);
    const uint32_t even = microaot_dsp_sxtab16(off, word), odd = microaot_dsp_sxtab16_ror8(off, word);
    memcpy(dst + k, &even, 4);
    memcpy(dst + k + 2, &odd, 4);
  }
  for (; k < n; ++k) dst[k] = (int16_t)(src[k] + offset);
}

/* Four elements of a widened row (two words: lanes 0, 2 then 1, 3) against the widened lanes of two weight
 * words b0 and b1 (even = bytes 0, 2; odd = bytes 1, 3): *s0 += a . b0, *s1 += a . b1. */
static inline void microaot_dsp_mac4x2(const int16_t* a, uint32_t b0_even, uint32_t b0_odd, uint32_t b1_even,
                                       uint32_t b1_odd, int32_t* s0, int32_t* s1) {
  uint32_t even, odd;
  memcpy(&even, a, 4);
  memcpy(&odd, a + 2, 4);
  *s0 = microaot_dsp_smlad(odd, b0_odd, microaot_dsp_smlad(even, b0_even, *s0));
  *s1 = microaot_dsp_smlad(odd, b1_odd, microaot_dsp_smlad(even, b1_even, *s1));
}

/* Two int16 rows widened by microaot_dsp_widen (offset included) against two int8 rows b0, b1:
 * acc[2 * i + j] = sum over k of a_i[k] * b_j[k]; per four elements 2 + 2 loads, 4 widenings, 8 SMLADs. */
static inline void microaot_dsp_dot_2x2_s16(const int16_t* a0, const int16_t* a1, const int8_t* b0,
                                            const int8_t* b1, int32_t n, int32_t acc[4]) {
  int32_t s00 = 0, s01 = 0, s10 = 0, s11 = 0, k;
  for (k = 0; k + 4 <= n; k += 4) {
    const uint32_t b0w = microaot_dsp_load4(b0 + k), b1w = microaot_dsp_load4(b1 + k);
    const uint32_t b0e = microaot_dsp_sxtb16(b0w), b0o = microaot_dsp_sxtb16_ror8(b0w);
    const uint32_t b1e = microaot_dsp_sxtb16(b1w), b1o = microaot_dsp_sxtb16_ror8(b1w);
    microaot_dsp_mac4x2(a0 + k, b0e, b0o, b1e, b1o, &s00, &s01);
    microaot_dsp_mac4x2(a1 + k, b0e, b0o, b1e, b1o, &s10, &s11);
  }
  for (; k < n; ++k) {
    s00 += a0[k] * b0[k];
    s01 += a0[k] * b1[k];
    s10 += a1[k] * b0[k];
    s11 += a1[k] * b1[k];
  }
  acc[0] = s00;
  acc[1] = s01;
  acc[2] = s10;
  acc[3] = s11;
}

/* microaot_multiply_by_quantized_multiplier for a multiplier other than INT32_MIN (the compiler's are in
 * [2^30, 2^31) or 0), without branches on the value: the saturating rounding doubling high multiply rounds
 * a*b/2^31 half away from zero, which is floor((a*b + 2^30) / 2^31) in both signs. */
static inline int32_t microaot_dsp_requantize(int32_t acc, int32_t multiplier, int shift) {
  const int left = shift > 0 ? shift : 0;
  const int64_t product = (int64_t)(int32_t)((uint32_t)acc << left) * multiplier;
  const int32_t high = (int32_t)((product + ((int64_t)1 << 30)) >> 31);
  return microaot_rounding_divide_by_pot(high, left - shift);
}

/* The output step of an int8 kernel with per-channel requantization (convolutions, FULLY_CONNECTED). */
typedef struct {
  const int32_t* bias; /* NULL: none */
  const int32_t* multiplier;
  const int32_t* shift;
  int32_t output_offset, activation_min, activation_max;
} microaot_dsp_output_stage;

/* From a params struct with the fields of MICROAOT_CONV_QUANT_FIELDS (fully-connected ones too). */
#define MICROAOT_DSP_OUTPUT_STAGE(p, bias_array)                                                      \
  {(bias_array), (p)->output_multiplier, (p)->output_shift, (p)->output_offset, (p)->activation_min, \
   (p)->activation_max}

/* Channel c from its sum: plus the bias (0 without one, as the reference adds), requantized, plus the output
 * zero point, clamped. */
static inline int8_t microaot_dsp_output(const microaot_dsp_output_stage* o, int32_t acc, int32_t c) {
  const int32_t biased = acc + (o->bias != NULL ? o->bias[c] : 0);
  const int32_t value = microaot_dsp_requantize(biased, o->multiplier[c], (int)o->shift[c]) + o->output_offset;
  return (int8_t)microaot_clamp_s32(value, o->activation_min, o->activation_max);
}

/* One or two operand rows (a1 NULL: one) of n elements against `units` weight rows of n elements (rows
 * [units, n]): out_i[u] = output step of sum_k (a_i[k] + a_offset) * (w_u[k] + w_offset). Two rows take the units
 * two at a time, one row three at a time but for four or fewer left (pairs); an odd last unit pairs with itself. */
static inline void microaot_dsp_rows_times_weights(const int8_t* a0, const int8_t* a1, int32_t a_offset,
                                                   const int8_t* weights, int32_t w_offset, int32_t n,
                                                   int32_t units, const microaot_dsp_output_stage* o,
                                                   int8_t* out0, int8_t* out1) {
  int32_t u, j, count, acc[4];
  for (u = 0; a1 == NULL && u < units; u += count) {
    const int8_t* const w0 = weights + (size_t)u * (size_t)n;
    /* three at a time where that is cheaper than pairs: all but four or fewer left */
    count = units - u == 3 || units - u >= 5 ? 3 : units - u >= 2 ? 2 : 1;
    if (count == 3) {
      const int8_t* const rows[3] = {w0, w0 + n, w0 + 2 * (size_t)n};
      microaot_dsp_dot_1x3(a0, rows, n, a_offset, w_offset, acc);
    } else if (count == 2) {
      microaot_dsp_dot_1x2(a0, w0, w0 + n, n, a_offset, w_offset, acc);
    } else {
      acc[0] = microaot_dsp_dot_1x1(a0, w0, n, a_offset, w_offset);
    }
    for (j = 0; j < count; ++j) out0[u + j] = microaot_dsp_output(o, acc[j], u + j);
  }
  if (a1 == NULL) return;
  for (u = 0; u < units; u += 2) {
    const int32_t second = u + 1 < units ? u + 1 : u; /* an odd last unit pairs with itself */
    microaot_dsp_dot_2x2(a0, a1, weights + (size_t)u * (size_t)n, weights + (size_t)second * (size_t)n, n, a_offset,
                         w_offset, acc);
    out0[u] = microaot_dsp_output(o, acc[0], u);
    out0[second] = microaot_dsp_output(o, acc[1], second);
    out1[u] = microaot_dsp_output(o, acc[2], u);
    out1[second] = microaot_dsp_output(o, acc[3], second);
  }
}

#endif /* MICROAOT_DSP_DOT_H */
