/* The inner loops of the DSP 16x8 kernels (int16 activations, int8 weights: runtime/kernels/dsp/conv_2d_s16.c,
 * fully_connected_s16.c). The activations are int16 already: a row is put in SMLAD's lane order once
 * (microaot_dsp_lanes_s16, the order microaot_dsp_widen gives int8 rows), then each weight word widens with
 * SXTB16 to the matching lanes and two SMLADs take four products. A product is at
 * most 2^15 * 2^7 = 2^22 in magnitude, so a sum of MICROAOT_DSP_S16_CHUNK of them stays inside int32 at every
 * step (508 * 2^22 < 2^31): longer rows add chunk sums into int64, the reference's accumulator, exactly. */
#ifndef MICROAOT_DSP_DOT_S16_H
#define MICROAOT_DSP_DOT_S16_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "microaot/fixedpoint.h"
#include "microaot/internal/dsp.h"

/* The stack buffers. A convolution's two columns: windows of up to MICROAOT_DSP_S16_COLUMN elements are gathered
 * whole (2.3 KB). FULLY_CONNECTED rows of up to MICROAOT_DSP_S16_ROWS elements (or two where they fit) are put in
 * lane order whole (2 KB). Longer windows and rows are reduced in pieces of up to MICROAOT_DSP_S16_PIECE elements
 * in the same buffer (microaot_dsp_s16_pieces), each piece against MICROAOT_DSP_S16_BLOCK output channels whose
 * int64 sums lie between the two rows' pieces: any length runs the same inner loops on the same stack. */
#define MICROAOT_DSP_S16_COLUMN 576
#define MICROAOT_DSP_S16_ROWS 1024
#define MICROAOT_DSP_S16_BLOCK 32
#define MICROAOT_DSP_S16_PIECE (MICROAOT_DSP_S16_COLUMN - 8 * MICROAOT_DSP_S16_BLOCK) /* 320 */

/* The distance of the convolution's two columns, in words. */
#define MICROAOT_DSP_S16_COLUMN_WORDS (MICROAOT_DSP_S16_COLUMN / 2)

/* Two rows' pieces in lane order, `second` MICROAOT_DSP_S16_COLUMN_WORDS words after `first` (the dot's assembly
 * loop), and the sums of a block of channel pairs (sums[pair][2 * row + channel]). */
typedef struct {
  uint32_t first[MICROAOT_DSP_S16_PIECE / 2];
  int64_t sums[MICROAOT_DSP_S16_BLOCK / 2][4];
  uint32_t second[MICROAOT_DSP_S16_PIECE / 2];
} microaot_dsp_s16_pieces;
typedef char microaot_dsp_s16_pieces_layout[offsetof(microaot_dsp_s16_pieces, second) ==
                                                    4 * MICROAOT_DSP_S16_COLUMN_WORDS
                                                ? 1
                                                : -1];

/* The dot products: inline in every caller (a kernel's short and long paths both call them; their loops are the
 * kernels' time). */
#if defined(__GNUC__)
#define MICROAOT_DSP_S16_LOOP static inline __attribute__((always_inline))
#else
#define MICROAOT_DSP_S16_LOOP static inline
#endif

/* Elements summed in int32 before an int64 addition: a multiple of 4 (whole lane groups), below 2^31 / 2^22. */
#define MICROAOT_DSP_S16_CHUNK 508

/* n int16 elements in SMLAD's lane order into words (two elements each, (n + 1) / 2 words): each group of four
 * x0..x3 becomes x0, x2, x1, x3, the last n % 4 stay in order. dst may be src. */
static inline void microaot_dsp_lanes_s16(const int16_t* src, int32_t n, uint32_t* dst_words) {
  unsigned char* dst = (unsigned char*)dst_words;
  int32_t k;
  for (k = 0; k + 4 <= n; k += 4) {
    uint32_t low, high, even, odd;
    memcpy(&low, src + k, 4);
    memcpy(&high, src + k + 2, 4);
    even = microaot_dsp_pkhbt(low, high); /* x0, x2 */
    odd = microaot_dsp_pkhtb(low, high);  /* x1, x3 */
    memcpy(dst + 2 * (size_t)k, &even, 4);
    memcpy(dst + 2 * (size_t)k + 4, &odd, 4);
  }
  for (; k < n; ++k) memcpy(dst + 2 * (size_t)k, src + k, 2);
}

