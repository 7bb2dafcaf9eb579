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

/* The four sums of channels c..c+3 (c + 3 < depth) over the in-image taps of window (y, x). */
static void four_channels(const dw_params* p, const int8_t* image, const int8_t* filter, const microaot_window* y,
                          const microaot_window* x, int32_t c, int32_t acc[4]) {
  const size_t depth = (size_t)p->output_depth;
  const uint32_t offset = microaot_dsp_pack16(p->input_offset, p->input_offset);
  int32_t s0 = 0, s1 = 0, s2 = 0, s3 = 0, fy, fx;
  for (fy = y->begin; fy < y->end; ++fy) {
    const int32_t in_y = y->origin + fy * p->dilation_height;
    const int8_t* in_row = image + (size_t)in_y * (size_t)p->input_width * depth + (size_t)c;
    const int8_t* w_row = filter + (size_t)fy * (size_t)p->filter_width * depth + (size_t)c;
    for (fx = x->begin; fx < x->end; ++fx) {
      const uint32_t in = microaot_dsp_load4(in_row + (size_t)(x->origin + fx * p->dilation_width) * depth);
      const uint32_t w = microaot_dsp_load4(w_row + (size_t)fx * depth);
      const uint32_t in02 = microaot_dsp_sxtab16(offset, in), in13 = microaot_dsp_sxtab16_ror8(offset, in);
      const uint32_t w02 = microaot_dsp_sxtb16(w), w13 = microaot_dsp_sxtb16_ror8(w);
      s0 = microaot_dsp_smlabb(in02, w02, s0);
      s2 = microaot_dsp_smlatt(in02, w02, s2);
      s1 = microaot_dsp_smlabb(in13, w13, s1);
      s3 = microaot_dsp_smlatt(in13, w13, s3);
    }
  }
  acc[0] = s0;
  acc[1] = s1;
  acc[2] = s2;
  acc[3] = s3;
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
  int32_t c, k, acc[4];
  for (c = 0; c + 4 <= p->output_depth; c += 4) {
    four_channels(p, image, filter, y, x, c, acc);
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
