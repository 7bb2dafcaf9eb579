/* The DSP int8 DEPTHWISE_CONV_2D's blocks of four channels over the instructions of microaot/internal/dsp.h: the
 * multiply-accumulates of a window (int8 lanes, or rows the ring widened to 16 bits) and the output step of four
 * channels with its stores, as inline assembly where MICROAOT_DSP_ASM, else C of the same results. Included
 * through microaot/internal/dsp_depthwise.h by the kernels of runtime/kernels/dsp/depthwise_conv_2d_s8*.c. */
#ifndef MICROAOT_DSP_DEPTHWISE_BLOCKS_H
#define MICROAOT_DSP_DEPTHWISE_BLOCKS_H

#include <stddef.h>
#include <stdint.h>

#include "microaot/internal/dsp.h"

#if MICROAOT_DSP_ASM

/* Four int8 lanes of x (plus `offset` in both 16-bit lanes) times four weights already widened to 16-bit
 * lanes (w02: lanes 0 and 2, w13: lanes 1 and 3, as SXTB16 gives them), each product added to its own sum:
 * s[k] += (byte k of x + offset) * weight k. One statement, so that the compiler keeps each tap's widening
 * next to its multiplies instead of widening many taps ahead into spilled registers. */
static inline void microaot_dsp_mac4_lanes(uint32_t x, uint32_t w02, uint32_t w13, uint32_t offset, int32_t s[4]) {
  uint32_t x02;
  __asm__(
      "sxtab16 %[x02], %[off], %[x]\n\t"
      "sxtab16 %[x], %[off], %[x], ror #8\n\t"
      "smlabb %[s0], %[x02], %[w02], %[s0]\n\t"
      "smlatt %[s2], %[x02], %[w02], %[s2]\n\t"
      "smlabb %[s1], %[x], %[w13], %[s1]\n\t"
      "smlatt %[s3], %[x], %[w13], %[s3]"
      : [x02] "=&r"(x02), [x] "+r"(x), [s0] "+r"(s[0]), [s1] "+r"(s[1]), [s2] "+r"(s[2]), [s3] "+r"(s[3])
      : [off] "r"(offset), [w02] "r"(w02), [w13] "r"(w13));
}

/* Three taps `stride` bytes apart from `in` (four int8 lanes each, plus `offset`) against three weight pairs
 * widened as for microaot_dsp_mac4_lanes: s[k] += sum over taps t of (byte k of in[t * stride] + offset) *
 * weight k of w[t]. The loads are in the statement as well: left to the compiler, they are hoisted from
 * every tap ahead of the multiplies and spilled. */
static inline void microaot_dsp_mac4_lanes_x3(const int8_t* in, size_t stride, const uint32_t (*w)[2],
                                              uint32_t offset, int32_t s[4]) {
  uint32_t x, x02, w02, w13;
  __asm__(
#define MICROAOT_DSP_TAP(load, weights)                                   \
  load "\n\t"                                                           \
  "ldrd %[w02], %[w13], [%[w], #" weights "]\n\t"                       \
  "sxtab16 %[x02], %[off], %[x]\n\t"                                    \
  "sxtab16 %[x], %[off], %[x], ror #8\n\t"                              \
  "smlabb %[s0], %[x02], %[w02], %[s0]\n\t"                             \
  "smlatt %[s2], %[x02], %[w02], %[s2]\n\t"                             \
  "smlabb %[s1], %[x], %[w13], %[s1]\n\t"                               \
  "smlatt %[s3], %[x], %[w13], %[s3]\n\t"
      MICROAOT_DSP_TAP("ldr %[x], [%[in]]", "0")
      MICROAOT_DSP_TAP("ldr %[x], [%[in], %[stride]]", "8")
      MICROAOT_DSP_TAP("ldr %[x], [%[in], %[stride], lsl #1]", "16")
      : [x] "=&r"(x), [x02] "=&r"(x02), [w02] "=&r"(w02), [w13] "=&r"(w13), [s0] "+r"(s[0]), [s1] "+r"(s[1]),
        [s2] "+r"(s[2]), [s3] "+r"(s[3])
      : [in] "r"(in), [stride] "r"(stride), [w] "r"(w), [off] "r"(offset),
        "m"(*(const int8_t(*)[2 * stride + 4])in), "m"(*(const uint32_t(*)[3][2])w));
}

/* The same over two taps (a window clipped by the image's edge). */
static inline void microaot_dsp_mac4_lanes_x2(const int8_t* in, size_t stride, const uint32_t (*w)[2],
                                              uint32_t offset, int32_t s[4]) {
  uint32_t x, x02, w02, w13;
  __asm__(
      MICROAOT_DSP_TAP("ldr %[x], [%[in]]", "0")
      MICROAOT_DSP_TAP("ldr %[x], [%[in], %[stride]]", "8")
      : [x] "=&r"(x), [x02] "=&r"(x02), [w02] "=&r"(w02), [w13] "=&r"(w13), [s0] "+r"(s[0]), [s1] "+r"(s[1]),
        [s2] "+r"(s[2]), [s3] "+r"(s[3])
      : [in] "r"(in), [stride] "r"(stride), [w] "r"(w), [off] "r"(offset),
        "m"(*(const int8_t(*)[stride + 4])in), "m"(*(const uint32_t(*)[2][2])w));
}
/* A 3x3 window's nine taps over int8 input from the bias on (microaot_dsp_mac4_lanes_3x3 and
 * microaot_dsp_window_3x3_store8x4): operands s0-s3, x, x02, w02, w13, in (stepped a row on twice), stride, row,
 * w (the bias, then the weight pairs from byte 16), off. */
