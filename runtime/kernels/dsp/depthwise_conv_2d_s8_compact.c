/* The DSP int8 DEPTHWISE_CONV_2D's groups from their compact words (microaot/internal/depthwise_group_words.h),
 * for depthwise_conv_2d_s8_w8 and _ring_w8 alone: a group's dw_group per group and call, and the ring's loop over
 * groups from them. Each runs once per call or group, never per output element: built for size. */
/* microaot-work: per call */
/* microaot-links: kernels/dsp/depthwise_conv_2d_s8_ring_rows.c */
#include <stddef.h>
#include <stdint.h>

#include "microaot/internal/dsp_depthwise.h"

/* The clamp of every group of the call, set once in the group the loops reuse (`own`). */
void microaot_dsp_depthwise_group_clamp(const dw_params* p, dw_group* g) {
  g->activation_min4 = 0x01010101u * (uint8_t)p->activation_min;
  g->activation_max4 = 0x01010101u * (uint8_t)p->activation_max;
  g->full_range = p->activation_min == -128 && p->activation_max == 127;
}

/* The compact words' group but its clamp: the bias and multipliers copied, each rounding term from its exponent, the
 * taps widened and doubled as microaot_dsp_depthwise_group_at widens a filter's. Where MICROAOT_DSP_ASM one
 * statement in registers fixed for LDM and STM (each STM's registers ascend as its words): the bias in two, two
 * channels' steps from an LDM of their multipliers and exponents into one STM, three taps from an LDM into one
 * STM: 56 instructions, about 70 with the call, where microaot_dsp_depthwise_group_at takes about 145 from the
 * filter and the kernel's bounds test about 90 more. */
__attribute__((noinline)) void microaot_dsp_depthwise_group_compact(const dw_params* p, const int32_t* words,
                                                                   int32_t c, dw_group* g) {
  const int32_t factor = 2 * p->output_offset + 1;
  const int32_t* w = words + (size_t)((uint32_t)c / 4u) * MICROAOT_DW_COMPACT_WORDS;
#if MICROAOT_DSP_ASM
  register uint32_t r4 __asm__("r4"), r5 __asm__("r5"), r6 __asm__("r6");
  register uint32_t r8 __asm__("r8"), r9 __asm__("r9"), r10 __asm__("r10");
  const int32_t* from = w;
  int32_t* to = g->bias_weights;
  int32_t* steps = g->output_step[0];
  __asm__ volatile( /* its outputs are scratch: the stores are its effect */
      "ldm %[from]!, {r4, r5, r6, r8}\n\t" /* the bias */
      "stm %[to]!, {r4, r5, r6, r8}\n\t"
/* channels k and k + 1: multiplier, exponent (r4, r6; r8, r10) to multiplier, rounding, exponent (r4-r6, r8-r10) */
#define DW_STEPS                                  \
  "ldm %[from]!, {r4, r6, r8, r10}\n\t"          \
  "lsl r5, %[f], r6\n\t"                         \
  "asr r5, r5, #1\n\t"                           \
  "lsl r9, %[f], r10\n\t"                        \
  "asr r9, r9, #1\n\t"                           \
  "stm %[steps]!, {r4, r5, r6, r8, r9, r10}\n\t"
      DW_STEPS DW_STEPS
#undef DW_STEPS
/* taps k to k + 2 (r5, r8, r10): lanes 0, 2 doubled in r4, r6, r9 and 1, 3 in place, stored as w[2k] to w[2k + 5] */
#define DW_TAP(x, t)                   \
  "sxtb16 " t ", " x "\n\t"           \
  "sxtb16 " x ", " x ", ror #8\n\t"   \
  "sadd16 " t ", " t ", " t "\n\t"    \
  "sadd16 " x ", " x ", " x "\n\t"
#define DW_TAPS3 \
  "ldm %[from]!, {r5, r8, r10}\n\t" DW_TAP("r5", "r4") DW_TAP("r8", "r6") DW_TAP("r10", "r9") \
  "stm %[to]!, {r4, r5, r6, r8, r9, r10}\n\t"
      DW_TAPS3 DW_TAPS3 DW_TAPS3
#undef DW_TAPS3
#undef DW_TAP
      : "=&r"(r4), "=&r"(r5), "=&r"(r6), "=&r"(r8), "=&r"(r9), "=&r"(r10), [from] "+&r"(from), [to] "+&r"(to),
        [steps] "+&r"(steps)
      : [f] "r"(factor)
      : "memory");
#else
  int32_t k;
  for (k = 0; k < 4; ++k) {
    const int32_t e = w[MICROAOT_DW_COMPACT_STEP + 2 * k + 1];
    g->bias_weights[k] = w[MICROAOT_DW_COMPACT_BIAS + k];
    g->output_step[k][0] = w[MICROAOT_DW_COMPACT_STEP + 2 * k];
    g->output_step[k][1] = factor * ((int32_t)1 << (e - 1)); /* |.| < 2^30: checked by the compiler */
    g->output_step[k][2] = e;
  }
  for (k = 0; k < 9; ++k) {
    const uint32_t x = (uint32_t)w[MICROAOT_DW_COMPACT_TAPS + k];
    g->bias_weights[4 + 2 * k] = (int32_t)microaot_dsp_sadd16(microaot_dsp_sxtb16(x), microaot_dsp_sxtb16(x));
    g->bias_weights[5 + 2 * k] = (int32_t)microaot_dsp_sadd16(microaot_dsp_sxtb16_ror8(x), microaot_dsp_sxtb16_ror8(x));
  }
#endif
}

/* The asm above reads the compact words in their order (bias, steps, taps) and writes a dw_group's bias and
 * widened taps as one run of words, each channel's step as three. */
typedef char dw_group_compact_layout[offsetof(dw_group, output_step) == 4 * (4 + 18) &&
                                             sizeof(((dw_group*)0)->output_step[0]) == 12 &&
                                             MICROAOT_DW_COMPACT_STEP == 4 && MICROAOT_DW_COMPACT_TAPS == 12
                                         ? 1
                                         : -1];

/* As microaot_dsp_depthwise_rows_ringed, group by group, each tile by tile through one ring (the padding columns
 * zeroed once), here with the tiles' loop of microaot_dsp_depthwise_group_ringed written out: that lives in
 * dsp/depthwise_conv_2d_s8_setup.c, which the compact kernels then need not link (its bounds test and filter
 * set-up, 800 bytes that KWS's layers would never run). */
__attribute__((noinline)) void microaot_dsp_depthwise_rows_ringed_compact(const dw_params* p, const int8_t* input,
                                                                          const int32_t* words, int8_t* output,
                                                                          size_t row_stride, int32_t row_begin,
                                                                          int32_t row_end, int32_t groups_end) {
  const int32_t width = MICROAOT_DEPTHWISE_RING_TILE_WIDTH;
  int32_t c, ox;
  dw_group own;
  dw_ring ring;
  ring.cols = 0; /* no tile yet */
  microaot_dsp_depthwise_group_clamp(p, &own);
  for (c = 0; c < groups_end; c += 4) {
    const dw_group* g = dw_group_get_any(1, words, NULL, p, NULL, NULL, c, &own);
    for (ox = 0; ox < p->output_width; ox += width) {
      microaot_dsp_depthwise_tile_ringed(p, g, input + c, output + c, row_stride, row_begin, row_end, ox,
                                         ox + width < p->output_width ? ox + width : p->output_width, &ring);
    }
  }
}
