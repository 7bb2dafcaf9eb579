/* microaot_packed_pairs3 in assembly (included by templates/packed_pairs3.h where MICROAOT_PACKED_ASM): three
 * interleaved rows against each unit pair, per group 16 instructions for 24 MACs over int16 weights (the 2x2
 * block's 11 for 16), 18 in the raw form (13 for 16), 20 over int8 words (15 for 16), then the pair's six output
 * steps and stores, or (the sums mode) the six sums loaded before and stored after. A naked function: the six sums
 * (r2-r7), four weight words (r8-r11) and a row's two words (r12, lr) take every register but the two pointers (r0
 * the pair's words, r1 the rows); the pair's end and the job (microaot_packed3_job: weights 0, out 4, row_bytes 8,
 * rows 12, pair_bytes 16, from 20, end 24) wait on the stack. */
#if MICROAOT_PACKED_WIDE_WEIGHTS
/* Unit 0's words (0, 2), (1, 3) in r8, r9, unit 1's in r10, r11: one LDM. */
#define PACKED3_WEIGHTS "ldmia r0!, {r8-r11}\n\t"
#define PACKED3_EVEN0 "r8"
#define PACKED3_ODD0 "r9"
#define PACKED3_EVEN1 "r10"
#define PACKED3_ODD1 "r11"
#define PACKED3_SHIFT "#27" /* 16 bytes of weights a group */
#define PACKED3_DOUBLED(x) "lsl r11, " x ", #1\n\t"
#else
#if MICROAOT_PACKED_RAW_WEIGHTS
/* The raw words in r8 (unit 0), r9 (unit 1) against the rows' odd words, their SXTB16 in r10, r11. */
#define PACKED3_WEIGHTS "ldrd r8, r9, [r0], #8\n\t" "sxtb16 r10, r8\n\t" "sxtb16 r11, r9\n\t"
#else
/* Elements (0, 2) in r10 (unit 0), r11 (unit 1), (1, 3) in r8, r9. */
#define PACKED3_WEIGHTS                                                                          \
  "ldrd r8, r9, [r0], #8\n\t" "sxtb16 r10, r8\n\t" "sxtb16 r8, r8, ror #8\n\t" "sxtb16 r11, r9\n\t" \
  "sxtb16 r9, r9, ror #8\n\t"
#endif
#define PACKED3_EVEN0 "r10"
#define PACKED3_ODD0 "r8"
#define PACKED3_EVEN1 "r11"
#define PACKED3_ODD1 "r9"
#define PACKED3_SHIFT "#28" /* 8 bytes of weights a group */
#if MICROAOT_PACKED_RAW_WEIGHTS
#define PACKED3_DOUBLED(x) "asr r11, " x ", #7\n\t" /* the raw form's sums are 256 times the others */
#else
#define PACKED3_DOUBLED(x) "lsl r11, " x ", #1\n\t"
#endif
#endif

/* One row's two words against both units, into sums sa (unit 0) and sb (unit 1). */
#define PACKED3_ROW(sa, sb)                                  \
  "ldrd r12, lr, [r1], #8\n\t"                               \
  "smlad " sa ", r12, " PACKED3_EVEN0 ", " sa "\n\t"         \
  "smlad " sa ", lr, " PACKED3_ODD0 ", " sa "\n\t"           \
  "smlad " sb ", r12, " PACKED3_EVEN1 ", " sb "\n\t"         \
  "smlad " sb ", lr, " PACKED3_ODD1 ", " sb "\n\t"
#define PACKED3_GROUP PACKED3_WEIGHTS PACKED3_ROW("r2", "r3") PACKED3_ROW("r4", "r5") PACKED3_ROW("r6", "r7")

/* Sum x's output step (microaot_packed_requantized, then SSAT) with the multiplier in r8, rounding in r9, shift
 * in r10. */
#define PACKED3_STEP(x)                        \
  PACKED3_DOUBLED(x)                           \
  "smmlar " x ", r11, r8, r9\n\t"              \
  "sub " x ", " x ", r11, lsr #31\n\t"         \
  "asr " x ", " x ", r10\n\t"                  \
  "ssat " x ", #8, " x "\n\t"

/* Per pair: the sums from the step's biases (the sums mode: from the sums); four groups a pass, a count that is
 * not a multiple of four entering at the group that leaves one (labels 2, 3, 4 for 3, 2, 1 left over), read from
 * bits 3 and 4 (int16 weights: 4 and 5) of the pair's weight bytes; the output steps and the stores (the sums
 * mode: the sums stored). One group loop for both modes: the sums mode's pair ends one byte early, so that the
 * loop leaves it past its end (flag Z clear) and the step mode's at it (Z set): one branch on Z after the loop
 * picks the pair's tail, with no load or compare of the mode per pair. */
