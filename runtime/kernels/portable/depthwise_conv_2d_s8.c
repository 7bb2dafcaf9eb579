/* int8 DEPTHWISE_CONV_2D, portable C99: TFLite Micro's per-channel reference arithmetic. Output channel oc
 * reads input channel oc / depth_multiplier and filter column oc of the [1, H, W, output_depth] filter. */
#include <string.h>

#include "microaot/fixedpoint.h"
#include "microaot/kernels/conv.h"

/* One output value before bias; taps outside the image are skipped (= padding with the input zero point). */
static int32_t depthwise_accumulate(const microaot_depthwise_conv_2d_params_s8* p, const int8_t* input_batch,
                                    const int8_t* filter, int32_t in_y0, int32_t in_x0, int32_t oc) {
  const int32_t ic = oc / p->depth_multiplier;
  int32_t acc = 0;
  for (int32_t fy = 0; fy < p->filter_height; ++fy) {
    const int32_t in_y = in_y0 + fy * p->dilation_height;
    if (in_y < 0 || in_y >= p->input_height) continue;
    for (int32_t fx = 0; fx < p->filter_width; ++fx) {
      const int32_t in_x = in_x0 + fx * p->dilation_width;
      if (in_x < 0 || in_x >= p->input_width) continue;
      const int32_t in = input_batch[((size_t)in_y * p->input_width + in_x) * p->input_depth + ic];
      const int32_t w = filter[((size_t)fy * p->filter_width + fx) * p->output_depth + oc];
      acc += w * (in + p->input_offset);
    }
  }
  return acc;
}

static void depthwise_pixel(const microaot_depthwise_conv_2d_params_s8* p, const int8_t* input_batch,
                            const int8_t* filter, const int32_t* bias, int32_t in_y0, int32_t in_x0, int8_t* out) {
  for (int32_t oc = 0; oc < p->output_depth; ++oc) {
    int32_t acc = depthwise_accumulate(p, input_batch, filter, in_y0, in_x0, oc);
    if (bias != NULL) acc += bias[oc];
    acc = microaot_multiply_by_quantized_multiplier(acc, p->output_multiplier[oc], p->output_shift[oc]);
    acc += p->output_offset;
    out[oc] = (int8_t)microaot_clamp_s32(acc, p->activation_min, p->activation_max);
  }
}

/* Every output row in order, straight into the output, or (overlap flavor) into row_scratch and then copied
 * to its place, so that no output byte is stored before the last input read of its row. */
static void depthwise_conv_2d_rows(const microaot_depthwise_conv_2d_params_s8* p, const int8_t* input,
                                   const int8_t* filter, const int32_t* bias, int8_t* output, int8_t* row_scratch) {
  const size_t input_batch_size = (size_t)p->input_height * p->input_width * p->input_depth;
  const size_t row_size = (size_t)p->output_width * p->output_depth;
  for (int32_t b = 0; b < p->batches; ++b) {
    const int8_t* input_batch = input + b * input_batch_size;
    for (int32_t oy = 0; oy < p->output_height; ++oy) {
      const int32_t in_y0 = oy * p->stride_height - p->pad_height;
      int8_t* row = output + ((size_t)b * p->output_height + oy) * row_size;
      int8_t* dst = row_scratch != NULL ? row_scratch : row;
      for (int32_t ox = 0; ox < p->output_width; ++ox) {
        const int32_t in_x0 = ox * p->stride_width - p->pad_width;
        depthwise_pixel(p, input_batch, filter, bias, in_y0, in_x0, dst + (size_t)ox * p->output_depth);
      }
      if (row_scratch != NULL) memcpy(row, row_scratch, row_size * sizeof(int8_t));
    }
  }
}

void microaot_depthwise_conv_2d_s8(const microaot_depthwise_conv_2d_params_s8* params, const int8_t* input,
                                   const int8_t* filter, const int32_t* bias, int8_t* output) {
  depthwise_conv_2d_rows(params, input, filter, bias, output, NULL);
}

void microaot_depthwise_conv_2d_s8_overlap(const microaot_depthwise_conv_2d_params_s8* params, const int8_t* input,
                                           const int8_t* filter, const int32_t* bias, int8_t* output, void* scratch) {
  depthwise_conv_2d_rows(params, input, filter, bias, output, (int8_t*)scratch);
}
