/* The dot-product primitives of the packed kernels (microaot/kernels/packed.h; their row driver is
 * microaot/packed_matmul.h): rows of n int8 operands (the pixels of a 1x1 convolution, the batches of a
 * FULLY_CONNECTED) times weight rows the compiler laid out for SMLAD (compiler/ops/packed_weights.h), two rows
 * against two units per step, with the input zero point already in the bias. Weight layout, in int32 words:
 * units in pairs (the second of an odd last pair is zeros), each pair as groups of four elements (zeros past n),
 * the word of the pair's first unit then the second's. A word's SXTB16 gives elements 0 and 2 of its group and
 * SXTB16 ROR 8 elements 1 and 3: the operand rows are widened to int16 once per row in that order (even word,
 * odd word), so that the loop loads words only. With MICROAOT_PACKED_WIDE_WEIGHTS 1 (the _w16 kernels, defined
 * before the include) the weights are widened at compile time too: each unit's group is two words, elements
 * (0, 2) then (1, 3) as int16 lanes, the first unit's two then the second's; the loops then load and multiply,
 * 11 instructions per 16 MACs (2x2 and 1x4: a unit pair's four words by one LDM) instead of 15 and 20, for twice the
 * weights' flash.
 * With MICROAOT_PACKED_RAW_WEIGHTS 1 (the _raw kernels, --optimize balanced where the compiler proves them) the
 * int8 words are laid out so that one SXTB16 per word is enough: bytes (w0, w1 - [w0 < 0], w2, w3 - [w2 < 0]),
 * whose SXTB16 is (w0, w2) and whose raw int16 lanes are (256 w1 + w0, 256 w3 + w2). The rows are widened to the
 * lanes c = 256 x0 - a against the SXTB16 word and a = x1 - 127 against the raw word (and the same for x2, x3):
 * a (256 w1 + w0) + c w0 = 256 (x0 w0 + x1 w1) - 256 * 127 w1, the last term per unit folded into the bias
 * (compiler/ops/packed_weights.cpp, which also proves |sum| < 2^23 so that 256 times it fits int32; c is in
 * int16 range for every int8 x0, x1, which the offset 127 gives). The sums are then 256 times the others, which
 * the output step takes with ASR #7 instead of LSL #1: 13 instructions per 16 MACs (2x2) and 15 (1x4). */
#ifndef MICROAOT_PACKED_DOT_H
#define MICROAOT_PACKED_DOT_H

#include <stddef.h>
#include <stdint.h>

#include "microaot/internal/dsp_dot.h"

#ifndef MICROAOT_PACKED_WIDE_WEIGHTS
#define MICROAOT_PACKED_WIDE_WEIGHTS 0
#endif
#ifndef MICROAOT_PACKED_RAW_WEIGHTS
#define MICROAOT_PACKED_RAW_WEIGHTS 0
#endif

/* Weight words of one group of a unit pair. */
#if MICROAOT_PACKED_WIDE_WEIGHTS
#define MICROAOT_PACKED_PAIR_WORDS 4
#else
#define MICROAOT_PACKED_PAIR_WORDS 2
#endif

/* A helper the including source keeps out of line (one copy however many callers), unused in some sources. */
#if defined(__GNUC__)
#define MICROAOT_PACKED_OUT_OF_LINE static __attribute__((noinline, unused))
#else
#define MICROAOT_PACKED_OUT_OF_LINE static inline
#endif

/* The dot products inline into their loops whatever their size (a call would keep the sums in memory). */
#if defined(__GNUC__)
#define MICROAOT_PACKED_DOT_INLINE static inline __attribute__((always_inline))
#else
#define MICROAOT_PACKED_DOT_INLINE static inline
#endif

/* Groups per row (at least one: the loops below test their end after a step). */
static inline int32_t microaot_packed_groups(int32_t n) { return (n + 3) / 4; }

/* The word of the last n % 4 elements at `src` (1 to 3), zeros above: byte loads, never past the row. */
static inline uint32_t microaot_packed_tail_word(const int8_t* src, int32_t n) {
  uint32_t word = 0;
  int32_t k;
  for (k = n - 1; k >= 0; --k) word = (word << 8) | (uint8_t)src[k];
  return word;
}

/* Row `src` (n int8) widened into words dst[0], dst[1] (group 0), dst[stride], dst[stride + 1], ...; the
 * elements past n, up to microaot_packed_groups(n) groups, are zeros. Whole words in the loop, the tail once.
 * One copy per source: a call costs a few instructions per row, each inlined copy 70 bytes. */
