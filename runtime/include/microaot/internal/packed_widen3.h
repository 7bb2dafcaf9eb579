/* Three int8 rows widened at once into the three-row layout of microaot_packed_rows3 (per group: row 0's two
 * words, row 1's, row 2's): three output pixels' input pixels (1x1), their windows' filter rows read in place
 * (k x k, inside the image) or their three gathered windows, and the packed LSTM's three input steps. The rows
 * start `step` bytes apart. In assembly where the DSP extension is there: three loads, each word's widening
 * (microaot_packed_widen_word) and one STM of the group's six words, 12 instructions per 12 elements (18 in the
 * raw form), where three rows' loops (microaot_packed_widen) take 21 (33). The including source's weight form
 * (MICROAOT_PACKED_WIDE_WEIGHTS or MICROAOT_PACKED_RAW_WEIGHTS) is defined before the include. */
#ifndef MICROAOT_PACKED_WIDEN3_H
#define MICROAOT_PACKED_WIDEN3_H

#include <stddef.h>
#include <stdint.h>

#include "microaot/internal/packed_dot.h"

#if MICROAOT_PACKED_ASM
#if MICROAOT_PACKED_RAW_WEIGHTS
/* r10 = 0xFF81FF81 (lanes - 127), r11 = 0xFF00FF00; e the word in, then the lanes against the weights' SXTB16. */
#define PACKED_WIDEN3_CONSTANTS "mvn r10, #0x007E007E\n\t" "mov r11, #0xFF00FF00\n"
#define PACKED_WIDEN3_WORD(e, o)                                                             \
  "sxtb16 " o ", " e ", ror #8\n\t" "sadd16 " o ", " o ", r10\n\t" "and " e ", r11, " e ", lsl #8\n\t" \
  "ssub16 " e ", " e ", " o "\n\t"
#else
#define PACKED_WIDEN3_CONSTANTS ""
#define PACKED_WIDEN3_WORD(e, o) "sxtb16 " o ", " e ", ror #8\n\t" "sxtb16 " e ", " e "\n\t"
#endif

/* Rows src, src + step and src + 2 * step, `groups` (at least 1) whole words each, into dst. A naked leaf: the
 * six words of a group in r4-r9 for the STM, with the three row pointers, dst and the end. */
__attribute__((naked, noinline, unused)) static void microaot_packed_widen3(
    const int8_t* src __attribute__((unused)), size_t step __attribute__((unused)),
    int32_t groups __attribute__((unused)), uint32_t* dst __attribute__((unused))) {
  __asm__("push {r4-r11, lr}\n\t"
          "add r12, r0, r1\n\t"
          "add lr, r12, r1\n\t"
          "add r2, r0, r2, lsl #2\n\t" PACKED_WIDEN3_CONSTANTS
          "1:\n\t"
          "ldr r4, [r0], #4\n\t"
          "ldr r6, [r12], #4\n\t"
          "ldr r8, [lr], #4\n\t" PACKED_WIDEN3_WORD("r4", "r5") PACKED_WIDEN3_WORD("r6", "r7")
              PACKED_WIDEN3_WORD("r8", "r9")
          "stmia r3!, {r4-r9}\n\t"
          "cmp r0, r2\n\t"
          "bne 1b\n\t"
          "pop {r4-r11, pc}");
}

#undef PACKED_WIDEN3_CONSTANTS
#undef PACKED_WIDEN3_WORD
#else
static inline void microaot_packed_widen3(const int8_t* src, size_t step, int32_t groups, uint32_t* dst) {
  int32_t g, r;
  for (g = 0; g < groups; ++g, src += 4, dst += 6) {
    for (r = 0; r < 3; ++r) microaot_packed_widen_word(microaot_dsp_load4(src + (size_t)r * step), dst + 2 * r);
  }
}
#endif

#endif /* MICROAOT_PACKED_WIDEN3_H */
