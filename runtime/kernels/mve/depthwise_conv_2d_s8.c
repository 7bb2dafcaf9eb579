/* int8 DEPTHWISE_CONV_2D with Helium (MVE), bit-exact with the portable kernel, any depth multiplier:
 * eight channels per vector over each output pixel's in-image taps (the reference's skipped taps skipped too),
 * the operands widened to int16 as they load (for a depth multiplier other than 1, the inputs by a gather load of
 * each output channel's input channel), the input offset added, the even and odd channels' products
 * (VMULLB / VMULLT) summed in int32; the last channels predicated. The sums then take the output step four
 * channels per vector (microaot/internal/mve_dot.h). More channels than the stack's row of sums and shifts
 * outside VRSHL's range take the portable code; so does a build without MVE. */
#include <stddef.h>
#include <string.h>

#include "microaot/internal/mve_dot.h"
#include "microaot/internal/window.h"
#include "microaot/kernels/conv.h"

#if MICROAOT_MVE
void microaot_depthwise_conv_2d_s8_portable(const microaot_depthwise_conv_2d_params_q* params, const int8_t* input,
                                            const int8_t* filter, const int32_t* bias, int8_t* output);
void microaot_depthwise_conv_2d_s8_overlap_portable(const microaot_depthwise_conv_2d_params_q* params,
                                                    const int8_t* input, const int8_t* filter, const int32_t* bias,
                                                    int8_t* output, void* scratch);
#define MICROAOT_FN microaot_depthwise_conv_2d_s8_portable
#define MICROAOT_FN_OVERLAP microaot_depthwise_conv_2d_s8_overlap_portable
#else
#define MICROAOT_FN microaot_depthwise_conv_2d_s8
#define MICROAOT_FN_OVERLAP microaot_depthwise_conv_2d_s8_overlap
#endif
#define MICROAOT_DTYPE s8
#define MICROAOT_CONV depthwise_conv_2d
#include "microaot/internal/templates/conv.h"

#if MICROAOT_MVE
/* The channels whose sums the stack holds (plus one vector's overrun). */
#define MVE_DW_CHANNELS_MAX 1024

typedef microaot_depthwise_conv_2d_params_q dw_params;

static int mve_handles(const dw_params* p) {
  return p->depth_multiplier >= 1 && p->output_depth <= MVE_DW_CHANNELS_MAX &&
         microaot_mve_shifts_fit(p->output_shift, p->output_depth);
}

/* One output pixel's in-image taps, found once for all its channels: the first tap's input and weight at
 * channel 0, the taps per row and rows, the steps between them (bytes), and for a depth multiplier other
 * than 1 each output channel's input channel (NULL: the same channel). */
typedef struct {
  const int8_t* in;
  const int8_t* w;
  int32_t rows, cols;
  size_t in_col, in_row, w_row; /* in_row, w_row: from past a row's last tap to the next row's first */
  size_t w_col;                 /* the output depth: weights are [1, height, width, output_depth] */
  const uint16_t* chan;
} dw_taps;

static dw_taps taps_of(const dw_params* p, const int8_t* image, const int8_t* filter, const microaot_window* y,
                       const microaot_window* x) {
  const size_t depth = (size_t)p->input_depth, w_col = (size_t)p->output_depth;
  dw_taps t;
  t.rows = y->end > y->begin ? y->end - y->begin : 0;
  t.cols = x->end > x->begin ? x->end - x->begin : 0;
  t.in = image + (size_t)((y->origin + y->begin * p->dilation_height) * p->input_width + x->origin +
                          x->begin * p->dilation_width) * depth;
  t.w = filter + (size_t)(y->begin * p->filter_width + x->begin) * w_col;
  t.in_col = (size_t)p->dilation_width * depth;
  t.in_row = (size_t)p->dilation_height * (size_t)p->input_width * depth - (size_t)t.cols * t.in_col;
  t.w_row = (size_t)(p->filter_width - t.cols) * w_col;
  t.w_col = w_col;
  t.chan = NULL;
  return t;
}

/* The products of the taps into even / odd channels' sums from channel c on: `full` (a constant where it is
 * inlined) loads eight channels unpredicated, else the channels p16 keeps (the last block); `gather` reads
 * each channel's input channel (t->chan) with a gather load, else channels c .. c + 7 themselves. */
static inline __attribute__((always_inline)) void dw_block(const dw_taps* t, size_t c, int16_t offset,
                                                           mve_pred16_t p16, int full, int gather,
                                                           int32x4_t* even, int32x4_t* odd) {
  const uint16x8_t chan = gather ? vldrhq_u16(t->chan + c) : vdupq_n_u16(0);
  const int8_t* in = gather ? t->in : t->in + c;
  const int8_t* w = t->w + c;
  int32x4_t e = vdupq_n_s32(0), o = vdupq_n_s32(0);
  int32_t r, k;
  for (r = t->rows; r > 0; --r, in += t->in_row, w += t->w_row) {
    for (k = t->cols; k > 0; --k, in += t->in_col, w += t->w_col) {
      const int16x8_t x = gather ? (full ? vldrbq_gather_offset_s16(in, chan)
                                         : vldrbq_gather_offset_z_s16(in, chan, p16))
                                 : (full ? vldrbq_s16(in) : vldrbq_z_s16(in, p16));
      const int16x8_t a = vaddq_n_s16(x, offset);
      const int16x8_t b = full ? vldrbq_s16(w) : vldrbq_z_s16(w, p16);
      e = vaddq_s32(e, vmullbq_int_s16(a, b));
      o = vaddq_s32(o, vmulltq_int_s16(a, b));
    }
  }
  *even = e;
  *odd = o;
}

