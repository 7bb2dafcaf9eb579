/* The DSP int8 DEPTHWISE_CONV_2D's rows of vertical window pairs at stride 1
 * (microaot/internal/dsp_depthwise_pairs.h): one copy, linked by the ring's and the patch's rows. A naked
 * function needs no registers from the compiler: defined at every level where the cpu has DSP instructions
 * (callers take it where MICROAOT_DSP_ASM). */
#define MICROAOT_DSP_PAIRS_TEXT
#include "microaot/internal/dsp_depthwise_pairs.h"

#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
__attribute__((naked)) void microaot_dsp_pair_row_s1(const microaot_dsp_pairs_job* job __attribute__((unused))) {
  DW_PAIRS_LOOP(DW_MACS_S1, "ldr r11, [sp, #16]\n\tadd r0, r0, r11\n\t");
}
#else
typedef int microaot_dsp_pairs_none; /* no DSP instructions: nothing here (a translation unit is not empty) */
#endif
