/* The DSP int8 DEPTHWISE_CONV_2D's rows of vertical pairs of 3x3 windows over widened input (the ring's and the
 * small-map patch's lanes: input columns 16 words apart, each rows of two words, lanes of channels 0, 2 and 1, 3;
 * `bw` the four channels' bias, then the nine weight pairs row-major): window b one input row below window a
 * (stride 1) or two (stride 2). Where MICROAOT_DSP_ASM a row of pairs is one naked function,
 * microaot_dsp_pair_row_s1/_s2 (dsp/depthwise_conv_2d_s8_pairs_s1.c and _s2.c, which define
 * MICROAOT_DSP_PAIRS_TEXT for the loop's text), else a C loop over microaot_dsp_mac4_widened_3x3_x2/_x2s2. Included
 * through microaot/internal/dsp_depthwise.h. */
#ifndef MICROAOT_DSP_DEPTHWISE_PAIRS_H
#define MICROAOT_DSP_DEPTHWISE_PAIRS_H

#include <stddef.h>
#include <stdint.h>

#include "microaot/internal/dsp_depthwise_blocks.h"

/* A row of pairs for microaot_dsp_pair_row_s1/_s2, in the order their prologue reads it: the windows at `in`
 * on, `step` bytes apart (s1; s2 takes 128), up to `end`, not at it (at least one); `g` a dw_group (its
 * output steps 88 bytes in: microaot/internal/dsp_depthwise.h checks the layout); outputs `depth` bytes apart
 * from `out`, the lower row `lower` bytes below (0: an odd last row, which the upper row's store overwrites). */
typedef struct {
  const uint32_t* in;
  const void* g;
  int8_t* out;
  size_t lower, depth;
  const uint32_t* end;
  size_t step;
} microaot_dsp_pairs_job;

/* A row of pairs: each pair's windows, output steps and stores under the group's clamp, the loop too, in
 * assembly. Stride 1 (microaot_dsp_mac4_widened_3x3_x2's windows) and stride 2 (_x2s2's). */
void microaot_dsp_pair_row_s1(const microaot_dsp_pairs_job* job);
void microaot_dsp_pair_row_s2(const microaot_dsp_pairs_job* job);

#if !MICROAOT_DSP_ASM /* the C forms of the windows, for the C loops */

/* Window a at `in`, window b one row (two words) lower. */
static inline void microaot_dsp_mac4_widened_3x3_x2(const uint32_t* in, const int32_t* bw, int32_t a[4],
                                                    int32_t b[4]) {
  microaot_dsp_mac4_widened_3x3(in, bw, a);
  microaot_dsp_mac4_widened_3x3(in + 2, bw, b);
}

/* Window a at `in`, window b two rows (four words) lower. */
static inline void microaot_dsp_mac4_widened_3x3_x2s2(const uint32_t* in, const int32_t* bw, int32_t a[4],
                                                      int32_t b[4]) {
  microaot_dsp_mac4_widened_3x3(in, bw, a);
  microaot_dsp_mac4_widened_3x3(in + 4, bw, b);
}
#endif

#if defined(MICROAOT_DSP_PAIRS_TEXT) && defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
/* The naked loops: a statement per pair with its output steps and stores needs the 14 registers of the sums,
 * scratch and both pointers, and in C the loop reloaded its pointers and the steps' address around the statements
 * (about 8 instructions a pair), or GCC found no registers at some levels. out, lower, depth, end and step live at
 * sp + 0 to 16. The steps take the scratch registers as multiplier (x02), rounding (x13), rounded sum (w02) and
 * exponent (w13), as microaot_dsp_output_steps4x2; the lower row is stored first (the job's `lower`). The clamp
 * [-128, 127] is the steps' SSAT and byte stores, a narrower one the SIMD clamp of dw_store4x2_tested: a loop
 * each. */
/* The registers: the sums a0-a3 and b0-b3, scratch x02, x13, w02, w13, the input `in`, the bias and weights `bw`. */
#define DW_R(name) DW_REG_##name
#define DW_REG_in "r0"
#define DW_REG_bw "r1"
#define DW_REG_a0 "r2"
#define DW_REG_a1 "r3"
#define DW_REG_a2 "r4"
#define DW_REG_a3 "r5"
#define DW_REG_b0 "r6"
#define DW_REG_b1 "r7"
#define DW_REG_b2 "r8"
#define DW_REG_b3 "r9"
#define DW_REG_x02 "r10"
#define DW_REG_x13 "r11"
#define DW_REG_w02 "r12"
#define DW_REG_w13 "lr"

