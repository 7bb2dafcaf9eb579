/* int8 DEPTHWISE_CONV_2D with the DSP extension for a depth multiplier of 2 or more (output channel oc reads
 * input channel oc / multiplier), bit-exact with the portable kernel: the layers the full DSP kernel leaves to the
 * portable code (multipliers 2, 3, 5, ...). The compiler picks this stem for them (compiler/ops/depthwise_conv_2d.cpp);
 * any other layer (a graph blob is untrusted, a user may call it) is refused with a status before a byte of the
 * output is written (microaot_fit_depthwise_multiplier and the DSP bounds, microaot/fit/depthwise_conv_2d.h).
 * Four output channels at a time, as the full kernel's groups: they read at most two neighbouring input channels,
 * a and a + 1, so each tap's four input bytes come from two byte loads and two multiplies by the group's byte
 * masks, then SXTAB16 adds the input offset and SMLABB/SMLATT add the four products. Any filter, stride, dilation
 * and padding: each window's in-image taps, as the reference. The sums doubled for the group's output step (one
 * SMMLAR per value, microaot/dsp_depthwise.h); the last depth % 4 channels by a group ending at the last channel
 * (a few channels computed twice, the same bytes stored twice). */
/* microaot-links: kernels/dsp/depthwise_conv_2d_s8_setup.c */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "microaot/dsp_depthwise.h"
#include "microaot/kernels/conv.h"
#include "microaot/window.h"

/* The input bytes of the group of output channels [c, c + 4): its first input channel a, the byte masks of a and
 * of a + 1 in a tap's word (0x01 in each byte that reads it) and where a + 1 lies from a (0 when no channel of the
 * group reads it: then no byte past a is read). */
typedef struct {
  int32_t channel;
  uint32_t mask_a, mask_b;
  size_t next;
} dwm_inputs;

static dwm_inputs dwm_inputs_of(int32_t c, int32_t multiplier) {
  dwm_inputs r;
  int32_t k;
  r.channel = c / multiplier;
  r.mask_a = r.mask_b = 0;
  for (k = 0; k < 4; ++k) {
    if ((c + k) / multiplier == r.channel) {
      r.mask_a |= 1u << (8 * k);
    } else {
      r.mask_b |= 1u << (8 * k);
    }
  }
  r.next = r.mask_b != 0 ? 1 : 0;
  return r;
}

/* The group's four sums over the in-image taps of window (y, x): `image` starts at input channel a, `filter` at
 * the group's first output channel. Not inlined: the sums stay in registers. */
static __attribute__((noinline)) void dwm_taps(const dw_params* p, const int8_t* image, const int8_t* filter,
                                               const dwm_inputs* group, const microaot_window* y,
                                               const microaot_window* x, int32_t sums[4]) {
  const size_t depth = (size_t)p->output_depth, in_depth = (size_t)p->input_depth, next = group->next;
  const size_t in_step = (size_t)p->dilation_width * in_depth, w_row_step = (size_t)p->filter_width * depth;
  const size_t in_row_step = (size_t)p->dilation_height * (size_t)p->input_width * in_depth;
  const uint32_t offset = microaot_dsp_pack16(p->input_offset, p->input_offset);
  const uint32_t mask_a = group->mask_a, mask_b = group->mask_b;
  const int32_t n = x->end - x->begin;
  const int8_t *in_row, *w_row;
  int32_t fy, t, s[4] = {0, 0, 0, 0};
  if (n <= 0 || y->end <= y->begin) return; /* no tap inside: the pointers below would leave the arrays */
  in_row = image + ((size_t)(y->origin + y->begin * p->dilation_height) * (size_t)p->input_width +
                    (size_t)(x->origin + x->begin * p->dilation_width)) * in_depth;
  w_row = filter + ((size_t)y->begin * (size_t)p->filter_width + (size_t)x->begin) * depth;
  for (fy = y->begin; fy < y->end; ++fy, in_row += in_row_step, w_row += w_row_step) {
    const int8_t* in = in_row;
    const int8_t* w = w_row;
    for (t = 0; t < n; ++t, in += in_step, w += depth) {
      /* disjoint bytes: the sum carries nothing from one byte into the next */
      const uint32_t bytes = mask_a * (uint8_t)in[0] + mask_b * (uint8_t)in[next];
      const uint32_t weights = microaot_dsp_load4(w);
      microaot_dsp_mac4_lanes(bytes, microaot_dsp_sxtb16(weights), microaot_dsp_sxtb16_ror8(weights), offset, s);
    }
  }
  sums[0] += s[0];
  sums[1] += s[1];
  sums[2] += s[2];
  sums[3] += s[3];
}

