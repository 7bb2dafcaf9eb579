/* int8 DEPTHWISE_CONV_2D with the DSP extension, bit-exact with the portable kernel, for depth multiplier 1
 * (input channel c feeds output channel c only) or a multiple of 4 (four output channels read one input
 * channel: micro_speech's layer, multiplier 8). Each output row is done four channels at a time over all its
 * pixels: each tap's four inputs (or one, replicated) and four weights widened to 16-bit lanes with
 * SXTAB16/SXTB16 (the input offset added on the way) and accumulated per channel with SMLABB/SMLATT from the
 * bias on. 3x3 windows without dilation (depth multiplier 1): at stride 1 through the widened ring (each input
 * row widened once, output rows in pairs: see dw_ring in microaot/internal/dsp_depthwise.h, which KWS's layers
 * also reach through a kernel of their own), a map whose padded input fits one ring (any stride) through the
 * patch (dsp/depthwise_conv_2d_s8_patch.c), else a group's rows counted on in one function, a window wholly
 * inside the image unrolled, one at an edge by its in-image taps only, as the reference does, in a function of
 * its own so that its sums stay in registers. Other filters (depth multiplier 1) through the strip (dw_strip_* of
 * microaot/internal/templates/dsp_depthwise_strip.h: every window, edge or not, over a zero-point-padded copy of the group's rows, two a pass), beyond its
 * bounds each window by its in-image taps (dw_group_row_any). The output step is one SMMLAR per value with the
 * group's constants computed once (see dw_group), four values (eight in the ring's pairs) in one asm statement.
 * Other depth multipliers and requantizations outside the fast path's bounds (microaot_dsp_depthwise_fits)
 * take the portable code. */
/* microaot-links: kernels/dsp/depthwise_conv_2d_s8_setup.c */
/* microaot-links: kernels/dsp/depthwise_conv_2d_s8_portable.c */
/* microaot-links: kernels/dsp/depthwise_conv_2d_s8_patch.c */
/* microaot-links: kernels/dsp/depthwise_conv_2d_s8_rows_3x3.c */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "microaot/internal/dsp_dot.h"
#include "microaot/kernels/conv.h"
#include "microaot/internal/window.h"

#include "microaot/internal/dsp_depthwise.h"

static const int32_t* dw_bias(const dw_group* g) { return g->bias_weights; }

static inline void dw_tap4(const int8_t* in, const int8_t* w, uint32_t offset, int32_t s[4]) {
  const uint32_t weights = microaot_dsp_load4(w);
  microaot_dsp_mac4_lanes(microaot_dsp_load4(in), microaot_dsp_sxtb16(weights), microaot_dsp_sxtb16_ror8(weights),
                          offset, s);
}

/* Four channels over the in-image taps of window (y, x): `image` and `filter` start at the group's channel. */
/* Four output channels of one input channel (a depth multiplier that is a multiple of 4) over the in-image
 * taps of window (y, x), added to sums: each tap's input byte (plus offset) in both 16-bit lanes. `image` starts at the
 * input channel, `filter` at the first output channel. Not inlined: the sums stay in registers. */