#define DW_MAC(s)                                                           \
  "smlabb " DW_R(s##0) ", " DW_R(x02) ", " DW_R(w02) ", " DW_R(s##0) "\n\t" \
  "smlatt " DW_R(s##2) ", " DW_R(x02) ", " DW_R(w02) ", " DW_R(s##2) "\n\t" \
  "smlabb " DW_R(s##1) ", " DW_R(x13) ", " DW_R(w13) ", " DW_R(s##1) "\n\t" \
  "smlatt " DW_R(s##3) ", " DW_R(x13) ", " DW_R(w13) ", " DW_R(s##3) "\n\t"
#define DW_LOAD(r0, r1, base, offset) "ldrd " DW_R(r0) ", " DW_R(r1) ", [" DW_R(base) ", #" offset "]\n\t"
#define DW_BIAS DW_LOAD(a0, a1, bw, "0") DW_LOAD(a2, a3, bw, "8") DW_LOAD(b0, b1, bw, "0") DW_LOAD(b2, b3, bw, "8")
/* Stride 1, input column c: rows 0 to 3 at 64c + 8r; weights (0..2, c) at 16 + 8c, 40 + 8c, 64 + 8c. Window b's
 * filter row r reads the input row that window a's row r + 1 reads: each input pair is loaded once for both (21
 * LDRD for 72 products). */
#define DW_COLUMN_S1(in0, in1, in2, in3, w0, w1, w2)                                                         \
  DW_LOAD(w02, w13, bw, w0) DW_LOAD(x02, x13, in, in0) DW_MAC(a) DW_LOAD(x02, x13, in, in1) DW_MAC(b)         \
  DW_LOAD(w02, w13, bw, w1) DW_MAC(a) DW_LOAD(x02, x13, in, in2) DW_MAC(b) DW_LOAD(w02, w13, bw, w2) DW_MAC(a) \
  DW_LOAD(x02, x13, in, in3) DW_MAC(b)
#define DW_MACS_S1                                                                                    \
  DW_BIAS DW_COLUMN_S1("0", "8", "16", "24", "16", "40", "64") DW_COLUMN_S1("64", "72", "80", "88", "24", "48", "72") \
  DW_COLUMN_S1("128", "136", "144", "152", "32", "56", "80")
/* Stride 2, input column c: rows 0 to 4 at 64c + 8r. Window b's top row is window a's bottom one: each weight
 * pair loaded once for both and the shared input row twice (27 LDRD for 72 products). */
#define DW_COLUMN_S2(in0, in1, in2, in3, in4, w0, w1, w2)                                                    \
  DW_LOAD(w02, w13, bw, w0) DW_LOAD(x02, x13, in, in0) DW_MAC(a) DW_LOAD(x02, x13, in, in2) DW_MAC(b)         \
  DW_LOAD(w02, w13, bw, w1) DW_LOAD(x02, x13, in, in1) DW_MAC(a) DW_LOAD(x02, x13, in, in3) DW_MAC(b)         \
  DW_LOAD(w02, w13, bw, w2) DW_LOAD(x02, x13, in, in4) DW_MAC(b) DW_LOAD(x02, x13, in, in2) DW_MAC(a)
#define DW_MACS_S2                                                                                          \
  DW_BIAS DW_COLUMN_S2("0", "8", "16", "24", "32", "16", "40", "64")                                        \
  DW_COLUMN_S2("64", "72", "80", "88", "96", "24", "48", "72")                                              \
  DW_COLUMN_S2("128", "136", "144", "152", "160", "32", "56", "80")

#define DW_STEP2(x, y, offset, next)              \
  "ldrd r10, r11, [r1, #" offset "]\n\t"          \
  "ldr lr, [r1, #" next "]\n\t"                   \
  "add r12, r11, " DW_R(x) ", asr #31\n\t"        \
  "smmlar " DW_R(x) ", " DW_R(x) ", r10, r12\n\t" \
  "add r12, r11, " DW_R(y) ", asr #31\n\t"        \
  "smmlar " DW_R(y) ", " DW_R(y) ", r10, r12\n\t" \
  "asr " DW_R(x) ", " DW_R(x) ", lr\n\t"          \
  "asr " DW_R(y) ", " DW_R(y) ", lr\n\t"          \
  "ssat " DW_R(x) ", #8, " DW_R(x) "\n\t"         \
  "ssat " DW_R(y) ", #8, " DW_R(y) "\n\t"
/* Four results of [-128, 127] as bytes into v0 (as microaot_dsp_clamp_store4), clamped to the bytes of r10 and r11 */
#define DW_CLAMP4(v0, v1, v2, v3)                                     \
  "pkhbt " DW_R(v0) ", " DW_R(v0) ", " DW_R(v2) ", lsl #16\n\t"       \
  "pkhbt " DW_R(v1) ", " DW_R(v1) ", " DW_R(v3) ", lsl #16\n\t"       \
  "uxtb16 " DW_R(v0) ", " DW_R(v0) "\n\t"                            \
  "uxtb16 " DW_R(v1) ", " DW_R(v1) "\n\t"                            \
  "orr " DW_R(v0) ", " DW_R(v0) ", " DW_R(v1) ", lsl #8\n\t"          \
  "ssub8 r12, " DW_R(v0) ", r10\n\t"                                 \
  "sel " DW_R(v0) ", " DW_R(v0) ", r10\n\t"                           \
  "ssub8 r12, r11, " DW_R(v0) "\n\t"                                 \
  "sel " DW_R(v0) ", " DW_R(v0) ", r11\n\t"
/* One loop: a pair's windows and output steps, its stores (`store`, which leaves r10 at `out`), the next pair. */
#define DW_PAIRS_PASS(label, macs, store, advance)                                                            \
  label ":\n\t" macs DW_STEP2(a0, b0, "88", "96") DW_STEP2(a1, b1, "100", "108") DW_STEP2(a2, b2, "112", "120")   \
      DW_STEP2(a3, b3, "124", "132") store                                                                     \
  "ldrd r12, lr, [sp, #8]\n\t"                                                                                 \
  "add r10, r10, r12\n\t"                                                                                      \
  "str r10, [sp]\n\t" advance                                                                                  \
  "cmp r0, lr\n\t"                                                                                             \
  "bne " label "b\n\t"
/* The clamp [-128, 127]: the steps' SSAT and byte stores. */
#define DW_STORE_FULL                                                                                          \
  "ldrd r10, r11, [sp]\n\t"                                                                                    \
  "add r11, r10, r11\n\t"                                                                                      \
  "strb r6, [r11]\n\t"                                                                                         \
  "strb r7, [r11, #1]\n\t"                                                                                     \
  "strb r8, [r11, #2]\n\t"                                                                                     \
  "strb r9, [r11, #3]\n\t"                                                                                     \
  "strb r2, [r10]\n\t"                                                                                         \
  "strb r3, [r10, #1]\n\t"                                                                                     \
  "strb r4, [r10, #2]\n\t"                                                                                     \
  "strb r5, [r10, #3]\n\t"
/* A narrower clamp: the bounds in each byte (the group's activation_min4 and _max4, 136 bytes in). */
#define DW_STORE_CLAMPED                                                                                       \
  "ldrd r10, r11, [r1, #136]\n\t" DW_CLAMP4(b0, b1, b2, b3) DW_CLAMP4(a0, a1, a2, a3)                          \
  "ldrd r12, lr, [sp]\n\t"                                                                                     \
  "add lr, r12, lr\n\t"                                                                                        \
  "str r6, [lr]\n\t"                                                                                           \
  "str r2, [r12]\n\t"                                                                                          \
  "mov r10, r12\n\t"
/* The loop for the group's clamp (its full_range, 144 bytes in), chosen once a row of pairs. */
#define DW_PAIRS_LOOP(macs, advance)                                                                            \
  __asm__("push {r4-r11, lr}\n\t"                                                                              \
          "sub sp, sp, #20\n\t" /* 56 bytes with the pushed registers: sp stays 8-aligned */                   \
          "ldrd r2, r3, [r0, #8]\n\t"                                                                          \
          "ldrd r4, r5, [r0, #16]\n\t"                                                                         \
          "ldr r6, [r0, #24]\n\t"                                                                              \
          "strd r2, r3, [sp]\n\t"                                                                              \
          "strd r4, r5, [sp, #8]\n\t"                                                                          \
          "str r6, [sp, #16]\n\t"                                                                              \
          "ldrd r0, r1, [r0]\n\t"                                                                              \
          "ldr r10, [r1, #144]\n\t"                                                                            \
          "cmp r10, #0\n\t"                                                                                    \
          "beq 4f\n" DW_PAIRS_PASS("1", macs, DW_STORE_FULL, advance) "b 5f\n"                                  \
          DW_PAIRS_PASS("4", macs, DW_STORE_CLAMPED, advance)                                                  \
          "5:\n\t"                                                                                             \
          "add sp, sp, #20\n\t"                                                                                \
          "pop {r4-r11, pc}")
#endif

#endif /* MICROAOT_DSP_DEPTHWISE_PAIRS_H */