/* The same lane order into words dst[0], dst[1] (elements 0..3), dst[stride], dst[stride + 1] (4..7), ...: rows
 * interleaved for the packed kernels' loops (microaot/kernels/packed.h); the last group's missing elements 0. */
static inline void microaot_dsp_lanes_s16_strided(const int16_t* src, int32_t n, uint32_t* dst, int32_t stride) {
  int32_t k;
  for (k = 0; k + 4 <= n; k += 4, dst += stride) {
    uint32_t low, high;
    memcpy(&low, src + k, 4);
    memcpy(&high, src + k + 2, 4);
    dst[0] = microaot_dsp_pkhbt(low, high); /* x0, x2 */
    dst[1] = microaot_dsp_pkhtb(low, high); /* x1, x3 */
  }
  if (k < n) {
    int16_t x[4] = {0, 0, 0, 0};
    memcpy(x, src + k, (size_t)(n - k) * sizeof(int16_t));
    dst[0] = (uint32_t)(uint16_t)x[0] | (uint32_t)(uint16_t)x[2] << 16;
    dst[1] = (uint32_t)(uint16_t)x[1] | (uint32_t)(uint16_t)x[3] << 16;
  }
}

/* Element k (in lane order) of a lane-ordered row held in words. */
static inline int32_t microaot_dsp_lane_s16(const uint32_t* row, int32_t k) {
  int16_t x;
  memcpy(&x, (const unsigned char*)row + 2 * (size_t)k, 2);
  return x;
}

/* Two lane-ordered rows a0, a1 (words of two elements) against two int8 rows b0, b1, n <= MICROAOT_DSP_S16_CHUNK
 * elements: acc[2 * i + j] = sum over k of a_i[k] * b_j[k] (int32, exact); per four elements four row words,
 * two weight words, four SXTB16, eight SMLADs. a1 and b1 are read at their distance from a0 and b0: one
 * pointer each, an immediate offset where the caller's distance is a constant (the convolution's columns). */
#if MICROAOT_DSP_ASM
/* The loop of microaot_dsp_dot_2x2_s16x8 for rows MICROAOT_DSP_S16_COLUMN_WORDS words apart (the convolution's
 * two columns: the second row at an immediate offset, so that thirteen registers hold the loop): per four
 * elements four row loads, two weight loads, four SXTB16, eight SMLADs, the compare and the branch. At least
 * one group of four (b0 != end). */
static inline void microaot_dsp_dot_2x2_columns_asm(const uint32_t** a0, const int8_t** b0, ptrdiff_t b_step,
                                                    const int8_t* end, int32_t s[4]) {
  const uint32_t* a = *a0;
  const int8_t* b = *b0;
  int32_t s00 = s[0], s01 = s[1], s10 = s[2], s11 = s[3];
  uint32_t wa, wb, x, y, t;
  __asm__(
      "1:\n\t"
      "ldr %[wb], [%[b], %[bs]]\n\t"
      "ldr %[wa], [%[b]], #4\n\t"
      "ldr %[y], [%[a], %[off]]\n\t"
      "ldr %[x], [%[a]], #4\n\t"
      "sxtb16 %[t], %[wa]\n\t"
      "smlad %[s00], %[x], %[t], %[s00]\n\t"
      "smlad %[s10], %[y], %[t], %[s10]\n\t"
      "sxtb16 %[t], %[wb]\n\t"
      "smlad %[s01], %[x], %[t], %[s01]\n\t"
      "smlad %[s11], %[y], %[t], %[s11]\n\t"
      "ldr %[y], [%[a], %[off]]\n\t"
      "ldr %[x], [%[a]], #4\n\t"
      "sxtb16 %[t], %[wa], ror #8\n\t"
      "smlad %[s00], %[x], %[t], %[s00]\n\t"
      "smlad %[s10], %[y], %[t], %[s10]\n\t"
      "sxtb16 %[t], %[wb], ror #8\n\t"
      "smlad %[s01], %[x], %[t], %[s01]\n\t"
      "smlad %[s11], %[y], %[t], %[s11]\n\t"
      "cmp %[b], %[end]\n\t"
      "bne 1b"
      : [s00] "+r"(s00), [s01] "+r"(s01), [s10] "+r"(s10), [s11] "+r"(s11), [a] "+r"(a), [b] "+r"(b),
        [wa] "=&r"(wa), [wb] "=&r"(wb), [x] "=&r"(x), [y] "=&r"(y), [t] "=&r"(t)
      : [bs] "r"(b_step), [end] "r"(end), [off] "I"(MICROAOT_DSP_S16_COLUMN_WORDS * 4)
      : "cc", "memory");
  *a0 = a, *b0 = b;
  s[0] = s00, s[1] = s01, s[2] = s10, s[3] = s11;
}
#endif

