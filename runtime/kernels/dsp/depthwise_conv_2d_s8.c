/* int8 DEPTHWISE_CONV_2D with the DSP extension, bit-exact with the portable kernel, for depth multiplier 1
 * (input channel c feeds output channel c only): four channels at a time, each tap's four inputs and four
 * weights widened to 16-bit lanes with SXTAB16/SXTB16 (the input offset added on the way) and accumulated per
 * channel with SMLABB/SMLATT. Only the in-image taps are read, as the reference does. Other depth
 * multipliers take the portable code. */
#include <stddef.h>
#include <string.h>

#include "microaot/dsp_dot.h"
#include "microaot/kernels/conv.h"
#include "microaot/window.h"

/* The portable kernels, for the shapes handled below, under their own names. */
void microaot_depthwise_conv_2d_s8_portable(const microaot_depthwise_conv_2d_params_q* params, const int8_t* input,
                                            const int8_t* filter, const int32_t* bias, int8_t* output);
void microaot_depthwise_conv_2d_s8_overlap_portable(const microaot_depthwise_conv_2d_params_q* params,
                                                    const int8_t* input, const int8_t* filter, const int32_t* bias,
                                                    int8_t* output, void* scratch);
#define MICROAOT_DTYPE s8
#define MICROAOT_CONV depthwise_conv_2d
#define MICROAOT_FN microaot_depthwise_conv_2d_s8_portable
#define MICROAOT_FN_OVERLAP microaot_depthwise_conv_2d_s8_overlap_portable
#include "microaot/templates/conv.h"

typedef microaot_depthwise_conv_2d_params_q dw_params;

/* One tap of four channels: inputs at `in`, weights at `w`, accumulated lane by lane into s[0..3]. */
#define DW_TAP4(in, w, offset, s)                                                                  \
  do {                                                                                             \
    const uint32_t x_ = microaot_dsp_load4(in), w_ = microaot_dsp_load4(w);                       \
    const uint32_t x02_ = microaot_dsp_sxtab16(offset, x_), x13_ = microaot_dsp_sxtab16_ror8(offset, x_); \
    const uint32_t w02_ = microaot_dsp_sxtb16(w_), w13_ = microaot_dsp_sxtb16_ror8(w_);             \
    s[0] = microaot_dsp_smlabb(x02_, w02_, s[0]);                                                  \
    s[2] = microaot_dsp_smlatt(x02_, w02_, s[2]);                                                  \
    s[1] = microaot_dsp_smlabb(x13_, w13_, s[1]);                                                  \
    s[3] = microaot_dsp_smlatt(x13_, w13_, s[3]);                                                  \
  } while (0)

/* The four sums of channels c..c+3 (c + 3 < depth) over the in-image taps of window (y, x). */
static void four_channels(const dw_params* p, const int8_t* image, const int8_t* filter, const microaot_window* y,
                          const microaot_window* x, int32_t c, int32_t acc[4]) {
  const size_t depth = (size_t)p->output_depth;
  const uint32_t offset = microaot_dsp_pack16(p->input_offset, p->input_offset);
  int32_t s[4] = {0, 0, 0, 0}, fy, fx;
  for (fy = y->begin; fy < y->end; ++fy) {
    const int32_t in_y = y->origin + fy * p->dilation_height;
    const int8_t* in_row = image + (size_t)in_y * (size_t)p->input_width * depth + (size_t)c;
    const int8_t* w_row = filter + (size_t)fy * (size_t)p->filter_width * depth + (size_t)c;
    for (fx = x->begin; fx < x->end; ++fx) {
      DW_TAP4(in_row + (size_t)(x->origin + fx * p->dilation_width) * depth, w_row + (size_t)fx * depth, offset, s);
    }
  }
  memcpy(acc, s, sizeof s);
}

/* four_channels for a 3x3 window wholly inside the image without dilation (the common case), unrolled:
 * `in` is its top-left tap at channel c, `w` the filter at channel c. */
static void four_channels_3x3(const dw_params* p, const int8_t* in, const int8_t* w, int32_t acc[4]) {
  const size_t depth = (size_t)p->output_depth, row = (size_t)p->input_width * depth;
  const uint32_t offset = microaot_dsp_pack16(p->input_offset, p->input_offset);
  int32_t s[4] = {0, 0, 0, 0};
  int r;
  for (r = 0; r < 3; ++r, in += row, w += 3 * depth) {
    DW_TAP4(in, w, offset, s);
    DW_TAP4(in + depth, w + depth, offset, s);
    DW_TAP4(in + 2 * depth, w + 2 * depth, offset, s);
  }
  memcpy(acc, s, sizeof s);
}

