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

/* Both 16-bit lanes times 2 (no lane overflows). */
static inline uint32_t dw_double_lanes(uint32_t lanes) { return microaot_dsp_sadd16(lanes, lanes); }

__attribute__((noinline)) void microaot_dsp_depthwise_group_at(const dw_params* p, const int8_t* taps,
                                                              size_t tap_stride, const dw_channels* ch, int32_t c,
                                                              dw_group* g) {
  int32_t k;
  for (k = 0; k < 4; ++k) {
    const int32_t e = -ch->shift[c + k];
    g->bias_weights[k] = ch->bias != NULL ? 2 * ch->bias[c + k] : 0;
    g->output_step[k][0] = ch->multiplier[c + k];
    g->output_step[k][2] = e;
    /* |.| < 2^30: microaot_dsp_depthwise_fits */
    g->output_step[k][1] = (2 * p->output_offset + 1) * ((int32_t)1 << (e - 1));
  }
  g->activation_min4 = 0x01010101u * (uint8_t)p->activation_min;
  g->activation_max4 = 0x01010101u * (uint8_t)p->activation_max;
  g->full_range = p->activation_min == -128 && p->activation_max == 127;
  if (p->filter_height == 3 && p->filter_width == 3) {
    for (k = 0; k < 9; ++k) {
      const uint32_t w = microaot_dsp_load4(taps + (size_t)k * tap_stride);
      g->bias_weights[4 + 2 * k] = (int32_t)dw_double_lanes(microaot_dsp_sxtb16(w));
      g->bias_weights[5 + 2 * k] = (int32_t)dw_double_lanes(microaot_dsp_sxtb16_ror8(w));
    }
  }
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