#define MICROAOT_DSP_TAP_ROW(w0, w1, w2)                      \
  MICROAOT_DSP_TAP("ldr %[x], [%[in]]", w0)                   \
  MICROAOT_DSP_TAP("ldr %[x], [%[in], %[stride]]", w1)        \
  MICROAOT_DSP_TAP("ldr %[x], [%[in], %[stride], lsl #1]", w2)
#define MICROAOT_DSP_TAP_PAIR(w0, w1) \
  MICROAOT_DSP_TAP("ldr %[x], [%[in]]", w0) MICROAOT_DSP_TAP("ldr %[x], [%[in], %[stride]]", w1)
#define MICROAOT_DSP_NEXT_ROW "add %[in], %[in], %[row]\n\t"
#define MICROAOT_DSP_WINDOW_3X3                                                      \
  "ldrd %[s0], %[s1], [%[w]]\n\t"                                                  \
  "ldrd %[s2], %[s3], [%[w], #8]\n\t"                                              \
  MICROAOT_DSP_TAP_ROW("16", "24", "32") MICROAOT_DSP_NEXT_ROW                    \
  MICROAOT_DSP_TAP_ROW("40", "48", "56") MICROAOT_DSP_NEXT_ROW                    \
  MICROAOT_DSP_TAP_ROW("64", "72", "80")

/* One 3x3 window of four channels wholly inside the image over int8 input, from the bias on: `in` at its
 * top-left tap, taps `depth` bytes apart along a row and rows `row` bytes apart; `bw` a group's bias, then its
 * nine weight pairs widened as for microaot_dsp_mac4_lanes, row-major (a dw_group's bias_weights). One
 * statement for the whole window: left to the compiler, three statements of three taps kept the sums and the
 * row pointers on the stack (about 40 instructions a window more). */
static inline __attribute__((always_inline)) void microaot_dsp_mac4_lanes_3x3(const int8_t* in, size_t depth,
                                                                             size_t row, const int32_t* bw,
                                                                             uint32_t offset, int32_t s[4]) {
  uint32_t x, x02, w02, w13;
  const int8_t* at = in;
  __asm__(
      MICROAOT_DSP_WINDOW_3X3
      : [x] "=&r"(x), [x02] "=&r"(x02), [w02] "=&r"(w02), [w13] "=&r"(w13), [s0] "=&r"(s[0]), [s1] "=&r"(s[1]),
        [s2] "=&r"(s[2]), [s3] "=&r"(s[3]), [in] "+&r"(at)
      : [stride] "r"(depth), [row] "r"(row), [w] "r"(bw), [off] "r"(offset),
        "m"(*(const int8_t(*)[2 * row + 2 * depth + 4])in), "m"(*(const int32_t(*)[22])bw));
}

/* A window's taps from the bias on, then the output step of the clamp [-128, 127] (SSAT, byte stores), in one
 * statement: `g` a dw_group's words (the bias, the weights from byte 16 (tap (r, c) at 16 + 24r + 8c), the
 * output steps at word 22), `in` at the window's top-left tap; returns `in` stepped `rows - 1` rows on, so that a
 * row's loop steps it to the next window with one add. Apart, the compiler spilled the loop's pointers around
 * both (about 10 instructions a window). 3x3 (a window inside the image), and the windows clipped by the right
 * edge, the bottom one or both (3x2, 2x3, 2x2: those of a map without padding above and left). */
#define MICROAOT_DSP_WINDOW_STEP(y, offset, next)                \
  "ldrd %[w02], %[w13], [%[w], #" offset "]\n\t"                  \
  "ldr %[x02], [%[w], #" next "]\n\t"                             \
  "add %[w13], %[w13], %[" y "], asr #31\n\t"                     \
  "smmlar %[" y "], %[" y "], %[w02], %[w13]\n\t"                 \
  "asr %[" y "], %[" y "], %[x02]\n\t"                            \
  "ssat %[" y "], #8, %[" y "]\n\t"
#define MICROAOT_DSP_WINDOW_STORE8X4(name, taps)                                                                   \
  static inline __attribute__((always_inline)) const int8_t* name(const int8_t* in, size_t depth, size_t row,      \
                                                                  const int32_t* g, uint32_t offset, int8_t* out) { \
    uint32_t x, x02, w02, w13;                                                                                    \
    int32_t s0, s1, s2, s3;                                                                                       \
    __asm__ volatile( /* its outputs are scratch: the stores are its effect */                                    \
        "ldrd %[s0], %[s1], [%[w]]\n\t"                                                                           \
        "ldrd %[s2], %[s3], [%[w], #8]\n\t" taps                                                                  \
        MICROAOT_DSP_WINDOW_STEP("s0", "88", "96") MICROAOT_DSP_WINDOW_STEP("s1", "100", "108")                     \
        MICROAOT_DSP_WINDOW_STEP("s2", "112", "120") MICROAOT_DSP_WINDOW_STEP("s3", "124", "132")                   \
        "strb %[s0], [%[out]]\n\t"                                                                                \
        "strb %[s1], [%[out], #1]\n\t"                                                                            \
        "strb %[s2], [%[out], #2]\n\t"                                                                            \
        "strb %[s3], [%[out], #3]"                                                                                 \
        : [x] "=&r"(x), [x02] "=&r"(x02), [w02] "=&r"(w02), [w13] "=&r"(w13), [s0] "=&r"(s0), [s1] "=&r"(s1),    \
          [s2] "=&r"(s2), [s3] "=&r"(s3), [in] "+&r"(in)                                                          \
        : [stride] "r"(depth), [row] "r"(row), [w] "r"(g), [off] "r"(offset), [out] "r"(out)                      \
        : "memory"); /* fourteen registers: no memory operand's address left, so a clobber instead */            \
    return in;                                                                                                    \
  }