#if MICROAOT_PACKED_RAW_WEIGHTS
/* A group's word of four int8 as the raw form's two words: dst[0] = (256 x0 - a0, 256 x2 - a1) against the
 * weights' SXTB16, dst[1] = (a0, a1) = (x1 - 127, x3 - 127) against their raw word. */
static inline void microaot_packed_widen_word(uint32_t word, uint32_t* dst) {
  const uint32_t odd = microaot_dsp_sadd16(microaot_dsp_sxtb16_ror8(word), 0xFF81FF81u); /* lanes - 127 */
  dst[0] = microaot_dsp_ssub16((word << 8) & 0xFF00FF00u, odd);
  dst[1] = odd;
}
#else
static inline void microaot_packed_widen_word(uint32_t word, uint32_t* dst) {
  dst[0] = microaot_dsp_sxtb16(word);
  dst[1] = microaot_dsp_sxtb16_ror8(word);
}
#endif

MICROAOT_PACKED_OUT_OF_LINE void microaot_packed_widen(const int8_t* src, int32_t n, uint32_t* dst, int32_t stride) {
  const int8_t* const whole_end = src + 4 * (n / 4);
  for (; src != whole_end; src += 4, dst += stride) microaot_packed_widen_word(microaot_dsp_load4(src), dst);
  if (n % 4 != 0 || n == 0) microaot_packed_widen_word(n % 4 != 0 ? microaot_packed_tail_word(src, n % 4) : 0u, dst);
}

/* The four sums of a block back into acc[] (the loops keep them in named registers). */
static inline void microaot_packed_set4(int32_t acc[4], int32_t a, int32_t b, int32_t c, int32_t d) {
  acc[0] = a;
  acc[1] = b;
  acc[2] = c;
  acc[3] = d;
}

/* Unit `unit` (0 or 1) of the pair's group at `group` times a widened row's group (`row`: its even and odd
 * word) added to s, in C: the weights' lanes (0, 2) and (1, 3) stored as such, or extracted from their word. */
static inline int32_t microaot_packed_mac(int32_t s, const uint32_t* row, const int32_t* group, int unit) {
#if MICROAOT_PACKED_WIDE_WEIGHTS
  const uint32_t even = (uint32_t)group[2 * unit], odd = (uint32_t)group[2 * unit + 1];
#elif MICROAOT_PACKED_RAW_WEIGHTS
  const uint32_t odd = (uint32_t)group[unit], even = microaot_dsp_sxtb16(odd);
#else
  const uint32_t word = (uint32_t)group[unit];
  const uint32_t even = microaot_dsp_sxtb16(word), odd = microaot_dsp_sxtb16_ror8(word);
#endif
  return microaot_dsp_smlad(row[1], odd, microaot_dsp_smlad(row[0], even, s));
}

/* The loops are in assembly where the DSP extension is there: the compiler's allocation of the 13 live values
 * spills inside the loop. Per group: one LDRD of the unit pair's words (two over int16 weights), one LDRD per
 * row, SXTB16 twice per int8 weight word, one SMLAD per two MACs. Elsewhere the same sums in C (microaot/internal/dsp.h's definitions). */
#define MICROAOT_PACKED_ASM MICROAOT_DSP_ASM

/* The loops below run four groups per iteration (one compare and branch per four): a count of groups that is not
 * a multiple of four enters at the group that leaves a multiple (labels 2, 3, 4 for 3, 2, 1 left over), read from
 * bits 3 and 4 (int16 weights: 4 and 5) of the 8 * groups (16 * groups) bytes of weights left, shifted into the
 * sign and the carry (five or six instructions per call). */
#if MICROAOT_PACKED_WIDE_WEIGHTS
#define MICROAOT_PACKED_ODD_SHIFT "#27"
#else
#define MICROAOT_PACKED_ODD_SHIFT "#28"
#endif
#define MICROAOT_PACKED_ODD_BRANCHES(x)                         \
  "lsls %[" x "], %[" x "], " MICROAOT_PACKED_ODD_SHIFT "\n\t"  \
  "bcs 5f\n\t"                                                  \
  "bmi 4f\n\t"                                                  \
  "b 1f\n\t"                                                    \
  "5:\n\t"                                                      \
  "bmi 2f\n\t"                                                  \
  "b 3f\n\t"
