/* The DSP extension's word-by-halfword multiplies (SMLAWB, SMLAWT) and SSAT with a shift, beside microaot/internal/dsp.h
 * and under the same rule: inline assembly under MICROAOT_DSP_ASM, a C definition of the same result elsewhere.
 * The ADD kernel over one linear form (kernels/dsp/add_s8_linear.c) is made of them. */
#ifndef MICROAOT_DSP_WORD_MULTIPLY_H
#define MICROAOT_DSP_WORD_MULTIPLY_H

#include <stddef.h>
#include <stdint.h>

#include "microaot/internal/dsp.h"

/* The packing's byte of one sum s (the asm's arithmetic, one lane at a time): high half, USAT #8, then EOR 0x80
 * (the int8 clamp) or UQSUB8 of floor4 and UADD8 of lo4. */
static inline int8_t microaot_dsp_packed_byte(int32_t s, uint32_t floor4, uint32_t lo4, int clamped) {
  const int32_t v = s >> 16;
  int32_t u = v < 0 ? 0 : (v > 255 ? 255 : v);
  if (!clamped) return (int8_t)(uint8_t)(u ^ 0x80);
  u -= (int32_t)(floor4 & 0xFFu);
  return (int8_t)(uint8_t)((u < 0 ? 0 : u) + (int32_t)(lo4 & 0xFFu));
}

/* The folded forms' element (the kernels' odd elements): the sum, then its byte. */
static inline int8_t microaot_dsp_fold_element(int32_t m, int32_t q, int32_t bias, uint32_t floor4, uint32_t lo4,
                                               int clamped) {
  const int32_t s = (int32_t)((uint32_t)bias + (uint32_t)(int32_t)(((int64_t)m * q) >> 8));
  return microaot_dsp_packed_byte(s, floor4, lo4, clamped);
}

/* MUL's sum for packing (kernels/dsp/mul_s8.c): from the doubled product d = 2p, SMMLAR(d, m, r - [d < 0]) is
 * TFLM's rounding doubling high multiply v plus r - [p < 0] (r = 2^(e-1) + (output offset + c) * 2^e: the rounding
 * of the right shift by e with ties away from zero, and the offsets); shifted left by 16 - e, its high half is
 * floor((v + r - [p < 0]) / 2^e), TFLM's output plus c. The caller proves the shift stays within int32. */
static inline int32_t microaot_dsp_mul_sum(int32_t doubled, int32_t m, int32_t r, int32_t shift) {
  return (int32_t)((uint32_t)microaot_dsp_smmlar(doubled, m, r + (doubled >> 31)) << shift);
}

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


/* The folded forms (one operand broadcast, its term in the bias; kernels/dsp/add_s8_folded.c): eight elements of
 * one input, one SMLAW each for the sum s = bias + floor(m * q / 2^8), the bias offset by c * 2^16 (c chosen by
 * the kernel) so that USAT16 #8 of two sums' high halves (PKHTB) is floor(s / 2^16) + c clamped to [0, 255], their
 * bytes packed by one ORR. Unclamped (c = 128): EOR 0x80 per byte takes them back to int8. Clamped to [lo, hi]
 * (c = 255 - hi): UQSUB8 of lo - hi + 255 (floor4) and UADD8 of lo (lo4) give clamp(v, lo, hi). Each word is
 * loaded before its store, so the output may be the input or below it. Each runs whole eights up to `end` (at
 * least one: out != end), its loop in the asm; the pointers advance to it. */
#define MICROAOT_DSP_FOLD_LOAD                       \
  "ldr %[w], [%[a]], #4\n\t"                          \
  "and %[x], %[mask], %[w], lsl #8\n\t"               \
  "and %[w], %[w], %[mask]\n\t"
#define MICROAOT_DSP_FOLD_PACK(p, q, finish)         \
  "usat16 %[" p "], #8, %[" p "]\n\t"                 \
  "usat16 %[" q "], #8, %[" q "]\n\t"                 \
  "orr %[" p "], %[" p "], %[" q "], lsl #8\n\t" finish \
  "str %[" p "], [%[out]], #4\n\t"