MICROAOT_DSP_WINDOW_STORE8X4(microaot_dsp_window_3x3_store8x4, MICROAOT_DSP_TAP_ROW("16", "24", "32")
                             MICROAOT_DSP_NEXT_ROW MICROAOT_DSP_TAP_ROW("40", "48", "56") MICROAOT_DSP_NEXT_ROW
                             MICROAOT_DSP_TAP_ROW("64", "72", "80"))
MICROAOT_DSP_WINDOW_STORE8X4(microaot_dsp_window_3x2_store8x4, MICROAOT_DSP_TAP_PAIR("16", "24") MICROAOT_DSP_NEXT_ROW
                             MICROAOT_DSP_TAP_PAIR("40", "48") MICROAOT_DSP_NEXT_ROW MICROAOT_DSP_TAP_PAIR("64", "72"))
MICROAOT_DSP_WINDOW_STORE8X4(microaot_dsp_window_2x3_store8x4, MICROAOT_DSP_TAP_ROW("16", "24", "32")
                             MICROAOT_DSP_NEXT_ROW MICROAOT_DSP_TAP_ROW("40", "48", "56"))
MICROAOT_DSP_WINDOW_STORE8X4(microaot_dsp_window_2x2_store8x4, MICROAOT_DSP_TAP_PAIR("16", "24") MICROAOT_DSP_NEXT_ROW
                             MICROAOT_DSP_TAP_PAIR("40", "48"))
#undef MICROAOT_DSP_WINDOW_STORE8X4
#undef MICROAOT_DSP_WINDOW_STEP
#undef MICROAOT_DSP_WINDOW_3X3

/* A window clipped by the image's right or bottom edge (or both) over int8 input, added to the sums: its
 * in-image taps, 3 rows of 2, 2 rows of 3 or 2 of 2, unrolled as in microaot_dsp_mac4_lanes_3x3; `w` at the
 * first tap's weight pair, a filter row 3 pairs on (the group's pairs from the window's first in-image tap).
 * Thirteen registers: a `memory` clobber in the place of memory operands (with them GCC found no registers for
 * the Cortex-M55 at -Og). */
#define MICROAOT_DSP_LANES_WINDOW(name, ...)                                                                       \
  static inline __attribute__((always_inline)) void name(const int8_t* in, size_t depth, size_t row,               \
                                                         const uint32_t (*w)[2], uint32_t offset, int32_t s[4]) {  \
    uint32_t x, x02, w02, w13;                                                                                    \
    const int8_t* at = in;                                                                                        \
    __asm__(__VA_ARGS__                                                                                           \
            : [x] "=&r"(x), [x02] "=&r"(x02), [w02] "=&r"(w02), [w13] "=&r"(w13), [s0] "+r"(s[0]),                \
              [s1] "+r"(s[1]), [s2] "+r"(s[2]), [s3] "+r"(s[3]), [in] "+&r"(at)                                   \
            : [stride] "r"(depth), [row] "r"(row), [w] "r"(w), [off] "r"(offset)                                  \
            : "memory");                                                                                          \
  }
MICROAOT_DSP_LANES_WINDOW(microaot_dsp_mac4_lanes_3x2, MICROAOT_DSP_TAP_PAIR("0", "8") MICROAOT_DSP_NEXT_ROW
                          MICROAOT_DSP_TAP_PAIR("24", "32") MICROAOT_DSP_NEXT_ROW MICROAOT_DSP_TAP_PAIR("48", "56"))
MICROAOT_DSP_LANES_WINDOW(microaot_dsp_mac4_lanes_2x3, MICROAOT_DSP_TAP_ROW("0", "8", "16") MICROAOT_DSP_NEXT_ROW
                          MICROAOT_DSP_TAP_ROW("24", "32", "40"))
MICROAOT_DSP_LANES_WINDOW(microaot_dsp_mac4_lanes_2x2, MICROAOT_DSP_TAP_PAIR("0", "8") MICROAOT_DSP_NEXT_ROW
                          MICROAOT_DSP_TAP_PAIR("24", "32"))
#undef MICROAOT_DSP_LANES_WINDOW
#undef MICROAOT_DSP_NEXT_ROW
#undef MICROAOT_DSP_TAP_PAIR
#undef MICROAOT_DSP_TAP_ROW
#undef MICROAOT_DSP_TAP

/* One 3x3 window of four channels over widened input, from the bias on (layouts as for the C definition
 * below): nine LDRD of inputs and nine of weights for 36 products, in one statement (see above). */