static __attribute__((noinline)) void dw_taps_replicated(const dw_params* p, const int8_t* image,
                                                         const int8_t* filter, const microaot_window* y,
                                                         const microaot_window* x, int32_t sums[4]) {
  const size_t depth = (size_t)p->output_depth, in_depth = (size_t)p->input_depth;
  const size_t in_step = (size_t)p->dilation_width * in_depth, w_row_step = (size_t)p->filter_width * depth;
  const size_t in_row_step = (size_t)p->dilation_height * (size_t)p->input_width * in_depth;
  const uint32_t offset = microaot_dsp_pack16(p->input_offset, p->input_offset);
  const int32_t n = x->end - x->begin;
  const int8_t *in_row, *w_row;
  int32_t fy, t, s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  if (n <= 0 || y->end <= y->begin) return; /* no tap inside: the pointers below would leave the arrays */
  in_row = image + ((size_t)(y->origin + y->begin * p->dilation_height) * (size_t)p->input_width +
                    (size_t)(x->origin + x->begin * p->dilation_width)) * in_depth;
  w_row = filter + ((size_t)y->begin * (size_t)p->filter_width + (size_t)x->begin) * depth;
  for (fy = y->begin; fy < y->end; ++fy, in_row += in_row_step, w_row += w_row_step) {
    const int8_t* in = in_row;
    const int8_t* w = w_row;
    for (t = 0; t < n; ++t, in += in_step, w += depth) {
      /* the byte in bytes 0 and 2: both lanes of v hold input + offset */
      const uint32_t v = microaot_dsp_sxtab16(offset, 0x00010001u * (uint8_t)*in), weights = microaot_dsp_load4(w);
      const uint32_t w02 = microaot_dsp_sxtb16(weights), w13 = microaot_dsp_sxtb16_ror8(weights);
      s0 = microaot_dsp_smlabb(v, w02, s0);
      s2 = microaot_dsp_smlatt(v, w02, s2);
      s1 = microaot_dsp_smlabb(v, w13, s1);
      s3 = microaot_dsp_smlatt(v, w13, s3);
    }
  }
  sums[0] += s0;
  sums[1] += s1;
  sums[2] += s2;
  sums[3] += s3;
}

/* Four channels over the in-image taps of window (y, x): `image` starts at the group's input channel, `filter`
 * at its first output channel; each channel reads its own input byte (depth multiplier 1), or see
 * dw_taps_replicated. */
static void dw_taps(const dw_params* p, const int8_t* image, const int8_t* filter, const microaot_window* y,
                    const microaot_window* x, int32_t s[4]) {
  const size_t depth = (size_t)p->output_depth, in_depth = (size_t)p->input_depth;
  const uint32_t offset = microaot_dsp_pack16(p->input_offset, p->input_offset);
  int32_t fy, fx;
  if (p->depth_multiplier != 1) {
    dw_taps_replicated(p, image, filter, y, x, s);
    return;
  }
  for (fy = y->begin; fy < y->end; ++fy) {
    const int32_t in_y = y->origin + fy * p->dilation_height;
    const int8_t* in_row = image + (size_t)in_y * (size_t)p->input_width * in_depth;
    const int8_t* w_row = filter + (size_t)fy * (size_t)p->filter_width * depth;
    for (fx = x->begin; fx < x->end; ++fx) {
      dw_tap4(in_row + (size_t)(x->origin + fx * p->dilation_width) * in_depth, w_row + (size_t)fx * depth, offset,
              s);
    }
  }
}

/* Output columns [0, output width) of one row for the group at channel c, each window on its own, by the
 * filter's own weights (filters other than 3x3 or dilated): the sums doubled afterwards. */
static void dw_group_row_any(const dw_params* p, const dw_group* g, const int8_t* image, const int8_t* filter,
                             const microaot_window* y, int8_t* out) {
  const size_t depth = (size_t)p->output_depth;
  int32_t ox, k, s[4];
  for (ox = 0; ox < p->output_width; ++ox) {
    const microaot_window x = microaot_window_of(ox, p->stride_width, p->pad_width, p->filter_width,
                                                 p->dilation_width, p->input_width);
    memset(s, 0, sizeof s);
    dw_taps(p, image, filter, y, &x, s);
    for (k = 0; k < 4; ++k) s[k] = 2 * s[k] + dw_bias(g)[k];
    dw_store4_tested(g, s, out + (size_t)ox * depth);
  }
}

/* The general path's strip (microaot/internal/templates/dsp_depthwise_strip.h) for depth multiplier 1, any filter
 * other than the 3x3 undilated ones: a pixel's four channels are one word. Other layers keep dw_group_row_any. */
#define MICROAOT_DW_STRIP_GROUPS(s) 1
#include "microaot/internal/templates/dsp_depthwise_strip.h"

static inline void dw_strip_pixels(const dw_strip_shape* s, const int8_t* in, size_t depth, int32_t begin,
                                   int32_t end, uint32_t* a, uint32_t* b) {
  int32_t c;
  (void)s;
  for (c = begin; c < end; ++c, in += depth) a[c] = b[c] = microaot_dsp_load4(in);
}