#define MICROAOT_DSP_FOLD_UNCLAMPED(p) "eor %[" p "], %[" p "], #0x80808080\n\t"
#define MICROAOT_DSP_FOLD_CLAMPED(p) "uqsub8 %[" p "], %[" p "], %[floor4]\n\t" "uadd8 %[" p "], %[" p "], %[lo4]\n\t"
/* SMLAWB of `lo` and the bottom lane of `src` by `mb`, SMLAWT of `hi` and its top lane by `mt` (each register
 * its own bias), PKHTB of the two sums' high halves into `dst`. */
#define MICROAOT_DSP_FOLD_HALVES(mb, mt, lo, hi, src, dst)                                                             \
  "smlawb %[" lo "], %[" mb "], %[" src "], %[" lo "]\n\t"                                                             \
  "smlawt %[" hi "], %[" mt "], %[" src "], %[" hi "]\n\t"                                                             \
  "pkhtb %[" dst "], %[" hi "], %[" lo "], asr #16\n\t"
/* Both words' halves in place (x's, then w's), each after `load` sets its registers. */
#define MICROAOT_DSP_FOLD_BOTH(load, mb, mt, lo, hi)                                                                   \
  load MICROAOT_DSP_FOLD_HALVES(mb, mt, lo, hi, "x", "x") load MICROAOT_DSP_FOLD_HALVES(mb, mt, lo, hi, "w", "w")
/* One bias for all eight. */
#define MICROAOT_DSP_FOLD_SCALAR_WORD(finish)        \
  MICROAOT_DSP_FOLD_LOAD                             \
  "smlawt %[t], %[m], %[x], %[bias]\n\t"             \
  "smlawb %[x], %[m], %[x], %[bias]\n\t"             \
  "pkhtb %[x], %[t], %[x], asr #16\n\t"              \
  "smlawt %[t], %[m], %[w], %[bias]\n\t"             \
  "smlawb %[w], %[m], %[w], %[bias]\n\t"             \
  "pkhtb %[w], %[t], %[w], asr #16\n\t"              \
  MICROAOT_DSP_FOLD_PACK("x", "w", finish("x"))

/* The loops: sixteen elements a pass (two copies of an eight's `body`), so that the compare and branch weigh 1/8
 * of an instruction per element rather than 1/4; an odd number of eights enters at the second copy. `scratch`: a
 * register the body sets before it reads it. */
#define MICROAOT_DSP_FOLD_LOOP(body, scratch)         \
  "sub %[" scratch "], %[end], %[out]\n\t"           \
  "tst %[" scratch "], #8\n\t"                       \
  "bne 2f\n\t"                                       \
  "1:\n\t" body "2:\n\t" body                        \
  "cmp %[out], %[end]\n\t"                           \
  "bne 1b"

static inline void microaot_dsp_add_folded_run(const int8_t** a, int8_t** out, int8_t* end, int32_t m, int32_t bias, uint32_t mask) {
  uint32_t w, x, t;
  __asm__(MICROAOT_DSP_FOLD_LOOP(MICROAOT_DSP_FOLD_SCALAR_WORD(MICROAOT_DSP_FOLD_UNCLAMPED) MICROAOT_DSP_FOLD_SCALAR_WORD(MICROAOT_DSP_FOLD_UNCLAMPED), "w")
          : [w] "=&r"(w), [x] "=&r"(x), [t] "=&r"(t), [a] "+r"(*a), [out] "+r"(*out)
          : [m] "r"(m), [bias] "r"(bias), [mask] "r"(mask), [end] "r"(end)
          : "memory", "cc");
}