static inline void microaot_dsp_mac4_widened_3x3(const uint32_t* in, const int32_t* bw, int32_t s[4]) {
  uint32_t x02, x13, w02, w13;
  __asm__(
      "ldrd %[s0], %[s1], [%[bw]]\n\t"
      "ldrd %[s2], %[s3], [%[bw], #8]\n\t"
/* input (row r, column c) at 64c + 8r, its weights at 16 + 24r + 8c */
#define MICROAOT_DSP_WIDE_TAP(in_at, w_at)                         \
  "ldrd %[w02], %[w13], [%[bw], #" w_at "]\n\t"                  \
  "ldrd %[x02], %[x13], [%[in], #" in_at "]\n\t"                 \
  "smlabb %[s0], %[x02], %[w02], %[s0]\n\t"                      \
  "smlatt %[s2], %[x02], %[w02], %[s2]\n\t"                      \
  "smlabb %[s1], %[x13], %[w13], %[s1]\n\t"                      \
  "smlatt %[s3], %[x13], %[w13], %[s3]\n\t"
      MICROAOT_DSP_WIDE_TAP("0", "16") MICROAOT_DSP_WIDE_TAP("8", "40") MICROAOT_DSP_WIDE_TAP("16", "64")
      MICROAOT_DSP_WIDE_TAP("64", "24") MICROAOT_DSP_WIDE_TAP("72", "48") MICROAOT_DSP_WIDE_TAP("80", "72")
      MICROAOT_DSP_WIDE_TAP("128", "32") MICROAOT_DSP_WIDE_TAP("136", "56") MICROAOT_DSP_WIDE_TAP("144", "80")
#undef MICROAOT_DSP_WIDE_TAP
      : [x02] "=&r"(x02), [x13] "=&r"(x13), [w02] "=&r"(w02), [w13] "=&r"(w13), [s0] "=&r"(s[0]),
        [s1] "=&r"(s[1]), [s2] "=&r"(s[2]), [s3] "=&r"(s[3])
      : [in] "r"(in), [bw] "r"(bw), "m"(*(const uint32_t(*)[38])in), "m"(*(const int32_t(*)[22])bw));
}

/* The output step of four depthwise channels (see kernels/dsp/depthwise_conv_2d_s8.c): v[k] = SSAT #8 of
 * (SMMLAR(s[k], output_step[k][0], output_step[k][1] + (s[k] >> 31)) >> output_step[k][2]), each channel's three
 * constants one LDRD and one LDR at fixed offsets (left to the compiler: three loads and an add). */
#define MICROAOT_DSP_OUTPUT_STEP(y, offset, next)                \
  "ldrd %[m], %[r], [%[output_step], #" offset "]\n\t"             \
  "ldr %[e], [%[output_step], #" next "]\n\t"                      \
  "add %[r], %[r], %[" y "], asr #31\n\t"                  \
  "smmlar %[" y "], %[" y "], %[m], %[r]\n\t"              \
  "asr %[" y "], %[" y "], %[e]\n\t"                       \
  "ssat %[" y "], #8, %[" y "]\n\t"
#define MICROAOT_DSP_OUTPUT_STEPS \
  MICROAOT_DSP_OUTPUT_STEP("s0", "0", "8") MICROAOT_DSP_OUTPUT_STEP("s1", "12", "20")     \
  MICROAOT_DSP_OUTPUT_STEP("s2", "24", "32") MICROAOT_DSP_OUTPUT_STEP("s3", "36", "44")
/* The steps' operands: temporaries, the four sums (results in place) and the four output bytes. */
#define MICROAOT_DSP_OUTPUT_STEP_OPERANDS \
  [m] "=&r"(m), [r] "=&r"(r), [e] "=&r"(e), [s0] "+r"(s0), [s1] "+r"(s1), [s2] "+r"(s2), [s3] "+r"(s3), \
      "=m"(*(int8_t(*)[4])out)

/* out[k] = v[k], a byte store each (cheaper than packing them). One statement (see above). */
static inline void microaot_dsp_output_step_store8x4(const int32_t (*output_step)[3], const int32_t s[4], int8_t* out) {
  int32_t m, r, e, s0 = s[0], s1 = s[1], s2 = s[2], s3 = s[3];
  __asm__(MICROAOT_DSP_OUTPUT_STEPS /* then the stores */
          "strb %[s0], [%[out]]\n\t"
          "strb %[s1], [%[out], #1]\n\t"
          "strb %[s2], [%[out], #2]\n\t"
          "strb %[s3], [%[out], #3]"
          : MICROAOT_DSP_OUTPUT_STEP_OPERANDS
          : [output_step] "r"(output_step), [out] "r"(out), "m"(*(const int32_t(*)[4][3])output_step));
}

/* out[k] = v[k] clamped to [lo, hi] (each byte of lo4 and hi4 holds the bound): the four packed into a word
 * (PKHBT, UXTB16) and clamped at once, SSUB8 setting a lane's GE flag where its difference is >= 0 and SEL
 * picking by them: 14 instructions after the steps instead of 24 for compares and byte stores. */
