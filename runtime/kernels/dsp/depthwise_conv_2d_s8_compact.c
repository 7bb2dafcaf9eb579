/* The DSP int8 DEPTHWISE_CONV_2D's groups from their compact words (microaot/internal/depthwise_group_words.h),
 * for depthwise_conv_2d_s8_w8 and _ring_w8 alone: a group's dw_group per group and call, and the ring's loop over
 * groups from them. Each runs once per call or group, never per output element: built for size. */
/* microaot-work: per call */
/* microaot-links: kernels/dsp/depthwise_conv_2d_s8_ring_rows.c */
#include <stddef.h>
#include <stdint.h>

#include "microaot/internal/dsp_depthwise.h"

/* The compact words' group: the bias and multipliers copied, each rounding term from its exponent, the taps widened
 * and doubled as microaot_dsp_depthwise_group_at widens a filter's. Where MICROAOT_DSP_ASM one statement for all
 * but the clamp, two taps a load: about 75 instructions, where microaot_dsp_depthwise_group_at takes about 145
 * from the filter and the kernel's bounds test about 90 more. */
__attribute__((noinline)) void microaot_dsp_depthwise_group_compact(const dw_params* p, const int32_t* words,
                                                                   int32_t c, dw_group* g) {
  const int32_t factor = 2 * p->output_offset + 1;
  const int32_t* w = words + (size_t)((uint32_t)c / 4u) * MICROAOT_DW_COMPACT_WORDS;
#if MICROAOT_DSP_ASM
  uint32_t a, b, t;
  __asm__ volatile( /* its outputs are scratch: the stores are its effect */
      "ldrd %[a], %[b], [%[w]]\n\t"
      "strd %[a], %[b], [%[g]]\n\t"
      "ldrd %[a], %[b], [%[w], #8]\n\t"
      "strd %[a], %[b], [%[g], #8]\n\t"
/* channel k's multiplier and exponent at w + 16 + 8k; its multiplier, rounding term and exponent at g + 88 + 12k */
#define DW_STEP(from, to, to4)                       \
  "ldrd %[a], %[b], [%[w], #" from "]\n\t"          \
  "lsl %[t], %[f], %[b]\n\t"                       \
  "asr %[t], %[t], #1\n\t"                         \
  "str %[a], [%[g], #" to "]\n\t"                  \
  "strd %[t], %[b], [%[g], #" to4 "]\n\t"
      DW_STEP("16", "88", "92") DW_STEP("24", "100", "104") DW_STEP("32", "112", "116") DW_STEP("40", "124", "128")
#undef DW_STEP
/* tap x's four weights (in register x) widened and doubled into g + at (lanes 0, 2) and g + at + 4 (1, 3) */
#define DW_TAP(x, at)                        \
  "sxtb16 %[t], %[" x "]\n\t"               \
  "sxtb16 %[" x "], %[" x "], ror #8\n\t"    \
  "sadd16 %[t], %[t], %[t]\n\t"             \
  "sadd16 %[" x "], %[" x "], %[" x "]\n\t"  \
  "strd %[t], %[" x "], [%[g], #" at "]\n\t"
      "ldrd %[a], %[b], [%[w], #48]\n\t" DW_TAP("a", "16") DW_TAP("b", "24")
      "ldrd %[a], %[b], [%[w], #56]\n\t" DW_TAP("a", "32") DW_TAP("b", "40")
      "ldrd %[a], %[b], [%[w], #64]\n\t" DW_TAP("a", "48") DW_TAP("b", "56")
      "ldrd %[a], %[b], [%[w], #72]\n\t" DW_TAP("a", "64") DW_TAP("b", "72")
      "ldr %[a], [%[w], #80]\n\t" DW_TAP("a", "80")
#undef DW_TAP
      : [a] "=&r"(a), [b] "=&r"(b), [t] "=&r"(t)
      : [w] "r"(w), [g] "r"(g), [f] "r"(factor)
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
  g->activation_min4 = 0x01010101u * (uint8_t)p->activation_min;
  g->activation_max4 = 0x01010101u * (uint8_t)p->activation_max;
  g->full_range = p->activation_min == -128 && p->activation_max == 127;
}

/* The asm above writes a dw_group and reads the compact words at these offsets. */
typedef char dw_group_compact_offsets[offsetof(dw_group, output_step) == 88 && sizeof(dw_group) == 148 &&
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
  for (c = 0; c < groups_end; c += 4) {
    const dw_group* g = dw_group_get_any(1, words, NULL, p, NULL, NULL, c, &own);
    for (ox = 0; ox < p->output_width; ox += width) {
      microaot_dsp_depthwise_tile_ringed(p, g, input + c, output + c, row_stride, row_begin, row_end, ox,
                                         ox + width < p->output_width ? ox + width : p->output_width, &ring);
    }
  }
}