/* Channel c (one of the depth % 4 last) of every pixel of one row, by the general output step. */
static void dw_channel_row(const dw_params* p, const int32_t* bias, const int8_t* image, const int8_t* filter,
                           const microaot_window* y, int32_t c, int8_t* out) {
  const size_t depth = (size_t)p->output_depth;
  const microaot_dsp_output_stage stage = MICROAOT_DSP_OUTPUT_STAGE(p, bias);
  int32_t ox, fy, fx;
  for (ox = 0; ox < p->output_width; ++ox) {
    const microaot_window x =
        microaot_window_of(ox, p->stride_width, p->pad_width, p->filter_width, p->dilation_width, p->input_width);
    int32_t sum = 0;
    for (fy = y->begin; fy < y->end; ++fy) {
      const int32_t in_y = y->origin + fy * p->dilation_height;
      for (fx = x.begin; fx < x.end; ++fx) {
        const int32_t in_x = x.origin + fx * p->dilation_width;
        const int32_t value = image[((size_t)in_y * (size_t)p->input_width + (size_t)in_x) * depth + (size_t)c];
        sum += (value + p->input_offset) * filter[(size_t)(fy * p->filter_width + fx) * depth + (size_t)c];
      }
    }
    out[(size_t)ox * depth + (size_t)c] = microaot_dsp_output(&stage, sum, c);
  }
}

/* dw_rows's channels [c, depth) outside the ring: unrolled 3x3 windows, any other filter, the last depth % 4
 * channels one by one. */
static __attribute__((noinline)) void dw_rows_from(const dw_params* p, const int8_t* input, const int8_t* filter,
                                                   const dw_channels* ch, int8_t* output, size_t row_stride,
                                                   int32_t row_begin, int32_t row_end, int8_t* row_scratch,
                                                   int32_t c) {
  const size_t image_size = (size_t)p->input_height * (size_t)p->input_width * (size_t)p->input_depth;
  int32_t row, k;
  dw_group g;
  for (; c < p->output_depth; c += 4) {
    const int whole = c + 4 <= p->output_depth; /* else the last depth % 4 channels */
    if (whole) microaot_dsp_depthwise_group_of(p, filter, ch, c, &g);
    if (whole && microaot_fit_depthwise_widened(p)) {
      microaot_dsp_depthwise_group_rows_3x3(p, &g, input + c, output + c, row_stride, row_begin, row_end,
                                            row_scratch != NULL ? row_scratch + c : NULL);
      continue;
    }
    if (whole) {
      const dw_strip_shape s = dw_strip_shape_of(p, microaot_fit_depthwise_strip_tile(p, row_scratch != NULL));
      if (s.tile > 0) {
        dw_group_rows_strip(p, &g, &s, input + c, filter + c, output + c, row_stride, row_begin, row_end,
                            row_scratch != NULL ? row_scratch + c : NULL);
        continue;
      }
    } else if (c >= 4 && row_scratch == NULL && !microaot_fit_depthwise_widened(p)) {
      /* The last depth % 4 channels as the group of the last four, whose first ones' bytes it writes again, the
       * same: output apart from input (with a scratch row, in place, the group would read those channels'
       * inputs already overwritten). The 3x3 layers keep their code. */
      const dw_strip_shape s = dw_strip_shape_of(p, microaot_fit_depthwise_strip_tile(p, 0));
      const int32_t last = p->output_depth - 4;
      if (s.tile > 0) {
        microaot_dsp_depthwise_group_of(p, filter, ch, last, &g);
        dw_group_rows_strip(p, &g, &s, input + last, filter + last, output + last, row_stride, row_begin, row_end,
                            NULL);
        continue;
      }
    }
    for (row = row_begin; row < row_end; ++row) {
      const int8_t* image = input + (size_t)(row / p->output_height) * image_size;
      const int32_t oy = row % p->output_height;
      const microaot_window y = microaot_window_of(oy, p->stride_height, p->pad_height, p->filter_height,
                                                   p->dilation_height, p->input_height);
      int8_t* out = output + (size_t)(row - row_begin) * row_stride;
      int8_t* dst = row_scratch != NULL ? row_scratch : out;
      if (whole) {
        dw_group_row_any(p, &g, image + c / p->depth_multiplier, filter + c, &y, dst + c);
      } else {
        for (k = c; k < p->output_depth; ++k) dw_channel_row(p, ch->bias, image, filter, &y, k, dst);
      }
      if (row_scratch != NULL) dw_copy_channels(p, row_scratch + c, out + c, whole ? 4 : (size_t)(p->output_depth - c));
    }
  }
}