static inline void microaot_dsp_output_step_store8x4_clamped(const int32_t (*output_step)[3], const int32_t s[4],
                                                             int8_t* out, uint32_t lo4, uint32_t hi4) {
  int32_t m, r, e, s0 = s[0], s1 = s[1], s2 = s[2], s3 = s[3];
  __asm__(MICROAOT_DSP_OUTPUT_STEPS
          "pkhbt %[s0], %[s0], %[s2], lsl #16\n\t"
          "pkhbt %[s1], %[s1], %[s3], lsl #16\n\t"
          "uxtb16 %[s0], %[s0]\n\t"
          "uxtb16 %[s1], %[s1]\n\t"
          "orr %[s0], %[s0], %[s1], lsl #8\n\t"
          "ssub8 %[r], %[s0], %[lo]\n\t"
          "sel %[s0], %[s0], %[lo]\n\t"
          "ssub8 %[r], %[hi], %[s0]\n\t"
          "sel %[s0], %[s0], %[hi]\n\t"
          "str %[s0], [%[out]]"
          : MICROAOT_DSP_OUTPUT_STEP_OPERANDS
          : [output_step] "r"(output_step), [out] "r"(out), [lo] "r"(lo4), [hi] "r"(hi4),
            "m"(*(const int32_t(*)[4][3])output_step)
          : "cc");
}
/* Channel x's output step for two pixels' values x and y, its constants `offset` bytes into output_step. */
#define MICROAOT_DSP_OUTPUT_STEP2(x, y, offset, next)    \
  "ldrd %[m], %[r], [%[output_step], #" offset "]\n\t" \
  "ldr %[e], [%[output_step], #" next "]\n\t"          \
  "add %[t], %[r], %[" x "], asr #31\n\t"              \
  "smmlar %[" x "], %[" x "], %[m], %[t]\n\t"          \
  "add %[t], %[r], %[" y "], asr #31\n\t"              \
  "smmlar %[" y "], %[" y "], %[m], %[t]\n\t"          \
  "asr %[" x "], %[" x "], %[e]\n\t"                   \
  "asr %[" y "], %[" y "], %[e]\n\t"                   \
  "ssat %[" x "], #8, %[" x "]\n\t"                    \
  "ssat %[" y "], #8, %[" y "]\n\t"

/* The output steps of two pixels' two channels, in place (a[k], b[k] become v[k]). */
static inline void microaot_dsp_output_steps2x2(const int32_t (*output_step)[3], int32_t a[2], int32_t b[2]) {
  int32_t m, r, e, t;
  __asm__(MICROAOT_DSP_OUTPUT_STEP2("a0", "b0", "0", "8") MICROAOT_DSP_OUTPUT_STEP2("a1", "b1", "12", "20")
          : [m] "=&r"(m), [r] "=&r"(r), [e] "=&r"(e), [t] "=&r"(t), [a0] "+r"(a[0]), [a1] "+r"(a[1]),
            [b0] "+r"(b[0]), [b1] "+r"(b[1])
          : [output_step] "r"(output_step), "m"(*(const int32_t(*)[2][3])output_step));
}

/* The output steps of two pixels' four channels, in place (a[k], b[k] become v[k]): each channel's constants
 * loaded once for both. One statement of 13 registers where the compiler optimises for speed; at -Os (the
 * folder's build for small layers' kernels, and many firmware builds) GCC cannot give it 13, so two of 9. */
static inline void microaot_dsp_output_steps4x2(const int32_t (*output_step)[3], int32_t a[4], int32_t b[4]) {
#if defined(__OPTIMIZE_SIZE__)
  microaot_dsp_output_steps2x2(output_step, a, b);
  microaot_dsp_output_steps2x2(output_step + 2, a + 2, b + 2);
#else
  int32_t m, r, e, t;
  __asm__(MICROAOT_DSP_OUTPUT_STEP2("a0", "b0", "0", "8") MICROAOT_DSP_OUTPUT_STEP2("a1", "b1", "12", "20")
              MICROAOT_DSP_OUTPUT_STEP2("a2", "b2", "24", "32") MICROAOT_DSP_OUTPUT_STEP2("a3", "b3", "36", "44")
          : [m] "=&r"(m), [r] "=&r"(r), [e] "=&r"(e), [t] "=&r"(t), [a0] "+r"(a[0]), [a1] "+r"(a[1]),
            [a2] "+r"(a[2]), [a3] "+r"(a[3]), [b0] "+r"(b[0]), [b1] "+r"(b[1]), [b2] "+r"(b[2]), [b3] "+r"(b[3])
          : [output_step] "r"(output_step), "m"(*(const int32_t(*)[4][3])output_step));
#endif
}
#undef MICROAOT_DSP_OUTPUT_STEP2

/* Four values in [-128, 127] stored as bytes, unchanged (store4) or clamped to [lo, hi] as in
 * microaot_dsp_output_step_store8x4_clamped (clamp_store4). */
static inline void microaot_dsp_store4(const int32_t v[4], int8_t* out) {
  __asm__("strb %[v0], [%[out]]\n\t"
          "strb %[v1], [%[out], #1]\n\t"
          "strb %[v2], [%[out], #2]\n\t"
          "strb %[v3], [%[out], #3]"
          : "=m"(*(int8_t(*)[4])out)
          : [v0] "r"(v[0]), [v1] "r"(v[1]), [v2] "r"(v[2]), [v3] "r"(v[3]), [out] "r"(out));
}

static inline void microaot_dsp_clamp_store4(const int32_t v[4], int8_t* out, uint32_t lo4, uint32_t hi4) {
  int32_t v02 = v[0], v13 = v[1], ge;
  __asm__("pkhbt %[v02], %[v02], %[v2], lsl #16\n\t"
          "pkhbt %[v13], %[v13], %[v3], lsl #16\n\t"
          "uxtb16 %[v02], %[v02]\n\t"
          "uxtb16 %[v13], %[v13]\n\t"
          "orr %[v02], %[v02], %[v13], lsl #8\n\t"
          "ssub8 %[ge], %[v02], %[lo]\n\t"
          "sel %[v02], %[v02], %[lo]\n\t"
          "ssub8 %[ge], %[hi], %[v02]\n\t"
          "sel %[v02], %[v02], %[hi]\n\t"
          "str %[v02], [%[out]]"
          : [v02] "+&r"(v02), [v13] "+&r"(v13), [ge] "=&r"(ge), "=m"(*(int8_t(*)[4])out)
          : [v2] "r"(v[2]), [v3] "r"(v[3]), [out] "r"(out), [lo] "r"(lo4), [hi] "r"(hi4)
          : "cc");
}