static inline void microaot_dsp_add_folded_run_clamped(const int8_t** a, int8_t** out, int8_t* end, int32_t m, int32_t bias,
                                                    uint32_t mask, uint32_t floor4, uint32_t lo4) {
  uint32_t w, x, t;
  __asm__(MICROAOT_DSP_FOLD_LOOP(MICROAOT_DSP_FOLD_SCALAR_WORD(MICROAOT_DSP_FOLD_CLAMPED) MICROAOT_DSP_FOLD_SCALAR_WORD(MICROAOT_DSP_FOLD_CLAMPED), "w")
          : [w] "=&r"(w), [x] "=&r"(x), [t] "=&r"(t), [a] "+r"(*a), [out] "+r"(*out)
          : [m] "r"(m), [bias] "r"(bias), [mask] "r"(mask), [floor4] "r"(floor4), [lo4] "r"(lo4), [end] "r"(end)
          : "memory", "cc");
}

/* Two full operands (kernels/dsp/add_s8_linear.c): eight elements per copy of the body, two SMLAW each for
 * s = bias + floor(m1 * q1 / 2^8) + floor(m2 * q2 / 2^8), the bias offset by c * 2^16 (the caller checks every
 * sum stays within int32) and the outputs packed as the folded forms' (PKHTB, USAT16 #8, ORR, then `finish`:
 * EOR for the int8 clamp, UQSUB8 and UADD8 for a narrower one): 86 instructions per sixteen with the loop
 * (MICROAOT_DSP_FOLD_LOOP), against 96 for SSAT and a byte store per element; clamped 95 (the clamp's words
 * loaded per word: MICROAOT_DSP_FOLD_LOOP_LOADED). Each word of the inputs is loaded before its
 * output word is stored, so the output may be an input or below it. */
#define MICROAOT_DSP_LINEAR_WORD(finish)             \
  "ldr %[w1], [%[a]], #4\n\t"                        \
  "ldr %[w2], [%[b]], #4\n\t"                        \
  "and %[x], %[mask], %[w1], lsl #8\n\t"             \
  "and %[w1], %[w1], %[mask]\n\t"                    \
  "and %[y], %[mask], %[w2], lsl #8\n\t"             \
  "and %[w2], %[w2], %[mask]\n\t"                    \
  "smlawt %[t], %[m1], %[w1], %[bias]\n\t"           \
  "smlawt %[t], %[m2], %[w2], %[t]\n\t"              \
  "smlawb %[w1], %[m1], %[w1], %[bias]\n\t"          \
  "smlawb %[w1], %[m2], %[w2], %[w1]\n\t"            \
  "pkhtb %[w1], %[t], %[w1], asr #16\n\t"            \
  "smlawt %[t], %[m1], %[x], %[bias]\n\t"            \
  "smlawt %[t], %[m2], %[y], %[t]\n\t"               \
  "smlawb %[x], %[m1], %[x], %[bias]\n\t"            \
  "smlawb %[x], %[m2], %[y], %[x]\n\t"               \
  "pkhtb %[x], %[t], %[x], asr #16\n\t"              \
  MICROAOT_DSP_FOLD_PACK("x", "w1", finish("x"))

#define MICROAOT_DSP_LINEAR_OPERANDS                                                                          \
  [w1] "=&r"(w1), [w2] "=&r"(w2), [x] "=&r"(x), [y] "=&r"(y), [t] "=&r"(t), [a] "+r"(*a), [b] "+r"(*b), \
      [out] "+r"(*out)
#define MICROAOT_DSP_LINEAR_CONSTANTS [m1] "r"(m1), [m2] "r"(m2), [bias] "r"(bias), [mask] "r"(mask)

static inline void microaot_dsp_add_linear_run(const int8_t** a, const int8_t** b, int8_t** out, int8_t* end, int32_t m1,
                                               int32_t m2, int32_t bias, uint32_t mask) {
  uint32_t w1, w2, x, y, t;
  __asm__(MICROAOT_DSP_FOLD_LOOP(MICROAOT_DSP_LINEAR_WORD(MICROAOT_DSP_FOLD_UNCLAMPED)
                                     MICROAOT_DSP_LINEAR_WORD(MICROAOT_DSP_FOLD_UNCLAMPED), "w1")
          : MICROAOT_DSP_LINEAR_OPERANDS
          : MICROAOT_DSP_LINEAR_CONSTANTS, [end] "r"(end)
          : "memory", "cc");
}