#define MICROAOT_PACKED_ODD_ENTRY "sub %[w0], %[end], %[pair]\n\t" MICROAOT_PACKED_ODD_BRANCHES("w0")
/* The four groups of an iteration, labelled as the entries above enter them. */
#define MICROAOT_PACKED_FOUR_GROUPS(group) "1:\n\t" group "2:\n\t" group "3:\n\t" group "4:\n\t" group

/* The assembly of one group of microaot_packed_dot_2x2: 15 instructions for 16 MACs; 11 over int16 weights
 * (unit 0's words in w0, w1, unit 1's in we, wf). */
#if MICROAOT_PACKED_WIDE_WEIGHTS
#define MICROAOT_PACKED_GROUP_2X2                          \
  "ldmia %[pair]!, {%[w0], %[w1], %[we], %[wf]}\n\t"     \
  "ldrd %[a0], %[a1], [%[rows]], #8\n\t"                  \
  "smlad %[s00], %[a0], %[w0], %[s00]\n\t"                \
  "smlad %[s00], %[a1], %[w1], %[s00]\n\t"                \
  "smlad %[s01], %[a0], %[we], %[s01]\n\t"                \
  "smlad %[s01], %[a1], %[wf], %[s01]\n\t"                \
  "ldrd %[a0], %[a1], [%[rows]], #8\n\t"                  \
  "smlad %[s10], %[a0], %[w0], %[s10]\n\t"                \
  "smlad %[s10], %[a1], %[w1], %[s10]\n\t"                \
  "smlad %[s11], %[a0], %[we], %[s11]\n\t"                \
  "smlad %[s11], %[a1], %[wf], %[s11]\n\t"
#elif MICROAOT_PACKED_RAW_WEIGHTS
#define MICROAOT_PACKED_GROUP_2X2                          \
  "ldrd %[w0], %[w1], [%[pair]], #8\n\t"                  \
  "ldrd %[a0], %[a1], [%[rows]], #8\n\t"                  \
  "sxtb16 %[we], %[w0]\n\t"                               \
  "sxtb16 %[wf], %[w1]\n\t"                               \
  "smlad %[s00], %[a0], %[we], %[s00]\n\t"                \
  "smlad %[s00], %[a1], %[w0], %[s00]\n\t"                \
  "smlad %[s01], %[a0], %[wf], %[s01]\n\t"                \
  "smlad %[s01], %[a1], %[w1], %[s01]\n\t"                \
  "ldrd %[a0], %[a1], [%[rows]], #8\n\t"                  \
  "smlad %[s10], %[a0], %[we], %[s10]\n\t"                \
  "smlad %[s10], %[a1], %[w0], %[s10]\n\t"                \
  "smlad %[s11], %[a0], %[wf], %[s11]\n\t"                \
  "smlad %[s11], %[a1], %[w1], %[s11]\n\t"
#else
#define MICROAOT_PACKED_GROUP_2X2                          \
  "ldrd %[w0], %[w1], [%[pair]], #8\n\t"                  \
  "ldrd %[a0], %[a1], [%[rows]], #8\n\t"                  \
  "sxtb16 %[we], %[w0]\n\t"                               \
  "sxtb16 %[w0], %[w0], ror #8\n\t"                       \
  "smlad %[s00], %[a0], %[we], %[s00]\n\t"                \
  "smlad %[s00], %[a1], %[w0], %[s00]\n\t"                \
  "sxtb16 %[wf], %[w1]\n\t"                               \
  "sxtb16 %[w1], %[w1], ror #8\n\t"                       \
  "smlad %[s01], %[a0], %[wf], %[s01]\n\t"                \
  "smlad %[s01], %[a1], %[w1], %[s01]\n\t"                \
  "ldrd %[a0], %[a1], [%[rows]], #8\n\t"                  \
  "smlad %[s10], %[a0], %[we], %[s10]\n\t"                \
  "smlad %[s10], %[a1], %[w0], %[s10]\n\t"                \
  "smlad %[s11], %[a0], %[wf], %[s11]\n\t"                \
  "smlad %[s11], %[a1], %[w1], %[s11]\n\t"
#endif

/* Two widened rows, interleaved (per group: row 0's two words, row 1's two words), against one unit pair:
 * acc[2 * i + j] += row i . unit j. Four groups per iteration, 62 instructions per 64 MACs (46 over int16
 * weights, 54 in the raw form). Returns the next pair's weights. */