/* The sum of one channel c over the in-image taps of window (y, x). */
static int32_t one_channel(const dw_params* p, const int8_t* image, const int8_t* filter, const microaot_window* y,
                           const microaot_window* x, int32_t c) {
  const size_t depth = (size_t)p->output_depth;
  int32_t sum = 0, fy, fx;
  for (fy = y->begin; fy < y->end; ++fy) {
    const int32_t in_y = y->origin + fy * p->dilation_height;
    for (fx = x->begin; fx < x->end; ++fx) {
      const int32_t in_x = x->origin + fx * p->dilation_width;
      const int32_t value = image[((size_t)in_y * (size_t)p->input_width + (size_t)in_x) * depth + (size_t)c];
      sum += (value + p->input_offset) * filter[(size_t)(fy * p->filter_width + fx) * depth + (size_t)c];
    }
  }
  return sum;
}

/* Every channel of output pixel (y, x) into out. */
static void dw_pixel(const dw_params* p, const int8_t* image, const int8_t* filter,
                     const microaot_dsp_output_stage* stage, const microaot_window* y, const microaot_window* x,
                     int8_t* out) {
  const int full_3x3 = p->filter_height == 3 && p->filter_width == 3 && p->dilation_height == 1 &&
                       p->dilation_width == 1 && y->begin == 0 && y->end == 3 && x->begin == 0 && x->end == 3;
  const int8_t* corner =
      full_3x3 ? image + ((size_t)y->origin * (size_t)p->input_width + (size_t)x->origin) * (size_t)p->output_depth
               : image;
  int32_t c, k, acc[4];
  for (c = 0; c + 4 <= p->output_depth; c += 4) {
    if (full_3x3) {
      four_channels_3x3(p, corner + c, filter + c, acc);
    } else {
      four_channels(p, image, filter, y, x, c, acc);
    }
    for (k = 0; k < 4; ++k) out[c + k] = microaot_dsp_output(stage, acc[k], c + k);
  }
  for (; c < p->output_depth; ++c) out[c] = microaot_dsp_output(stage, one_channel(p, image, filter, y, x, c), c);
}

/* Output rows [row_begin, row_end) (counted over all batches), each into `dst` and, when dst is a scratch
 * row, copied to its place after its last input read. */
static void dw_row_range(const dw_params* p, const int8_t* input, const int8_t* filter, const int32_t* bias,
                         int8_t* output, int8_t* row_scratch, int32_t row_begin, int32_t row_end) {
  const size_t image_size = (size_t)p->input_height * (size_t)p->input_width * (size_t)p->input_depth;
  const size_t depth = (size_t)p->output_depth, row_size = (size_t)p->output_width * depth;
  const microaot_dsp_output_stage stage = MICROAOT_DSP_OUTPUT_STAGE(p, bias);
  int32_t row, ox;
  for (row = row_begin; row < row_end; ++row) {
    const int8_t* image = input + (size_t)(row / p->output_height) * image_size;
    const microaot_window y = microaot_window_of(row % p->output_height, p->stride_height, p->pad_height,
                                                 p->filter_height, p->dilation_height, p->input_height);
    int8_t* out = output + (size_t)row * row_size;
    int8_t* dst = row_scratch != NULL ? row_scratch : out;
    for (ox = 0; ox < p->output_width; ++ox) {
      const microaot_window x =
          microaot_window_of(ox, p->stride_width, p->pad_width, p->filter_width, p->dilation_width, p->input_width);
      dw_pixel(p, image, filter, &stage, &y, &x, dst + (size_t)ox * depth);
    }
    if (row_scratch != NULL) memcpy(out, row_scratch, row_size);
  }
}

void microaot_depthwise_conv_2d_s8(const microaot_depthwise_conv_2d_params_q* params, const int8_t* input,
                                   const int8_t* filter, const int32_t* bias, int8_t* output) {
  if (params->depth_multiplier != 1) {
    microaot_depthwise_conv_2d_s8_portable(params, input, filter, bias, output);
    return;
  }
  dw_row_range(params, input, filter, bias, output, NULL, 0, params->batches * params->output_height);
}

void microaot_depthwise_conv_2d_s8_overlap(const microaot_depthwise_conv_2d_params_q* params, const int8_t* input,
                                           const int8_t* filter, const int32_t* bias, int8_t* output,
                                           void* scratch) {
  if (params->depth_multiplier != 1) {
    microaot_depthwise_conv_2d_s8_overlap_portable(params, input, filter, bias, output, scratch);
    return;
  }
  dw_row_range(params, input, filter, bias, output, (int8_t*)scratch, 0, params->batches * params->output_height);
}