/* The loop's form for statements with no register left for the loop's end or the clamp's words (thirteen
 * registers is the most an asm statement gets: GCC at -O0 and -Og, and clang, keep r7 for the frame): %[k] points
 * to {floor4, lo4, end} (MICROAOT_DSP_CLAMP_WORDS), loaded per word (two free registers `f`, `l`) and per pass. A
 * memory operand would not do: at -Og GCC gives its address a register of its own. */
#define MICROAOT_DSP_CLAMP_WORDS(name, floor4, lo4, end) \
  const uint32_t name[3] = {floor4, lo4, (uint32_t)(uintptr_t)(end)}
#define MICROAOT_DSP_FOLD_LOOP_LOADED(body, scratch)  \
  "ldr %[" scratch "], [%[k], #8]\n\t"               \
  "sub %[" scratch "], %[" scratch "], %[out]\n\t"   \
  "tst %[" scratch "], #8\n\t"                       \
  "bne 2f\n\t"                                       \
  "1:\n\t" body "2:\n\t" body                      \
  "ldr %[" scratch "], [%[k], #8]\n\t"               \
  "cmp %[out], %[" scratch "]\n\t"                   \
  "bne 1b"
/* MICROAOT_DSP_FOLD_CLAMPED of p with floor4 and lo4 loaded into the free registers f and l. */
#define MICROAOT_DSP_FOLD_CLAMPED_BY(p, f, l)                                                                   \
  "ldrd %[" f "], %[" l "], [%[k]]\n\t"                                                                       \
  "uqsub8 %[" p "], %[" p "], %[" f "]\n\t"                                                                   \
  "uadd8 %[" p "], %[" p "], %[" l "]\n\t"
#define MICROAOT_DSP_LINEAR_CLAMPED(p) MICROAOT_DSP_FOLD_CLAMPED_BY(p, "w2", "y")

/* The same clamped to [lo, hi] (floor4, lo4 and the bias's offset c = 255 - hi from microaot_dsp_fold_of): 95
 * instructions per sixteen. */
static inline void microaot_dsp_add_linear_run_clamped(const int8_t** a, const int8_t** b, int8_t** out, int8_t* end,
                                                       int32_t m1, int32_t m2, int32_t bias, uint32_t mask,
                                                       uint32_t floor4, uint32_t lo4) {
  uint32_t w1, w2, x, y, t;
  MICROAOT_DSP_CLAMP_WORDS(k, floor4, lo4, end);
  __asm__(MICROAOT_DSP_FOLD_LOOP_LOADED(MICROAOT_DSP_LINEAR_WORD(MICROAOT_DSP_LINEAR_CLAMPED)
                                            MICROAOT_DSP_LINEAR_WORD(MICROAOT_DSP_LINEAR_CLAMPED), "w1")
          : MICROAOT_DSP_LINEAR_OPERANDS
          : MICROAOT_DSP_LINEAR_CONSTANTS, [k] "r"(k)
          : "memory", "cc");
}

/* MUL of two full operands (kernels/dsp/mul_s8.c): per word of each input, its bytes 0 and 2 and its bytes 1
 * and 3 (ROR #8) widened with the offsets by SXTAB16 (input 1's lanes doubled by SADD16); per pair of lanes,
 * SMULBB and SMULTT, each product's sum microaot_dsp_mul_sum (ADD of its sign, SMMLAR, LSL), PKHTB of the two high
 * halves; then the packing of the linear forms. Thirteen registers at most (clang, as GCC at -O0, keeps r7 for
 * the frame): the offsets are loaded per word from {floor4, lo4, end, o1, o2} (MICROAOT_DSP_MUL_WORDS, the clamp's
 * words first for MICROAOT_DSP_FOLD_CLAMPED_BY and MICROAOT_DSP_FOLD_LOOP_LOADED): 32 instructions per four with
 * the int8 clamp, 34 clamped, against about 38. */