MICROAOT_PACKED_DOT_INLINE const int32_t* microaot_packed_dot_2x2(const int32_t* pair, const uint32_t* rows, int32_t groups,
                                           int32_t acc[4]) {
  int32_t s00 = acc[0], s01 = acc[1], s10 = acc[2], s11 = acc[3];
  const int32_t* const end = pair + MICROAOT_PACKED_PAIR_WORDS * groups;
#if MICROAOT_PACKED_ASM && MICROAOT_PACKED_WIDE_WEIGHTS
  /* the pair's four words by one LDM, whose registers must ascend */
  register uint32_t w0 __asm__("r8"), w1 __asm__("r9"), we __asm__("r10"), wf __asm__("r11");
  uint32_t a0, a1;
#elif MICROAOT_PACKED_ASM
  uint32_t w0, w1, we, wf, a0, a1;
#endif
#if MICROAOT_PACKED_ASM
  __asm__(
      MICROAOT_PACKED_ODD_ENTRY
      MICROAOT_PACKED_FOUR_GROUPS(MICROAOT_PACKED_GROUP_2X2)
      "cmp %[pair], %[end]\n\t"
      "bne 1b\n\t"
      : [pair] "+r"(pair), [rows] "+r"(rows), [s00] "+r"(s00), [s01] "+r"(s01), [s10] "+r"(s10),
        [s11] "+r"(s11), [w0] "=&r"(w0), [w1] "=&r"(w1), [we] "=&r"(we), [wf] "=&r"(wf), [a0] "=&r"(a0),
        [a1] "=&r"(a1)
      : [end] "r"(end)
      : "cc", "memory");
#else
  for (; pair != end; pair += MICROAOT_PACKED_PAIR_WORDS, rows += 4) {
    s00 = microaot_packed_mac(s00, rows, pair, 0);
    s01 = microaot_packed_mac(s01, rows, pair, 1);
    s10 = microaot_packed_mac(s10, rows + 2, pair, 0);
    s11 = microaot_packed_mac(s11, rows + 2, pair, 1);
  }
#endif
  microaot_packed_set4(acc, s00, s01, s10, s11);
  return end;
}

/* The assembly of one unit's weight word `w` (widened through `we`, then in place) against the row's words a0
 * (elements 0, 2) and a1 (elements 1, 3), into sum `s`; in the raw form, its SXTB16 against a0 and the word
 * itself against a1. */
#if MICROAOT_PACKED_RAW_WEIGHTS
#define MICROAOT_PACKED_UNIT(w, s)                   \
  "sxtb16 %[we], %[" w "]\n\t"                       \
  "smlad %[" s "], %[a0], %[we], %[" s "]\n\t"       \
  "smlad %[" s "], %[a1], %[" w "], %[" s "]\n\t"
#else
#define MICROAOT_PACKED_UNIT(w, s)                   \
  "sxtb16 %[we], %[" w "]\n\t"                       \
  "sxtb16 %[" w "], %[" w "], ror #8\n\t"            \
  "smlad %[" s "], %[a0], %[we], %[" s "]\n\t"       \
  "smlad %[" s "], %[a1], %[" w "], %[" s "]\n\t"
#endif

/* One group of microaot_packed_dot_1x4 (19 instructions for 16 MACs; 11 over int16 weights, each pair's four
 * words by one LDM). */
#if MICROAOT_PACKED_WIDE_WEIGHTS
#define MICROAOT_PACKED_WIDE_PAIR(p, s, t)                    \
  "ldmia %[" p "]!, {%[w0], %[w1], %[we], %[wf]}\n\t"      \
  "smlad %[" s "], %[a0], %[w0], %[" s "]\n\t"             \
  "smlad %[" s "], %[a1], %[w1], %[" s "]\n\t"             \
  "smlad %[" t "], %[a0], %[we], %[" t "]\n\t"             \
  "smlad %[" t "], %[a1], %[wf], %[" t "]\n\t"
#define MICROAOT_PACKED_GROUP_1X4                 \
  "ldrd %[a0], %[a1], [%[row]], #8\n\t"           \
  MICROAOT_PACKED_WIDE_PAIR("pair", "s0", "s1")   \
  MICROAOT_PACKED_WIDE_PAIR("next", "s2", "s3")