#undef MICROAOT_DSP_OUTPUT_STEP_OPERANDS
#undef MICROAOT_DSP_OUTPUT_STEPS
#undef MICROAOT_DSP_OUTPUT_STEP

#else /* the same results in C */

static inline void microaot_dsp_mac4_lanes(uint32_t x, uint32_t w02, uint32_t w13, uint32_t offset, int32_t s[4]) {
  const uint32_t x02 = microaot_dsp_sxtab16(offset, x), x13 = microaot_dsp_sxtab16_ror8(offset, x);
  s[0] = microaot_dsp_smlabb(x02, w02, s[0]);
  s[2] = microaot_dsp_smlatt(x02, w02, s[2]);
  s[1] = microaot_dsp_smlabb(x13, w13, s[1]);
  s[3] = microaot_dsp_smlatt(x13, w13, s[3]);
}

static inline void microaot_dsp_mac4_lanes_x3(const int8_t* in, size_t stride, const uint32_t (*w)[2],
                                              uint32_t offset, int32_t s[4]) {
  int t;
  for (t = 0; t < 3; ++t) {
    microaot_dsp_mac4_lanes(microaot_dsp_load4(in + (size_t)t * stride), w[t][0], w[t][1], offset, s);
  }
}

static inline void microaot_dsp_mac4_lanes_x2(const int8_t* in, size_t stride, const uint32_t (*w)[2],
                                              uint32_t offset, int32_t s[4]) {
  microaot_dsp_mac4_lanes(microaot_dsp_load4(in), w[0][0], w[0][1], offset, s);
  microaot_dsp_mac4_lanes(microaot_dsp_load4(in + stride), w[1][0], w[1][1], offset, s);
}

/* The clipped windows' forms (see the asm definitions): `rows` rows of `cols` taps from `w` on. */
static inline void microaot_dsp_mac4_lanes_window(const int8_t* in, size_t depth, size_t row, const uint32_t (*w)[2],
                                                  uint32_t offset, int32_t s[4], int rows, int cols) {
  int r, c;
  for (r = 0; r < rows; ++r) {
    for (c = 0; c < cols; ++c) {
      microaot_dsp_mac4_lanes(microaot_dsp_load4(in + (size_t)r * row + (size_t)c * depth), w[3 * r + c][0],
                              w[3 * r + c][1], offset, s);
    }
  }
}
static inline void microaot_dsp_mac4_lanes_3x2(const int8_t* in, size_t depth, size_t row, const uint32_t (*w)[2],
                                               uint32_t offset, int32_t s[4]) {
  microaot_dsp_mac4_lanes_window(in, depth, row, w, offset, s, 3, 2);
}
static inline void microaot_dsp_mac4_lanes_2x3(const int8_t* in, size_t depth, size_t row, const uint32_t (*w)[2],
                                               uint32_t offset, int32_t s[4]) {
  microaot_dsp_mac4_lanes_window(in, depth, row, w, offset, s, 2, 3);
}
static inline void microaot_dsp_mac4_lanes_2x2(const int8_t* in, size_t depth, size_t row, const uint32_t (*w)[2],
                                               uint32_t offset, int32_t s[4]) {
  microaot_dsp_mac4_lanes_window(in, depth, row, w, offset, s, 2, 2);
}

static inline __attribute__((always_inline)) void microaot_dsp_mac4_lanes_3x3(const int8_t* in, size_t depth,
                                                                             size_t row, const int32_t* bw,
                                                                             uint32_t offset, int32_t s[4]) {
  const uint32_t(*w)[2] = (const uint32_t(*)[2])(const void*)(bw + 4);
  int r;
  for (r = 0; r < 4; ++r) s[r] = bw[r];
  for (r = 0; r < 3; ++r) microaot_dsp_mac4_lanes_x3(in + (size_t)r * row, depth, w + 3 * r, offset, s);
}

/* `in`: input columns 16 words apart, each rows of two words (lanes of channels 0, 2 and 1, 3): the window
 * reads rows 0 to 2 of columns 0 to 2. `bw`: the four channels' bias, then the nine weight pairs of the same
 * lanes, row-major (pair 3 * row + column). */
static inline void microaot_dsp_mac4_widened_3x3(const uint32_t* in, const int32_t* bw, int32_t s[4]) {
  int column, row, k;
  for (k = 0; k < 4; ++k) s[k] = bw[k];
  for (column = 0; column < 3; ++column) {
    for (row = 0; row < 3; ++row) {
      const uint32_t* x = in + 16 * column + 2 * row;
      const uint32_t w02 = (uint32_t)bw[4 + 2 * (3 * row + column)], w13 = (uint32_t)bw[5 + 2 * (3 * row + column)];
      s[0] = microaot_dsp_smlabb(x[0], w02, s[0]);
      s[2] = microaot_dsp_smlatt(x[0], w02, s[2]);
      s[1] = microaot_dsp_smlabb(x[1], w13, s[1]);
      s[3] = microaot_dsp_smlatt(x[1], w13, s[3]);
    }
  }
}