#define MICROAOT_DSP_MUL_WORDS(name, floor4, lo4, end, o1, o2) \
  const uint32_t name[5] = {floor4, lo4, (uint32_t)(uintptr_t)(end), o1, o2}
/* The pair of lanes A (input 1's, doubled here) and B: A's register ends with the two outputs' sums' high halves;
 * H and C are scratch. */
#define MICROAOT_DSP_MUL_PAIR(A, B, H, C)                      \
  "sadd16 %[" A "], %[" A "], %[" A "]\n\t"                     \
  "smultt %[" H "], %[" A "], %[" B "]\n\t"                     \
  "smulbb %[" A "], %[" A "], %[" B "]\n\t"                     \
  "add %[" C "], %[r], %[" A "], asr #31\n\t"                   \
  "smmlar %[" A "], %[" A "], %[m], %[" C "]\n\t"               \
  "add %[" C "], %[r], %[" H "], asr #31\n\t"                   \
  "smmlar %[" H "], %[" H "], %[m], %[" C "]\n\t"               \
  "lsl %[" A "], %[" A "], %[sh]\n\t"                           \
  "lsl %[" H "], %[" H "], %[sh]\n\t"                           \
  "pkhtb %[" A "], %[" H "], %[" A "], asr #16\n\t"
#define MICROAOT_DSP_MUL_WORD(finish)                \
  "ldr %[wa], [%[a]], #4\n\t"                        \
  "ldr %[wb], [%[b]], #4\n\t"                        \
  "ldrd %[x], %[y], [%[k], #12]\n\t"                 \
  "sxtab16 %[t], %[x], %[wa], ror #8\n\t"            \
  "sxtab16 %[x], %[x], %[wa]\n\t"                    \
  "sxtab16 %[wa], %[y], %[wb], ror #8\n\t"           \
  "sxtab16 %[y], %[y], %[wb]\n\t"                    \
  MICROAOT_DSP_MUL_PAIR("x", "y", "wb", "y")         \
  MICROAOT_DSP_MUL_PAIR("t", "wa", "wb", "y")        \
  MICROAOT_DSP_FOLD_PACK("x", "t", finish("x"))
#define MICROAOT_DSP_MUL_CLAMPED(p) MICROAOT_DSP_FOLD_CLAMPED_BY(p, "y", "wb")
#define MICROAOT_DSP_MUL_OPERANDS                                                                               \
  [wa] "=&r"(wa), [wb] "=&r"(wb), [x] "=&r"(x), [y] "=&r"(y), [t] "=&r"(t), [a] "+r"(*a), [b] "+r"(*b), \
      [out] "+r"(*out)

static inline void microaot_dsp_mul_run(const int8_t** a, const int8_t** b, int8_t** out, int8_t* end, uint32_t o1,
                                        uint32_t o2, int32_t m, int32_t r, int32_t shift) {
  uint32_t wa, wb, x, y, t;
  MICROAOT_DSP_MUL_WORDS(k, 0, 0, end, o1, o2);
  __asm__(MICROAOT_DSP_FOLD_LOOP(MICROAOT_DSP_MUL_WORD(MICROAOT_DSP_FOLD_UNCLAMPED)
                                     MICROAOT_DSP_MUL_WORD(MICROAOT_DSP_FOLD_UNCLAMPED), "wa")
          : MICROAOT_DSP_MUL_OPERANDS
          : [m] "r"(m), [r] "r"(r), [sh] "r"(shift), [k] "r"(k), [end] "r"(end)
          : "memory", "cc");
}

