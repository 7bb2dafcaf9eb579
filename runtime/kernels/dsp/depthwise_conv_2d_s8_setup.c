/* The DSP int8 DEPTHWISE_CONV_2D's set-up (microaot/internal/dsp_depthwise.h), for both DSP depthwise kernels: the fast
 * path's bounds test, a channel group's constants and the ring's loop over groups and tiles. Each runs once per
 * call, per group of four channels or per tile, never per output element: built for size. */
/* microaot-work: per call */
/* microaot-links: kernels/dsp/depthwise_conv_2d_s8_ring_rows.c */
#include <stddef.h>
#include <stdint.h>

#include "microaot/internal/dsp_depthwise.h"

/* The rule is microaot/fit/depthwise_conv_2d.h's, which the compiler's chooser calls too. */
int microaot_dsp_depthwise_fits(const dw_params* p, const dw_channels* ch) {
  return microaot_fit_depthwise_dsp(p, ch);
}

/* A 3x3 filter's nine taps (tap k's four weights at taps + k * tap_stride) widened to 16-bit lanes (0, 2 then
 * 1, 3) and doubled into w[2k], w[2k + 1]. Where MICROAOT_DSP_ASM one statement, six instructions a tap (LDR, two
 * SXTB16, two SADD16, STRD): this file is built for size, and GCC's loop spent eleven. On small maps (VWW's
 * 3x3 and 6x6, 9 or 36 outputs a group) a group's constants are a tenth of its work where they are not
 * computed at compile time (--optimize balanced). */
static inline void dw_widen_weights_3x3(const int8_t* taps, size_t tap_stride, int32_t w[18]) {
#if MICROAOT_DSP_ASM
  uint32_t x, x02;
  const size_t row = 3 * tap_stride;
  __asm__ volatile( /* its outputs are scratch: the stores are its effect */
#define DW_WEIGHTS(load, at)                     \
  load "\n\t"                                    \
  "sxtb16 %[x02], %[x]\n\t"                     \
  "sxtb16 %[x], %[x], ror #8\n\t"               \
  "sadd16 %[x02], %[x02], %[x02]\n\t"           \
  "sadd16 %[x], %[x], %[x]\n\t"                 \
  "strd %[x02], %[x], [%[w], #" at "]\n\t"
#define DW_WEIGHTS_ROW(at0, at1, at2)                          \
  DW_WEIGHTS("ldr %[x], [%[t]]", at0)                          \
  DW_WEIGHTS("ldr %[x], [%[t], %[stride]]", at1)               \
  DW_WEIGHTS("ldr %[x], [%[t], %[stride], lsl #1]", at2)
      DW_WEIGHTS_ROW("0", "8", "16") "add %[t], %[t], %[row]\n\t"
      DW_WEIGHTS_ROW("24", "32", "40") "add %[t], %[t], %[row]\n\t"
      DW_WEIGHTS_ROW("48", "56", "64")
#undef DW_WEIGHTS_ROW
#undef DW_WEIGHTS
      : [x] "=&r"(x), [x02] "=&r"(x02), [t] "+&r"(taps)
      : [stride] "r"(tap_stride), [row] "r"(row), [w] "r"(w)
      : "memory");
#else
  int32_t k;
  for (k = 0; k < 9; ++k) {
    const uint32_t x = microaot_dsp_load4(taps + (size_t)k * tap_stride);
    w[2 * k] = (int32_t)microaot_dsp_sadd16(microaot_dsp_sxtb16(x), microaot_dsp_sxtb16(x));
    w[2 * k + 1] = (int32_t)microaot_dsp_sadd16(microaot_dsp_sxtb16_ror8(x), microaot_dsp_sxtb16_ror8(x));
  }
#endif
}

/* Channel c + k's output step and doubled bias. */
static inline __attribute__((always_inline)) void dw_channel_at(const dw_channels* ch, int32_t factor, int32_t c,
                                                                int32_t k, dw_group* g) {
  const int32_t e = -ch->shift[c + k];
  g->output_step[k][0] = ch->multiplier[c + k];
  g->output_step[k][1] = factor * ((int32_t)1 << (e - 1)); /* |.| < 2^30: microaot_dsp_depthwise_fits */
  g->output_step[k][2] = e;
  g->bias_weights[k] = ch->bias != NULL ? 2 * ch->bias[c + k] : 0;
}

__attribute__((noinline)) void microaot_dsp_depthwise_group_at(const dw_params* p, const int8_t* taps,
                                                              size_t tap_stride, const dw_channels* ch, int32_t c,
                                                              dw_group* g) {
  const int32_t factor = 2 * p->output_offset + 1;
  /* the four unrolled: a loop's index and test cost a third of each (per group, where small maps call it) */
  dw_channel_at(ch, factor, c, 0, g);
  dw_channel_at(ch, factor, c, 1, g);
  dw_channel_at(ch, factor, c, 2, g);
  dw_channel_at(ch, factor, c, 3, g);
  g->activation_min4 = 0x01010101u * (uint8_t)p->activation_min;
  g->activation_max4 = 0x01010101u * (uint8_t)p->activation_max;
  g->full_range = p->activation_min == -128 && p->activation_max == 127;
  if (p->filter_height == 3 && p->filter_width == 3) dw_widen_weights_3x3(taps, tap_stride, g->bias_weights + 4);
}

void microaot_dsp_depthwise_group_ringed(const dw_params* p, const dw_group* g, const int8_t* input, int8_t* output,
                                         size_t row_stride, int32_t row_begin, int32_t row_end, dw_ring* ring) {
  const int32_t width = MICROAOT_DEPTHWISE_RING_TILE_WIDTH;
  int32_t ox;
  for (ox = 0; ox < p->output_width; ox += width) {
    const int32_t end = ox + width < p->output_width ? ox + width : p->output_width;
    microaot_dsp_depthwise_tile_ringed(p, g, input, output, row_stride, row_begin, row_end, ox, end, ring);
  }
}

/* Group by group, each tile by tile: one ring for all (the padding columns zeroed once). */
static inline __attribute__((always_inline)) void dw_rows_ringed_from(const dw_params* p, const int8_t* input,
                                                                      const int8_t* filter, const dw_channels* ch,
                                                                      const dw_group* pre, int8_t* output,
                                                                      size_t row_stride, int32_t row_begin,
                                                                      int32_t row_end, int32_t groups_end) {
  int32_t c;
  dw_group own;
  dw_ring ring;
  ring.cols = 0; /* no tile yet */
  for (c = 0; c < groups_end; c += 4) {
    microaot_dsp_depthwise_group_ringed(p, dw_group_get(pre, p, filter, ch, c, &own), input + c, output + c,
                                        row_stride, row_begin, row_end, &ring);
  }
}

__attribute__((noinline)) void microaot_dsp_depthwise_rows_ringed(const dw_params* p, const int8_t* input,
                                                                  const int8_t* filter, const dw_channels* ch,
                                                                  int8_t* output, size_t row_stride,
                                                                  int32_t row_begin, int32_t row_end,
                                                                  int32_t groups_end) {
  dw_rows_ringed_from(p, input, filter, ch, NULL, output, row_stride, row_begin, row_end, groups_end);
}

__attribute__((noinline)) void microaot_dsp_depthwise_rows_ringed_pre(const dw_params* p, const int8_t* input,
                                                                      const dw_group* groups, int8_t* output,
                                                                      size_t row_stride, int32_t row_begin,
                                                                      int32_t row_end, int32_t groups_end) {
  dw_rows_ringed_from(p, input, NULL, NULL, groups, output, row_stride, row_begin, row_end, groups_end);
}