/* Every channel of one output pixel into sums[0 .. output depth) (bias added; up to seven lanes past the depth
 * too, which the caller leaves room for). */
static void dw_pixel(const dw_params* p, const dw_taps* t, const int32_t* bias, int32_t* sums) {
  static const uint32_t kEvenOdd[4] = {0, 2, 4, 6};
  const int32_t depth = p->output_depth;
  const int16_t offset = (int16_t)p->input_offset;
  const uint32x4_t lanes = vldrwq_u32(kEvenOdd);
  int32_t c;
  for (c = 0; c < depth; c += 8) {
    const int32_t left = depth - c;
    int32x4_t even, odd;
    if (left >= 8) {
      if (t->chan != NULL) {
        dw_block(t, (size_t)c, offset, 0, 1, 1, &even, &odd);
      } else {
        dw_block(t, (size_t)c, offset, 0, 1, 0, &even, &odd);
      }
      if (bias != NULL) {
        even = vaddq_s32(even, vldrwq_gather_shifted_offset_s32(bias + c, lanes));
        odd = vaddq_s32(odd, vldrwq_gather_shifted_offset_s32(bias + c + 1, lanes));
      }
    } else {
      dw_block(t, (size_t)c, offset, vctp16q((uint32_t)left), 0, t->chan != NULL, &even, &odd);
      if (bias != NULL) {
        even = vaddq_s32(even, vldrwq_gather_shifted_offset_z_s32(bias + c, lanes, vctp32q((uint32_t)(left + 1) / 2)));
        odd = vaddq_s32(odd, vldrwq_gather_shifted_offset_z_s32(bias + c + 1, lanes, vctp32q((uint32_t)left / 2)));
      }
    }
    vstrwq_scatter_shifted_offset_s32(sums + c, lanes, even);
    vstrwq_scatter_shifted_offset_s32(sums + c + 1, lanes, odd);
  }
}

/* Every output row, each written to `dst` and, when dst is a scratch row, copied to its place after its last
 * input read. */
static void dw_rows(const dw_params* p, const int8_t* input, const int8_t* filter, const int32_t* bias,
                    int8_t* output, int8_t* row_scratch) {
  const size_t image_size = (size_t)p->input_height * (size_t)p->input_width * (size_t)p->input_depth;
  const size_t depth = (size_t)p->output_depth, row_size = (size_t)p->output_width * depth;
  const microaot_mve_output_stage stage = MICROAOT_MVE_OUTPUT_STAGE(p, p->output_depth);
  int32_t sums[MVE_DW_CHANNELS_MAX + 8];
  uint16_t chan[MVE_DW_CHANNELS_MAX + 8]; /* output channel c reads input channel c / depth_multiplier */
  int32_t row, ox, c;
  if (p->depth_multiplier != 1) {
    for (c = 0; c < p->output_depth + 8; ++c) chan[c] = (uint16_t)(c < p->output_depth ? c / p->depth_multiplier : 0);
  }
  for (row = 0; row < p->batches * p->output_height; ++row) {
    const int32_t oy = row % p->output_height;
    const int8_t* image = input + (size_t)(row / p->output_height) * image_size;
    const microaot_window y = microaot_window_of(oy, p->stride_height, p->pad_height, p->filter_height,
                                                 p->dilation_height, p->input_height);
    int8_t* out = output + (size_t)row * row_size;
    int8_t* dst = row_scratch != NULL ? row_scratch : out;
    for (ox = 0; ox < p->output_width; ++ox) {
      const microaot_window x =
          microaot_window_of(ox, p->stride_width, p->pad_width, p->filter_width, p->dilation_width, p->input_width);
      dw_taps t = taps_of(p, image, filter, &y, &x);
      if (p->depth_multiplier != 1) t.chan = chan;
      dw_pixel(p, &t, bias, sums);
      microaot_mve_output_row(&stage, sums, p->output_depth, dst + (size_t)ox * depth);
    }
    if (row_scratch != NULL) memcpy(out, row_scratch, row_size);
  }
}

void microaot_depthwise_conv_2d_s8(const microaot_depthwise_conv_2d_params_q* params, const int8_t* input,
                                   const int8_t* filter, const int32_t* bias, int8_t* output) {
  if (!mve_handles(params)) {
    microaot_depthwise_conv_2d_s8_portable(params, input, filter, bias, output);
    return;
  }
  dw_rows(params, input, filter, bias, output, NULL);
}

void microaot_depthwise_conv_2d_s8_overlap(const microaot_depthwise_conv_2d_params_q* params, const int8_t* input,
                                           const int8_t* filter, const int32_t* bias, int8_t* output, void* scratch) {
  if (!mve_handles(params)) {
    microaot_depthwise_conv_2d_s8_overlap_portable(params, input, filter, bias, output, scratch);
    return;
  }
  dw_rows(params, input, filter, bias, output, (int8_t*)scratch);
}
#endif /* MICROAOT_MVE */