static inline int32_t microaot_dsp_output_step_value(const int32_t output_step[3], int32_t y) {
  return microaot_dsp_ssat8(microaot_dsp_smmlar(y, output_step[0], output_step[1] + (y >> 31)) >> output_step[2]);
}

static inline void microaot_dsp_store4(const int32_t v[4], int8_t* out) {
  int k;
  for (k = 0; k < 4; ++k) out[k] = (int8_t)v[k];
}

static inline void microaot_dsp_clamp_store4(const int32_t v[4], int8_t* out, uint32_t lo4, uint32_t hi4) {
  int k;
  for (k = 0; k < 4; ++k) {
    const int32_t lo = microaot_dsp_byte(lo4, k), hi = microaot_dsp_byte(hi4, k);
    out[k] = (int8_t)(v[k] < lo ? lo : (v[k] > hi ? hi : v[k]));
  }
}

static inline void microaot_dsp_output_step_values4(const int32_t (*output_step)[3], const int32_t s[4], int32_t v[4]) {
  int k;
  for (k = 0; k < 4; ++k) v[k] = microaot_dsp_output_step_value(output_step[k], s[k]);
}

static inline void microaot_dsp_output_steps4x2(const int32_t (*output_step)[3], int32_t a[4], int32_t b[4]) {
  microaot_dsp_output_step_values4(output_step, a, a);
  microaot_dsp_output_step_values4(output_step, b, b);
}

static inline void microaot_dsp_output_step_store8x4(const int32_t (*output_step)[3], const int32_t s[4], int8_t* out) {
  int32_t v[4];
  microaot_dsp_output_step_values4(output_step, s, v);
  microaot_dsp_store4(v, out);
}

static inline void microaot_dsp_output_step_store8x4_clamped(const int32_t (*output_step)[3], const int32_t s[4],
                                                             int8_t* out, uint32_t lo4, uint32_t hi4) {
  int32_t v[4];
  microaot_dsp_output_step_values4(output_step, s, v);
  microaot_dsp_clamp_store4(v, out, lo4, hi4);
}

/* A window of `rows` x `cols` taps from the bias on and its output step, as the asm forms (returns `in` stepped
 * `rows - 1` rows on). */
static inline const int8_t* microaot_dsp_window_store8x4(const int8_t* in, size_t depth, size_t row, const int32_t* g,
                                                         uint32_t offset, int8_t* out, int rows, int cols) {
  int32_t s[4];
  int k;
  for (k = 0; k < 4; ++k) s[k] = g[k];
  microaot_dsp_mac4_lanes_window(in, depth, row, (const uint32_t(*)[2])(const void*)(g + 4), offset, s, rows, cols);
  for (k = 0; k < 4; ++k) out[k] = (int8_t)microaot_dsp_output_step_value(g + 22 + 3 * k, s[k]);
  return in + (size_t)(rows - 1) * row;
}
#define MICROAOT_DSP_WINDOW_STORE8X4(name, rows, cols)                                                         \
  static inline const int8_t* name(const int8_t* in, size_t depth, size_t row, const int32_t* g, uint32_t offset, \
                                   int8_t* out) {                                                              \
    return microaot_dsp_window_store8x4(in, depth, row, g, offset, out, rows, cols);                          \
  }
MICROAOT_DSP_WINDOW_STORE8X4(microaot_dsp_window_3x3_store8x4, 3, 3)
MICROAOT_DSP_WINDOW_STORE8X4(microaot_dsp_window_3x2_store8x4, 3, 2)
MICROAOT_DSP_WINDOW_STORE8X4(microaot_dsp_window_2x3_store8x4, 2, 3)
MICROAOT_DSP_WINDOW_STORE8X4(microaot_dsp_window_2x2_store8x4, 2, 2)
#undef MICROAOT_DSP_WINDOW_STORE8X4

#endif

/* Two windows of four channels over the general path's strip (dsp/depthwise_conv_2d_s8.c, dw_strip), from the
 * bias on: `in` at window a's top-left tap (a word of four int8 channels per strip pixel, padding the input zero
 * point), `table` the group's four sums' starting values, then one entry a tap {offset of a's input from `in`
 * in bytes, the same for b, weights of lanes 0 and 2 widened, of lanes 1 and 3}, the top-left tap (offset 0)
 * last and no other offset 0, which ends the loop. The input offset is in the starting values (sum of the
 * weights times it): the inputs are widened by SXTB16 alone. One statement of 14 registers where the compiler
 * optimises for speed (each weight word loaded once for both windows), its loop `unroll` taps a pass (1, 3 or
 * 5: the taps a multiple of it, the offset tested in a pass's last tap only); the C form at -Os and in debug
 * builds. */
#if MICROAOT_DSP_ASM && !defined(__OPTIMIZE_SIZE__)
#define MICROAOT_DSP_STRIP_TAP(test)         \
  "ldr %[o], [%[t]], #16\n\t"                \
  "ldr %[x], [%[in], %[o]]\n\t" test         \
  "ldr %[o], [%[t], #-12]\n\t"               \
  "ldr %[y], [%[in], %[o]]\n\t"              \
  "ldr %[w], [%[t], #-8]\n\t"                \
  "sxtb16 %[o], %[x]\n\t"                    \
  "smlabb %[a0], %[o], %[w], %[a0]\n\t"      \
  "smlatt %[a2], %[o], %[w], %[a2]\n\t"      \
  "sxtb16 %[o], %[y]\n\t"                    \
  "smlabb %[b0], %[o], %[w], %[b0]\n\t"      \
  "smlatt %[b2], %[o], %[w], %[b2]\n\t"      \
  "ldr %[w], [%[t], #-4]\n\t"                \
  "sxtb16 %[x], %[x], ror #8\n\t"            \
  "smlabb %[a1], %[x], %[w], %[a1]\n\t"      \
  "smlatt %[a3], %[x], %[w], %[a3]\n\t"      \
  "sxtb16 %[y], %[y], ror #8\n\t"            \
  "smlabb %[b1], %[y], %[w], %[b1]\n\t"      \
  "smlatt %[b3], %[y], %[w], %[b3]\n\t"