/* Output rows [row_begin, row_end) (counted over all batches), channel group by channel group (each group's
 * constants once), into `output` (row i at output + i * row_stride), or with row_scratch each group's part
 * of a row into the scratch row first and then to its place (see the overlap variant). The ring and the other
 * paths in functions of their own: the stack holds either's data, not both. */
static void dw_rows(const dw_params* p, const int8_t* input, const int8_t* filter, const dw_channels* ch,
                    int8_t* output, size_t row_stride, int32_t row_begin, int32_t row_end, int8_t* row_scratch) {
  int32_t c = 0;
  /* The ring reads a row's inputs before the row's outputs are written, as the scratch row ensures
   * elsewhere: the ring needs no scratch row, but with one (overlap) the whole row in one tile, else a
   * later tile would read inputs that an earlier tile's later rows overwrote. */
  if (microaot_fit_depthwise_patched(p)) { /* as the ring: every group's inputs widened before its outputs */
    c = p->output_depth / 4 * 4;
    microaot_dsp_depthwise_rows_patched(p, input, filter, ch, output, row_stride, row_begin, row_end, c);
  } else if (microaot_fit_depthwise_ringed(p) &&
             (row_scratch == NULL || MICROAOT_DEPTHWISE_RING_TILE_WIDTH >= p->output_width)) {
    c = p->output_depth / 4 * 4; /* the whole groups; the last depth % 4 channels by dw_rows_from */
    microaot_dsp_depthwise_rows_ringed(p, input, filter, ch, output, row_stride, row_begin, row_end, c);
  }
  dw_rows_from(p, input, filter, ch, output, row_stride, row_begin, row_end, row_scratch, c);
}

void microaot_depthwise_conv_2d_s8(const microaot_depthwise_conv_2d_params_q* params, const int8_t* input,
                                   const int8_t* filter, const int32_t* bias, int8_t* output) {
  const size_t row_size = (size_t)params->output_width * (size_t)params->output_depth;
  const dw_channels ch = dw_channels_of(params, bias);
  if (!microaot_dsp_depthwise_fits(params, &ch)) {
    microaot_depthwise_conv_2d_s8_portable(params, input, filter, bias, output);
    return;
  }
  dw_rows(params, input, filter, &ch, output, row_size, 0, params->batches * params->output_height, NULL);
}

/* Output channel c reads input channel c only. When output and input lie a whole number of pixels apart,
 * every output byte overwrites an input byte of its own channel, so a channel group done row by row (each
 * row through the scratch row, as the portable kernel does with whole rows) sees the same inputs as in
 * whole-row order: the groups go outermost and each computes its constants once. Otherwise (and with a depth
 * multiplier above 1, where output channel c reads input channel c / multiplier) whole rows. */
void microaot_depthwise_conv_2d_s8_overlap(const microaot_depthwise_conv_2d_params_q* params, const int8_t* input,
                                           const int8_t* filter, const int32_t* bias, int8_t* output,
                                           void* scratch) {
  const size_t row_size = (size_t)params->output_width * (size_t)params->output_depth;
  const int32_t rows = params->batches * params->output_height;
  const dw_channels ch = dw_channels_of(params, bias);
  int32_t row;
  if (!microaot_dsp_depthwise_fits(params, &ch)) {
    microaot_depthwise_conv_2d_s8_overlap_portable(params, input, filter, bias, output, scratch);
    return;
  }
  if (params->depth_multiplier == 1 && dw_whole_pixels_apart(input, output, params->output_depth)) {
    dw_rows(params, input, filter, &ch, output, row_size, 0, rows, (int8_t*)scratch);
    return;
  }
  for (row = 0; row < rows; ++row) {
    dw_rows(params, input, filter, &ch, (int8_t*)scratch, row_size, row, row + 1, NULL);
    memcpy(output + (size_t)row * row_size, scratch, row_size);
  }
}