#else
#define MICROAOT_PACKED_GROUP_1X4                 \
  "ldrd %[a0], %[a1], [%[row]], #8\n\t"           \
  "ldrd %[w0], %[w1], [%[pair]], #8\n\t"          \
  MICROAOT_PACKED_UNIT("w0", "s0")                \
  MICROAOT_PACKED_UNIT("w1", "s1")                \
  "ldrd %[w0], %[w1], [%[next]], #8\n\t"          \
  MICROAOT_PACKED_UNIT("w0", "s2")                \
  MICROAOT_PACKED_UNIT("w1", "s3")
#endif

/* One widened row against two consecutive unit pairs (the second's words 2 * groups after the first's):
 * acc[j] += row . unit j for j in 0..3. 19.5 instructions per 16 MACs (11.75 over int16 weights, 15.5 in the raw
 * form) (the row's words loaded once for four units; four groups per iteration). Returns the weights after the
 * second pair. */
MICROAOT_PACKED_DOT_INLINE const int32_t* microaot_packed_dot_1x4(const int32_t* pair, const uint32_t* row, int32_t groups,
                                                     int32_t acc[4]) {
  int32_t s0 = acc[0], s1 = acc[1], s2 = acc[2], s3 = acc[3];
  const int32_t* next = pair + MICROAOT_PACKED_PAIR_WORDS * groups;
  const int32_t* const end = next;
#if MICROAOT_PACKED_ASM && MICROAOT_PACKED_WIDE_WEIGHTS
  /* Each pair's four words by one LDM, whose registers must ascend; with the fourth word register the operands
   * take every register but the frame pointer, so `end` waits in memory (read into a0, free between groups). */
  register uint32_t w0 __asm__("r8"), w1 __asm__("r9"), we __asm__("r10"), wf __asm__("r11");
  uint32_t a0, a1;
  __asm__(
      "ldr %[a0], %[end]\n\t"
      "sub %[a0], %[a0], %[pair]\n\t"
      MICROAOT_PACKED_ODD_BRANCHES("a0")
      MICROAOT_PACKED_FOUR_GROUPS(MICROAOT_PACKED_GROUP_1X4)
      "ldr %[a0], %[end]\n\t"
      "cmp %[pair], %[a0]\n\t"
      "bne 1b\n\t"
      : [pair] "+&r"(pair), [next] "+&r"(next), [row] "+&r"(row), [s0] "+r"(s0), [s1] "+r"(s1), [s2] "+r"(s2),
        [s3] "+r"(s3), [w0] "=&r"(w0), [w1] "=&r"(w1), [we] "=&r"(we), [wf] "=&r"(wf), [a0] "=&r"(a0),
        [a1] "=&r"(a1)
      : [end] "m"(end)
      : "cc", "memory");
#elif MICROAOT_PACKED_ASM
  uint32_t w0, w1, we, a0, a1;
  __asm__(
      MICROAOT_PACKED_ODD_ENTRY
      MICROAOT_PACKED_FOUR_GROUPS(MICROAOT_PACKED_GROUP_1X4)
      "cmp %[pair], %[end]\n\t"
      "bne 1b\n\t"
      /* early clobbers: `end` starts equal to `next`, and must not share its register */
      : [pair] "+&r"(pair), [next] "+&r"(next), [row] "+&r"(row), [s0] "+r"(s0), [s1] "+r"(s1), [s2] "+r"(s2),
        [s3] "+r"(s3), [w0] "=&r"(w0), [w1] "=&r"(w1), [we] "=&r"(we), [a0] "=&r"(a0), [a1] "=&r"(a1)
      : [end] "r"(end)
      : "cc", "memory");
#else
  for (; pair != end; pair += MICROAOT_PACKED_PAIR_WORDS, next += MICROAOT_PACKED_PAIR_WORDS, row += 2) {
    s0 = microaot_packed_mac(s0, row, pair, 0);
    s1 = microaot_packed_mac(s1, row, pair, 1);
    s2 = microaot_packed_mac(s2, row, next, 0);
    s3 = microaot_packed_mac(s3, row, next, 1);
  }
#endif
  microaot_packed_set4(acc, s0, s1, s2, s3);
  return next;
}

#undef MICROAOT_PACKED_UNIT
#undef MICROAOT_PACKED_WIDE_PAIR
#undef MICROAOT_PACKED_ODD_SHIFT
#undef MICROAOT_PACKED_GROUP_2X2
#undef MICROAOT_PACKED_GROUP_1X4
#undef MICROAOT_PACKED_ODD_ENTRY
#undef MICROAOT_PACKED_ODD_BRANCHES
#undef MICROAOT_PACKED_FOUR_GROUPS

#endif /* MICROAOT_PACKED_DOT_H */