static inline void microaot_dsp_mul_run_clamped(const int8_t** a, const int8_t** b, int8_t** out, int8_t* end,
                                                uint32_t o1, uint32_t o2, int32_t m, int32_t r, int32_t shift,
                                                uint32_t floor4, uint32_t lo4) {
  uint32_t wa, wb, x, y, t;
  MICROAOT_DSP_MUL_WORDS(k, floor4, lo4, end, o1, o2);
  __asm__(MICROAOT_DSP_FOLD_LOOP_LOADED(MICROAOT_DSP_MUL_WORD(MICROAOT_DSP_MUL_CLAMPED)
                                            MICROAOT_DSP_MUL_WORD(MICROAOT_DSP_MUL_CLAMPED), "wa")
          : MICROAOT_DSP_MUL_OPERANDS
          : [m] "r"(m), [r] "r"(r), [sh] "r"(shift), [k] "r"(k)
          : "memory", "cc");
}

/* A bias per element from a table in the order c0, c2, c1, c3 of each four (the lanes' order): unclamped, one LDM
 * of four into registers of ascending numbers (as LDM needs); clamped, two LDRD (two registers more for the
 * clamp leave none for LDM's four). The table pointer advances by 8 entries per eight elements. */
#define MICROAOT_DSP_FOLD_TABLE_WORD                 \
  "ldm %[tab]!, {%[b0], %[b2], %[b1], %[b3]}\n\t"     \
  MICROAOT_DSP_FOLD_LOAD                             \
  MICROAOT_DSP_FOLD_HALVES("m", "m", "b0", "b2", "x", "b0") \
  MICROAOT_DSP_FOLD_HALVES("m", "m", "b1", "b3", "w", "b1") \
  MICROAOT_DSP_FOLD_PACK("b0", "b1", MICROAOT_DSP_FOLD_UNCLAMPED("b0"))

static inline void microaot_dsp_add_table_run(const int8_t** a, int8_t** out, int8_t* end, const int32_t** table, int32_t m,
                                           uint32_t mask) {
  register uint32_t b0 __asm__("r4");
  register uint32_t b2 __asm__("r5");
  register uint32_t b1 __asm__("r6");
  register uint32_t b3 __asm__("r8");
  uint32_t w, x;
  __asm__(MICROAOT_DSP_FOLD_LOOP(MICROAOT_DSP_FOLD_TABLE_WORD MICROAOT_DSP_FOLD_TABLE_WORD, "w")
          : [w] "=&r"(w), [x] "=&r"(x), [b0] "=&r"(b0), [b1] "=&r"(b1), [b2] "=&r"(b2), [b3] "=&r"(b3),
            [a] "+r"(*a), [out] "+r"(*out), [tab] "+r"(*table)
          : [m] "r"(m), [mask] "r"(mask), [end] "r"(end)
          : "memory", "cc");
}

#define MICROAOT_DSP_FOLD_TABLE_WORD_CLAMPED         \
  MICROAOT_DSP_FOLD_LOAD                             \
  MICROAOT_DSP_FOLD_BOTH("ldrd %[p], %[q], [%[tab]], #8\n\t", "m", "m", "p", "q") \
  MICROAOT_DSP_FOLD_PACK("x", "w", MICROAOT_DSP_FOLD_CLAMPED("x"))

static inline void microaot_dsp_add_table_run_clamped(const int8_t** a, int8_t** out, int8_t* end, const int32_t** table, int32_t m,
                                                   uint32_t mask, uint32_t floor4, uint32_t lo4) {
  uint32_t w, x, p, q;
  __asm__(MICROAOT_DSP_FOLD_LOOP(MICROAOT_DSP_FOLD_TABLE_WORD_CLAMPED MICROAOT_DSP_FOLD_TABLE_WORD_CLAMPED, "w")
          : [w] "=&r"(w), [x] "=&r"(x), [p] "=&r"(p), [q] "=&r"(q), [a] "+r"(*a), [out] "+r"(*out),
            [tab] "+r"(*table)
          : [m] "r"(m), [mask] "r"(mask), [floor4] "r"(floor4), [lo4] "r"(lo4), [end] "r"(end)
          : "memory", "cc");
}

/* A slope and a bias per element (MUL by a per-channel operand, kernels/dsp/mul_s8_folded.c): a table of pairs
 * {m, bias} in the lanes' order (c0, c2, c1, c3 of each four), two pairs by one LDM into registers of ascending
 * numbers. The table pointer advances by 16 words per eight elements. */