MICROAOT_DSP_S16_LOOP void microaot_dsp_dot_2x2_s16x8(const uint32_t* a0, const uint32_t* a1, const int8_t* b0,
                                                     const int8_t* b1, int32_t n, int32_t acc[4]) {
  const ptrdiff_t a_step = a1 - a0, b_step = b1 - b0;
  const int8_t* const end = b0 + (n & ~3);
  int32_t s00 = 0, s01 = 0, s10 = 0, s11 = 0, k;
#if MICROAOT_DSP_ASM
  if (a_step == MICROAOT_DSP_S16_COLUMN_WORDS && b0 != end) {
    int32_t s[4] = {0, 0, 0, 0};
    microaot_dsp_dot_2x2_columns_asm(&a0, &b0, b_step, end, s);
    s00 = s[0], s01 = s[1], s10 = s[2], s11 = s[3];
  }
#endif
  for (; b0 != end; b0 += 4, a0 += 2) {
    const uint32_t x0 = a0[0], x1 = a0[1], y0 = a0[a_step], y1 = a0[a_step + 1];
    const uint32_t w = microaot_dsp_load4(b0), v = microaot_dsp_load4(b0 + b_step);
    const uint32_t w_even = microaot_dsp_sxtb16(w), v_even = microaot_dsp_sxtb16(v);
    s00 = microaot_dsp_smlad(x0, w_even, s00);
    s10 = microaot_dsp_smlad(y0, w_even, s10);
    s01 = microaot_dsp_smlad(x0, v_even, s01);
    s11 = microaot_dsp_smlad(y0, v_even, s11);
    {
      const uint32_t w_odd = microaot_dsp_sxtb16_ror8(w), v_odd = microaot_dsp_sxtb16_ror8(v);
      s00 = microaot_dsp_smlad(x1, w_odd, s00);
      s10 = microaot_dsp_smlad(y1, w_odd, s10);
      s01 = microaot_dsp_smlad(x1, v_odd, s01);
      s11 = microaot_dsp_smlad(y1, v_odd, s11);
    }
  }
  for (k = 0; k < (n & 3); ++k) { /* the last n % 4, in order */
    const int32_t x = microaot_dsp_lane_s16(a0, k), y = microaot_dsp_lane_s16(a0 + a_step, k);
    s00 += x * b0[k];
    s01 += x * b0[k + b_step];
    s10 += y * b0[k];
    s11 += y * b0[k + b_step];
  }
  acc[0] = s00;
  acc[1] = s01;
  acc[2] = s10;
  acc[3] = s11;
}