/* the flags stay from the cmp to the bne: nothing between sets them */
#define MICROAOT_DSP_STRIP_LAST MICROAOT_DSP_STRIP_TAP("cmp %[o], #0\n\t")
#define MICROAOT_DSP_STRIP_PASS(name, taps)                                                                        \
  static inline __attribute__((always_inline)) void name(const uint32_t* in, const int32_t* table, int32_t a[4],   \
                                                         int32_t b[4]) {                                           \
    uint32_t o, x, y, w;                                                                                          \
    const int32_t* t = table;                                                                                     \
    __asm__("ldrd %[a0], %[a1], [%[t]]\n\t"                                                                       \
            "ldrd %[a2], %[a3], [%[t], #8]\n\t"                                                                   \
            "ldrd %[b0], %[b1], [%[t]], #16\n\t"                                                                  \
            "ldrd %[b2], %[b3], [%[t], #-8]\n\t"                                                                  \
            "1:\n\t" taps "bne 1b"                                                                                \
            : [a0] "=&r"(a[0]), [a1] "=&r"(a[1]), [a2] "=&r"(a[2]), [a3] "=&r"(a[3]), [b0] "=&r"(b[0]),           \
              [b1] "=&r"(b[1]), [b2] "=&r"(b[2]), [b3] "=&r"(b[3]), [o] "=&r"(o), [x] "=&r"(x), [y] "=&r"(y),     \
              [w] "=&r"(w), [t] "+&r"(t)                                                                          \
            : [in] "r"(in)                                                                                        \
            : "cc", "memory"); /* fourteen registers: no memory operand's address left */                        \
  }
MICROAOT_DSP_STRIP_PASS(microaot_dsp_mac4x2_strip, MICROAOT_DSP_STRIP_LAST)
MICROAOT_DSP_STRIP_PASS(microaot_dsp_mac4x2_strip_x3,
                        MICROAOT_DSP_STRIP_TAP("") MICROAOT_DSP_STRIP_TAP("") MICROAOT_DSP_STRIP_LAST)
MICROAOT_DSP_STRIP_PASS(microaot_dsp_mac4x2_strip_x5,
                        MICROAOT_DSP_STRIP_TAP("") MICROAOT_DSP_STRIP_TAP("") MICROAOT_DSP_STRIP_TAP("")
                            MICROAOT_DSP_STRIP_TAP("") MICROAOT_DSP_STRIP_LAST)
#undef MICROAOT_DSP_STRIP_PASS
#undef MICROAOT_DSP_STRIP_LAST
#undef MICROAOT_DSP_STRIP_TAP
#else
static inline void microaot_dsp_mac4x2_strip(const uint32_t* in, const int32_t* table, int32_t a[4], int32_t b[4]) {
  const int8_t* base = (const int8_t*)(const void*)in;
  int32_t off;
  int k;
  for (k = 0; k < 4; ++k) a[k] = b[k] = table[k];
  do {
    table += 4;
    off = table[0];
    {
      const uint32_t x = microaot_dsp_load4(base + off), y = microaot_dsp_load4(base + table[1]);
      const uint32_t w02 = (uint32_t)table[2], w13 = (uint32_t)table[3];
      const uint32_t x02 = microaot_dsp_sxtb16(x), x13 = microaot_dsp_sxtb16_ror8(x);
      const uint32_t y02 = microaot_dsp_sxtb16(y), y13 = microaot_dsp_sxtb16_ror8(y);
      a[0] = microaot_dsp_smlabb(x02, w02, a[0]);
      a[2] = microaot_dsp_smlatt(x02, w02, a[2]);
      a[1] = microaot_dsp_smlabb(x13, w13, a[1]);
      a[3] = microaot_dsp_smlatt(x13, w13, a[3]);
      b[0] = microaot_dsp_smlabb(y02, w02, b[0]);
      b[2] = microaot_dsp_smlatt(y02, w02, b[2]);
      b[1] = microaot_dsp_smlabb(y13, w13, b[1]);
      b[3] = microaot_dsp_smlatt(y13, w13, b[3]);
    }
  } while (off != 0);
}
/* every tap tests the offset: the same as a pass of 3 or 5 */
static inline void microaot_dsp_mac4x2_strip_x3(const uint32_t* in, const int32_t* table, int32_t a[4],
                                                int32_t b[4]) {
  microaot_dsp_mac4x2_strip(in, table, a, b);
}
static inline void microaot_dsp_mac4x2_strip_x5(const uint32_t* in, const int32_t* table, int32_t a[4],
                                                int32_t b[4]) {
  microaot_dsp_mac4x2_strip(in, table, a, b);
}
#endif

#endif /* MICROAOT_DSP_DEPTHWISE_BLOCKS_H */