#define MICROAOT_DSP_FOLD_PAIRS_WORD(finish)         \
  MICROAOT_DSP_FOLD_LOAD                             \
  MICROAOT_DSP_FOLD_BOTH("ldm %[tab]!, {%[m0], %[b0], %[m2], %[b2]}\n\t", "m0", "m2", "b0", "b2") \
  MICROAOT_DSP_FOLD_PACK("x", "w", finish("x"))
#define MICROAOT_DSP_FOLD_PAIRS_REGISTERS  \
  register int32_t m0 __asm__("r4");        \
  register int32_t b0 __asm__("r5");        \
  register int32_t m2 __asm__("r6");        \
  register int32_t b2 __asm__("r8");        \
  uint32_t w, x
#define MICROAOT_DSP_FOLD_PAIRS_OUTPUTS                                                                     \
  [w] "=&r"(w), [x] "=&r"(x), [m0] "=&r"(m0), [b0] "=&r"(b0), [m2] "=&r"(m2), [b2] "=&r"(b2), [a] "+r"(*a), \
      [out] "+r"(*out), [tab] "+r"(*table)

static inline void microaot_dsp_mul_table_run(const int8_t** a, int8_t** out, int8_t* end, const int32_t** table, uint32_t mask) {
  MICROAOT_DSP_FOLD_PAIRS_REGISTERS;
  __asm__(MICROAOT_DSP_FOLD_LOOP(MICROAOT_DSP_FOLD_PAIRS_WORD(MICROAOT_DSP_FOLD_UNCLAMPED) MICROAOT_DSP_FOLD_PAIRS_WORD(MICROAOT_DSP_FOLD_UNCLAMPED), "w")
          : MICROAOT_DSP_FOLD_PAIRS_OUTPUTS
          : [mask] "r"(mask), [end] "r"(end)
          : "memory", "cc");
}