/* One lane-ordered row a against two int8 rows b0, b1, n <= MICROAOT_DSP_S16_CHUNK: acc[j] = sum of a[k] * b_j[k]. */
MICROAOT_DSP_S16_LOOP void microaot_dsp_dot_1x2_s16x8(const uint32_t* a, const int8_t* b0, const int8_t* b1,
                                                     int32_t n, int32_t acc[2]) {
  const ptrdiff_t b_step = b1 - b0;
  const int8_t* const end = b0 + (n & ~3);
  int32_t s0 = 0, s1 = 0, k;
  for (; b0 != end; b0 += 4, a += 2) {
    const uint32_t x0 = a[0], x1 = a[1];
    const uint32_t w = microaot_dsp_load4(b0), v = microaot_dsp_load4(b0 + b_step);
    s0 = microaot_dsp_smlad(x1, microaot_dsp_sxtb16_ror8(w), microaot_dsp_smlad(x0, microaot_dsp_sxtb16(w), s0));
    s1 = microaot_dsp_smlad(x1, microaot_dsp_sxtb16_ror8(v), microaot_dsp_smlad(x0, microaot_dsp_sxtb16(v), s1));
  }
  for (k = 0; k < (n & 3); ++k) {
    const int32_t x = microaot_dsp_lane_s16(a, k);
    s0 += x * b0[k];
    s1 += x * b0[k + b_step];
  }
  acc[0] = s0;
  acc[1] = s1;
}

/* The same over any n, int32 chunk sums added to acc (int64): acc[2 * i + j] += sum of a_i[k] * b_j[k]. One
 * chunk without the loop: most windows (the loop's int64 sums live on the stack). */
MICROAOT_DSP_S16_LOOP void microaot_dsp_dot_2x2_s16_long(const uint32_t* a0, const uint32_t* a1, const int8_t* b0,
                                                        const int8_t* b1, int32_t n, int64_t acc[4]) {
  int32_t k, part[4];
  if (n <= MICROAOT_DSP_S16_CHUNK) {
    microaot_dsp_dot_2x2_s16x8(a0, a1, b0, b1, n, part);
    acc[0] += part[0], acc[1] += part[1], acc[2] += part[2], acc[3] += part[3];
    return;
  }
  for (k = 0; k < n; k += MICROAOT_DSP_S16_CHUNK) {
    const int32_t len = n - k < MICROAOT_DSP_S16_CHUNK ? n - k : MICROAOT_DSP_S16_CHUNK;
    microaot_dsp_dot_2x2_s16x8(a0 + k / 2, a1 + k / 2, b0 + k, b1 + k, len, part);
    acc[0] += part[0];
    acc[1] += part[1];
    acc[2] += part[2];
    acc[3] += part[3];
  }
}

MICROAOT_DSP_S16_LOOP void microaot_dsp_dot_1x2_s16_long(const uint32_t* a, const int8_t* b0, const int8_t* b1,
                                                        int32_t n, int64_t acc[2]) {
  int32_t k, part[2];
  if (n <= MICROAOT_DSP_S16_CHUNK) {
    microaot_dsp_dot_1x2_s16x8(a, b0, b1, n, part);
    acc[0] += part[0], acc[1] += part[1];
    return;
  }
  for (k = 0; k < n; k += MICROAOT_DSP_S16_CHUNK) {
    const int32_t len = n - k < MICROAOT_DSP_S16_CHUNK ? n - k : MICROAOT_DSP_S16_CHUNK;
    microaot_dsp_dot_1x2_s16x8(a + k / 2, b0 + k, b1 + k, len, part);
    acc[0] += part[0];
    acc[1] += part[1];
  }
}

/* The output step of a 16x8 layer for one channel, its constants taken once for all the channel's outputs:
 * TFLite's 16x8 requantization (microaot_multiply_by_quantized_multiplier_s64) with the multiplier reduced to 16
 * bits up front (in int32: below 0x7FFF0000 the sum cannot overflow, and int32 division truncates as int64's
 * does) and its floor division as an arithmetic shift (GCC's and Clang's >> on a negative value). */
typedef struct {
  int64_t bias; /* 0 without one, as the reference adds */
  int32_t reduced, shift, offset, min, max;
} microaot_dsp_s16_channel;

static inline microaot_dsp_s16_channel microaot_dsp_s16_channel_of(const int64_t* bias, int32_t multiplier,
                                                                   int32_t shift, int32_t output_offset,
                                                                   int32_t activation_min, int32_t activation_max,
                                                                   int32_t c) {
  microaot_dsp_s16_channel ch;
  ch.bias = bias != NULL ? bias[c] : 0;
  ch.reduced = multiplier < 0x7FFF0000 ? (multiplier + (1 << 15)) / 65536 : 0x7FFF;
  ch.shift = 15 - shift;
  ch.offset = output_offset, ch.min = activation_min, ch.max = activation_max;
  return ch;
}