/* One output row of the group: `image` at input channel a, `filter` and `out` at the group's first channel. */
static void dwm_group_row(const dw_params* p, const dw_group* g, const dwm_inputs* in, const int8_t* image,
                          const int8_t* filter, const microaot_window* y, int8_t* out) {
  const size_t depth = (size_t)p->output_depth;
  int32_t ox, k, s[4];
  for (ox = 0; ox < p->output_width; ++ox) {
    const microaot_window x = microaot_window_of(ox, p->stride_width, p->pad_width, p->filter_width,
                                                 p->dilation_width, p->input_width);
    memset(s, 0, sizeof s);
    dwm_taps(p, image, filter, in, y, &x, s);
    for (k = 0; k < 4; ++k) s[k] = 2 * s[k] + g->bias_weights[k];
    if (g->full_range) {
      microaot_dsp_step_store8x4(g->step, s, out + (size_t)ox * depth);
    } else {
      dw_store4(g, s, out + (size_t)ox * depth);
    }
  }
}

/* Output rows [row_begin, row_end) (counted over all batches) into `output` (row i at output + i * row_stride),
 * group by group, each group's constants once. */
static void dwm_rows(const dw_params* p, const int8_t* input, const int8_t* filter, const dw_channels* ch,
                     int8_t* output, size_t row_stride, int32_t row_begin, int32_t row_end) {
  const size_t image_size = (size_t)p->input_height * (size_t)p->input_width * (size_t)p->input_depth;
  int32_t c, row;
  dw_group g;
  for (c = 0; c < p->output_depth; c += 4) {
    const int32_t first = c + 4 <= p->output_depth ? c : p->output_depth - 4; /* the last group ends at the end */
    const dwm_inputs in = dwm_inputs_of(first, p->depth_multiplier);
    microaot_dsp_depthwise_group_of(p, filter, ch, first, &g);
    for (row = row_begin; row < row_end; ++row) {
      const int32_t oy = row % p->output_height;
      const microaot_window y = microaot_window_of(oy, p->stride_height, p->pad_height, p->filter_height,
                                                   p->dilation_height, p->input_height);
      const int8_t* image = input + (size_t)(row / p->output_height) * image_size + in.channel;
      dwm_group_row(p, &g, &in, image, filter + first, &y, output + (size_t)(row - row_begin) * row_stride + first);
    }
  }
}

/* All rows at once into `output`, or (`scratch`: output and input may share bytes) row by row through the scratch
 * row, as the portable overlap variant. */
static microaot_status dwm_run(const dw_params* p, const int8_t* input, const int8_t* filter, const int32_t* bias,
                               int8_t* output, int8_t* scratch) {
  const size_t row_size = (size_t)p->output_width * (size_t)p->output_depth;
  const int32_t rows = p->batches * p->output_height;
  const dw_channels ch = dw_channels_of(p, bias);
  int32_t row;
  if (!microaot_fit_depthwise_multiplier(p) || !microaot_fit_depthwise_dsp_requantization(p, &ch)) {
    return MICROAOT_STATUS_VALUE_OUT_OF_RANGE;
  }
  if (scratch == NULL) {
    dwm_rows(p, input, filter, &ch, output, row_size, 0, rows);
    return MICROAOT_STATUS_OK;
  }
  for (row = 0; row < rows; ++row) {
    dwm_rows(p, input, filter, &ch, scratch, row_size, row, row + 1);
    memcpy(output + (size_t)row * row_size, scratch, row_size);
  }
  return MICROAOT_STATUS_OK;
}

microaot_status microaot_depthwise_conv_2d_s8_multiplier(const microaot_depthwise_conv_2d_params_q* params,
                                                         const int8_t* input, const int8_t* filter,
                                                         const int32_t* bias, int8_t* output) {
  return dwm_run(params, input, filter, bias, output, NULL);
}

microaot_status microaot_depthwise_conv_2d_s8_multiplier_overlap(const microaot_depthwise_conv_2d_params_q* params,
                                                                 const int8_t* input, const int8_t* filter,
                                                                 const int32_t* bias, int8_t* output,
                                                                 void* scratch) {
  if (scratch == NULL) return MICROAOT_STATUS_NULL_POINTER;
  return dwm_run(params, input, filter, bias, output, (int8_t*)scratch);
}
