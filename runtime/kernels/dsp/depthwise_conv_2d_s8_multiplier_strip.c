/* int8 DEPTHWISE_CONV_2D with the DSP extension for a depth multiplier of 2 or more (output channel oc reads input
 * channel oc / multiplier) through the strip (microaot/internal/templates/dsp_depthwise_strip.h), bit-exact with the
 * portable kernel: four output channels at a time, as depthwise_conv_2d_s8_multiplier's groups, each strip pixel's
 * word the group's input bytes (channel a in its first `split` lanes, a + 1 in the others), then the depth-multiplier-1
 * strip's loop (microaot_dsp_mac4x2_strip: two windows a pass, every window all its taps over the zero-point
 * padding). Any filter, stride, dilation and padding within the strip's stack; the last depth % 4 channels by a
 * group ending at the last channel. The compiler picks this stem for the layers
 * microaot_fit_depthwise_multiplier_strip_tile takes (compiler/ops/depthwise_conv_2d.cpp); any other layer is
 * refused with a status before a byte of the output is written. A kernel of its own, so that the layers it does not
 * take (micro_speech's: a 10x8 filter, a left shift) link neither its code nor its 2 KB of stack. */
/* microaot-links: kernels/dsp/depthwise_conv_2d_s8_setup.c */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "microaot/internal/dsp_depthwise.h"
#include "microaot/internal/templates/dsp_depthwise_strip.h"
#include "microaot/kernels/conv.h"

/* Lane j of a pixel's word is the byte of input channel a (lanes in first_lanes) or a + 1 (the others), `in` at
 * channel a; a + 1 is not read where no lane takes it (it may lie past the input). */
static void dw_strip_pixels(const dw_strip_shape* s, const int8_t* in, size_t depth, int32_t begin, int32_t end,
                            uint32_t* a, uint32_t* b) {
  const uint32_t first = s->first_lanes, second = 0x01010101u ^ first;
  int32_t c;
  if (second == 0) { /* two pixels a pass: the loop's test halved */
    for (c = begin; c + 1 < end; c += 2, in += 2 * depth) {
      a[c] = b[c] = 0x01010101u * (uint8_t)in[0];
      a[c + 1] = b[c + 1] = 0x01010101u * (uint8_t)in[depth];
    }
    if (c < end) a[c] = b[c] = 0x01010101u * (uint8_t)in[0];
  } else {
    for (c = begin; c < end; ++c, in += depth) a[c] = b[c] = first * (uint8_t)in[0] + second * (uint8_t)in[1];
  }
}

/* Output rows [row_begin, row_end) (counted over all batches) into `output` (row i at output + i * row_stride),
 * group by group through the strip, in tiles of `tile` output columns; two whole groups reading one input channel
 * (a multiplier of 8k) over one strip where both tables fit beside it, so that its words are made once. */
static void dwms_rows(const dw_params* p, const int8_t* input, const int8_t* filter, const dw_channels* ch,
                      int32_t tile, int8_t* output, size_t row_stride, int32_t row_begin, int32_t row_end) {
  int32_t c = 0;
  dw_group g[2];
  while (c < p->output_depth) {
    const int32_t first = c + 4 <= p->output_depth ? c : p->output_depth - 4; /* the last group ends at the end */
    const int32_t channel = first / p->depth_multiplier;
    const int32_t split = (channel + 1) * p->depth_multiplier - first; /* lanes reading `channel` */
    dw_strip_shape s = dw_strip_shape_of(p, tile);
    s.first_lanes = split >= 4 ? 0x01010101u : 0x01010101u >> (8 * (4 - split));
    if (split >= 8 && c + 8 <= p->output_depth &&
        2 * s.table + 2 * s.slots * s.cols + p->stride_width <= MICROAOT_DEPTHWISE_STRIP_WORDS) {
      s.groups = 2;
      microaot_dsp_depthwise_group_of(p, filter, ch, first + 4, &g[1]);
    }
    microaot_dsp_depthwise_group_of(p, filter, ch, first, &g[0]);
    dw_group_rows_strip(p, g, &s, input + channel, filter + first, output + first, row_stride, row_begin, row_end,
                        NULL);
    c += 4 * s.groups;
  }
}

/* All rows at once into `output`, or (`scratch`: output and input may share bytes) row by row through the scratch
 * row, as the portable overlap variant. */
static microaot_status dwms_run(const dw_params* p, const int8_t* input, const int8_t* filter, const int32_t* bias,
                                int8_t* output, int8_t* scratch) {
  const size_t row_size = (size_t)p->output_width * (size_t)p->output_depth;
  const int32_t rows = p->batches * p->output_height;
  const dw_channels ch = dw_channels_of(p, bias);
  const int32_t tile = microaot_fit_depthwise_multiplier_strip_tile(p, &ch);
  int32_t row;
  if (tile == 0) return MICROAOT_STATUS_VALUE_OUT_OF_RANGE;
  if (scratch == NULL) {
    dwms_rows(p, input, filter, &ch, tile, output, row_size, 0, rows);
    return MICROAOT_STATUS_OK;
  }
  for (row = 0; row < rows; ++row) {
    dwms_rows(p, input, filter, &ch, tile, scratch, row_size, row, row + 1);
    memcpy(output + (size_t)row * row_size, scratch, row_size);
  }
  return MICROAOT_STATUS_OK;
}

microaot_status microaot_depthwise_conv_2d_s8_multiplier_strip(const microaot_depthwise_conv_2d_params_q* params,
                                                               const int8_t* input, const int8_t* filter,
                                                               const int32_t* bias, int8_t* output) {
  return dwms_run(params, input, filter, bias, output, NULL);
}

microaot_status microaot_depthwise_conv_2d_s8_multiplier_strip_overlap(
    const microaot_depthwise_conv_2d_params_q* params, const int8_t* input, const int8_t* filter, const int32_t* bias,
    int8_t* output, void* scratch) {
  if (scratch == NULL) return MICROAOT_STATUS_NULL_POINTER;
  return dwms_run(params, input, filter, bias, output, (int8_t*)scratch);
}