static inline void microaot_dsp_mul_table_run_clamped(const int8_t** a, int8_t** out, int8_t* end, const int32_t** table,
                                                   uint32_t mask, uint32_t floor4, uint32_t lo4) {
  MICROAOT_DSP_FOLD_PAIRS_REGISTERS;
  __asm__(MICROAOT_DSP_FOLD_LOOP(MICROAOT_DSP_FOLD_PAIRS_WORD(MICROAOT_DSP_FOLD_CLAMPED) MICROAOT_DSP_FOLD_PAIRS_WORD(MICROAOT_DSP_FOLD_CLAMPED), "w")
          : MICROAOT_DSP_FOLD_PAIRS_OUTPUTS
          : [mask] "r"(mask), [floor4] "r"(floor4), [lo4] "r"(lo4), [end] "r"(end)
          : "memory", "cc");
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

static inline void microaot_dsp_fold8(const int8_t** a, int8_t** out, const int32_t** table, int32_t m,
                                      int32_t bias, uint32_t floor4, uint32_t lo4, int clamped) {
  static const int lane_order[4] = {0, 2, 1, 3}; /* the table's entry of element k of four */
  int k;
  for (k = 0; k < 8; ++k) {
    const int32_t b = table ? (*table)[(k & 4) + lane_order[k & 3]] : bias;
    (*out)[k] = microaot_dsp_fold_element(m, (*a)[k], b, floor4, lo4, clamped);
  }
  *a += 8, *out += 8;
  if (table) *table += 8;
}
static inline void microaot_dsp_add_folded_run(const int8_t** a, int8_t** out, int8_t* end, int32_t m, int32_t bias, uint32_t mask) {
  (void)mask;
  while (*out != end) microaot_dsp_fold8(a, out, NULL, m, bias, 0, 0, 0);
}
static inline void microaot_dsp_add_folded_run_clamped(const int8_t** a, int8_t** out, int8_t* end, int32_t m, int32_t bias,
                                                    uint32_t mask, uint32_t floor4, uint32_t lo4) {
  (void)mask;
  while (*out != end) microaot_dsp_fold8(a, out, NULL, m, bias, floor4, lo4, 1);
}
static inline void microaot_dsp_add_table_run(const int8_t** a, int8_t** out, int8_t* end, const int32_t** table, int32_t m,
                                           uint32_t mask) {
  (void)mask;
  while (*out != end) microaot_dsp_fold8(a, out, table, m, 0, 0, 0, 0);
}
static inline void microaot_dsp_add_table_run_clamped(const int8_t** a, int8_t** out, int8_t* end, const int32_t** table, int32_t m,
                                                   uint32_t mask, uint32_t floor4, uint32_t lo4) {
  (void)mask;
  while (*out != end) microaot_dsp_fold8(a, out, table, m, 0, floor4, lo4, 1);
}

static inline void microaot_dsp_add_linear_run_clamped(const int8_t** a, const int8_t** b, int8_t** out, int8_t* end,
                                                       int32_t m1, int32_t m2, int32_t bias, uint32_t mask,
                                                       uint32_t floor4, uint32_t lo4) {
  (void)mask;
  for (; *out != end; ++*a, ++*b, ++*out) {
    const int32_t partial = (int32_t)((uint32_t)bias + (uint32_t)(int32_t)(((int64_t)m1 * **a) >> 8));
    **out = microaot_dsp_fold_element(m2, **b, partial, floor4, lo4, 1);
  }
}
static inline void microaot_dsp_add_linear_run(const int8_t** a, const int8_t** b, int8_t** out, int8_t* end, int32_t m1,
                                               int32_t m2, int32_t bias, uint32_t mask) {
  microaot_dsp_add_linear_run_clamped(a, b, out, end, m1, m2, bias, mask, 0, 0x80808080u); /* clamp(v, -128, 127) */
}

static inline void microaot_dsp_mul_run_clamped(const int8_t** a, const int8_t** b, int8_t** out, int8_t* end,
                                                uint32_t o1, uint32_t o2, int32_t m, int32_t r, int32_t shift,
                                                uint32_t floor4, uint32_t lo4) {
  const int32_t offset1 = microaot_dsp_bottom(o1), offset2 = microaot_dsp_bottom(o2);
  for (; *out != end; ++*a, ++*b, ++*out) {
    const int32_t doubled = 2 * (**a + offset1) * (**b + offset2);
    **out = microaot_dsp_packed_byte(microaot_dsp_mul_sum(doubled, m, r, shift), floor4, lo4, 1);
  }
}
static inline void microaot_dsp_mul_run(const int8_t** a, const int8_t** b, int8_t** out, int8_t* end, uint32_t o1,
                                        uint32_t o2, int32_t m, int32_t r, int32_t shift) {
  microaot_dsp_mul_run_clamped(a, b, out, end, o1, o2, m, r, shift, 0, 0x80808080u); /* clamp(v, -128, 127) */
}

static inline void microaot_dsp_mul_table_run_clamped(const int8_t** a, int8_t** out, int8_t* end, const int32_t** table,
                                                   uint32_t mask, uint32_t floor4, uint32_t lo4) {
  static const int lane_order[4] = {0, 2, 1, 3};
  int k;
  (void)mask;
  for (; *out != end; *a += 8, *out += 8, *table += 16) {
    for (k = 0; k < 8; ++k) {
      const int32_t* pair = *table + 2 * ((k & 4) + lane_order[k & 3]);
      (*out)[k] = microaot_dsp_fold_element(pair[0], (*a)[k], pair[1], floor4, lo4, 1); /* the int8 clamp too */
    }
  }
}
static inline void microaot_dsp_mul_table_run(const int8_t** a, int8_t** out, int8_t* end, const int32_t** table, uint32_t mask) {
  microaot_dsp_mul_table_run_clamped(a, out, end, table, mask, 0, 0x80808080u);
}

#endif

#endif /* MICROAOT_DSP_WORD_MULTIPLY_H */