static inline int16_t microaot_dsp_s16_output(const microaot_dsp_s16_channel* ch, int64_t sum) {
  const int64_t value = (sum + ch->bias) * ch->reduced + ((int64_t)1 << (ch->shift - 1));
  return (int16_t)microaot_clamp_s32((int32_t)(value >> ch->shift) + ch->offset, ch->min, ch->max);
}

/* The same step as one SMLAL whose high word is the result, for a channel whose right shift ch->shift (15 - shift)
 * is 16 to 32 (microaot_fit_depthwise_s16_dsp_shift) and an int32 sum: where the step above costs as much as the
 * taps of a small window (a depthwise output has 9 products). With k = 32 - ch->shift, multiplier = reduced * 2^k
 * (at most 0x7FFF * 2^16: an int32) and base = (bias * reduced + 2^(shift - 1)) * 2^k + offset * 2^32, sum *
 * multiplier + base is value * 2^k + offset * 2^32 modulo 2^64 (value: the reference's 64-bit (sum + bias) *
 * reduced + 2^(shift - 1)). Its high word is then bits [shift, shift + 31] of value plus the offset, which is the
 * reference's (int32_t)(value >> shift) + offset: bit-exact whatever the bias, since the wrap modulo 2^64 drops only
 * bits of value above 63 - k = shift + 31. */
typedef struct {
  uint64_t base;
  int32_t multiplier;
} microaot_dsp_s16_high;

static inline microaot_dsp_s16_high microaot_dsp_s16_high_of(const microaot_dsp_s16_channel* ch) {
  const int k = 32 - ch->shift;
  const uint64_t rounded = (uint64_t)ch->bias * (uint64_t)(int64_t)ch->reduced + ((uint64_t)1 << (ch->shift - 1));
  microaot_dsp_s16_high h;
  h.multiplier = (int32_t)((uint32_t)ch->reduced << k);
  h.base = (rounded << k) + ((uint64_t)(uint32_t)ch->offset << 32);
  return h;
}

/* SMLAL's high word: (base + sum * multiplier) >> 32, the unclamped output. */
static inline int32_t microaot_dsp_s16_high_output(const microaot_dsp_s16_high* h, int32_t sum) {
#if MICROAOT_DSP_ASM
  uint32_t lo = (uint32_t)h->base, hi = (uint32_t)(h->base >> 32);
  __asm__("smlal %0, %1, %2, %3" : "+r"(lo), "+r"(hi) : "r"(sum), "r"(h->multiplier));
  return (int32_t)hi;
#else
  return (int32_t)(uint32_t)((h->base + (uint64_t)((int64_t)sum * h->multiplier)) >> 32);
#endif
}

/* Two int16 lanes each clamped to [lo, hi]'s lanes: SSUB16 sets a lane's GE flags where its difference is >= 0
 * (exact, not wrapped), SEL takes the first operand's lane there. The pairs in one statement: the flags live
 * between them. */
static inline uint32_t microaot_dsp_clamp16x2(uint32_t x, uint32_t lo, uint32_t hi) {
#if MICROAOT_DSP_ASM
  uint32_t d;
  __asm__("ssub16 %[d], %[x], %[lo]\n\tsel %[x], %[x], %[lo]\n\tssub16 %[d], %[hi], %[x]\n\tsel %[x], %[x], %[hi]"
          : [x] "+r"(x), [d] "=&r"(d)
          : [lo] "r"(lo), [hi] "r"(hi)
          : "cc");
  return x;
#else
  const int32_t b = microaot_clamp_s32(microaot_dsp_bottom(x), microaot_dsp_bottom(lo), microaot_dsp_bottom(hi));
  const int32_t t = microaot_clamp_s32(microaot_dsp_top(x), microaot_dsp_top(lo), microaot_dsp_top(hi));
  return microaot_dsp_pack16(b, t);
#endif
}

#endif /* MICROAOT_DSP_DOT_S16_H */