__attribute__((naked, noinline)) static void microaot_packed_pairs3(
    microaot_packed3_job* job __attribute__((unused))) {
  __asm__("push {r4-r11, lr}\n\t"
          "sub sp, sp, #12\n\t" /* 48 bytes with the pushed registers: sp stays 8-aligned */
          "str r0, [sp, #4]\n\t"
          "mov lr, r0\n\t"
          "ldrd r0, r2, [lr]\n\t" /* the weights, out (NULL: the sums mode) */
          "cbnz r2, 6f\n"
          /* the sums mode's pair: its sums loaded, its end less one */
          "8:\n\t"
          "ldrd r1, r8, [lr, #12]\n\t"
          "add r12, r0, r8\n\t"
          "sub r12, r12, #1\n\t"
          "str r12, [sp]\n\t"
          "ldr r12, [lr, #20]\n\t"
          "ldm r12, {r2-r7}\n\t"
          "b 9f\n"
          /* the step mode's pair (lr: the job): the sums from the biases, the step's table advanced */
          "6:\n\t"
          "ldrd r1, r8, [lr, #12]\n\t"
          "add r12, r0, r8\n\t"
          "str r12, [sp]\n\t"
          "ldr r12, [lr, #20]\n\t"
          "ldrd r2, r3, [r12], #32\n\t"
          "str r12, [lr, #20]\n\t"
          "mov r4, r2\n\t"
          "mov r5, r3\n\t"
          "mov r6, r2\n\t"
          "mov r7, r3\n"
          "9:\n\t"
          "lsls r8, r8, " PACKED3_SHIFT "\n\t"
          "bcs 5f\n\t"
          "bmi 4f\n\t"
          "b 1f\n"
          "5:\n\t"
          "bmi 2f\n\t"
          "b 3f\n"
          "1:\n\t" PACKED3_GROUP "2:\n\t" PACKED3_GROUP "3:\n\t" PACKED3_GROUP "4:\n\t" PACKED3_GROUP
          "ldr r12, [sp]\n\t"
          "cmp r0, r12\n\t"
          "bcc 1b\n\t"
          "ldr lr, [sp, #4]\n\t"
          "bne 7f\n\t" /* past the end: the sums mode */
          "ldr r12, [lr, #20]\n\t" /* the pair's table ends at r12 */
          "ldr r8, [r12, #-24]\n\t"
          "ldr r9, [r12, #-16]\n\t"
          "ldr r10, [r12, #-8]\n\t" PACKED3_STEP("r2") PACKED3_STEP("r4") PACKED3_STEP("r6")
          "ldr r8, [r12, #-20]\n\t"
          "ldr r9, [r12, #-12]\n\t"
          "ldr r10, [r12, #-4]\n\t" PACKED3_STEP("r3") PACKED3_STEP("r5") PACKED3_STEP("r7")
          "ldrd r12, r11, [lr, #4]\n\t"
          "strb r2, [r12]\n\t"
          "strb r4, [r12, r11]\n\t"
          "strb r6, [r12, r11, lsl #1]\n\t"
          "add r12, r12, #1\n\t"
          "strb r3, [r12]\n\t"
          "strb r5, [r12, r11]\n\t"
          "strb r7, [r12, r11, lsl #1]\n\t"
          "add r12, r12, #1\n\t"
          "str r12, [lr, #4]\n\t"
          "ldr r8, [lr, #24]\n\t"
          "cmp r12, r8\n\t"
          "bne 6b\n\t"
          "add sp, sp, #12\n\t"
          "pop {r4-r11, pc}\n"
          /* the sums mode's tail: the six sums stored in their order (row 0's two units, row 1's, row 2's) */
          "7:\n\t"
          "ldrd r12, r8, [lr, #20]\n\t"
          "stm r12!, {r2-r7}\n\t"
          "str r12, [lr, #20]\n\t"
          "cmp r12, r8\n\t"
          "bne 8b\n\t"
          "add sp, sp, #12\n\t"
          "pop {r4-r11, pc}");
}

#undef PACKED3_WEIGHTS
#undef PACKED3_EVEN0
#undef PACKED3_ODD0
#undef PACKED3_EVEN1
#undef PACKED3_ODD1
#undef PACKED3_SHIFT
#undef PACKED3_ROW
#undef PACKED3_GROUP
#undef PACKED3_DOUBLED
#undef PACKED3_STEP
