/* float32 DEPTHWISE_CONV_2D, portable C99: the summation order of TFLite's reference DepthwiseConv
 * (filter rows, then columns; then + bias; then the activation clamp). */
#include <string.h>

#include "microaot/fixedpoint.h"
#include "microaot/kernels/conv.h"

/* One output value before bias; taps outside the image contribute nothing (zero padding). */
static float depthwise_accumulate(const microaot_depthwise_conv_2d_params_f32* p, const float* input_batch,
                                  const float* filter, int32_t in_y0, int32_t in_x0, int32_t oc) {
  const int32_t ic = oc / p->depth_multiplier;
  float total = 0.0f;
  for (int32_t fy = 0; fy < p->filter_height; ++fy) {
    const int32_t in_y = in_y0 + fy * p->dilation_height;
    if (in_y < 0 || in_y >= p->input_height) continue;
    for (int32_t fx = 0; fx < p->filter_width; ++fx) {
      const int32_t in_x = in_x0 + fx * p->dilation_width;
      if (in_x < 0 || in_x >= p->input_width) continue;
      const float in = input_batch[((size_t)in_y * p->input_width + in_x) * p->input_depth + ic];
      const float w = filter[((size_t)fy * p->filter_width + fx) * p->output_depth + oc];
      total += in * w;
    }
  }
  return total;
}

static void depthwise_pixel(const microaot_depthwise_conv_2d_params_f32* p, const float* input_batch,
                            const float* filter, const float* bias, int32_t in_y0, int32_t in_x0, float* out) {
  for (int32_t oc = 0; oc < p->output_depth; ++oc) {
    const float total = depthwise_accumulate(p, input_batch, filter, in_y0, in_x0, oc);
    const float bias_value = bias != NULL ? bias[oc] : 0.0f;
    out[oc] = microaot_clamp_f32(total + bias_value, p->activation_min, p->activation_max);
  }
}

/* Every output row in order, straight into the output, or (overlap flavor) into row_scratch and then copied
 * to its place, so that no output byte is stored before the last input read of its row. */
static void depthwise_conv_2d_rows(const microaot_depthwise_conv_2d_params_f32* p, const float* input,
                                   const float* filter, const float* bias, float* output, float* row_scratch) {
  const size_t input_batch_size = (size_t)p->input_height * p->input_width * p->input_depth;
  const size_t row_size = (size_t)p->output_width * p->output_depth;
  for (int32_t b = 0; b < p->batches; ++b) {
    const float* input_batch = input + b * input_batch_size;
    for (int32_t oy = 0; oy < p->output_height; ++oy) {
      const int32_t in_y0 = oy * p->stride_height - p->pad_height;
      float* row = output + ((size_t)b * p->output_height + oy) * row_size;
      float* dst = row_scratch != NULL ? row_scratch : row;
      for (int32_t ox = 0; ox < p->output_width; ++ox) {
        const int32_t in_x0 = ox * p->stride_width - p->pad_width;
        depthwise_pixel(p, input_batch, filter, bias, in_y0, in_x0, dst + (size_t)ox * p->output_depth);
      }
      if (row_scratch != NULL) memcpy(row, row_scratch, row_size * sizeof(float));
    }
  }
}

void microaot_depthwise_conv_2d_f32(const microaot_depthwise_conv_2d_params_f32* params, const float* input,
                                    const float* filter, const float* bias, float* output) {
  depthwise_conv_2d_rows(params, input, filter, bias, output, NULL);
}

void microaot_depthwise_conv_2d_f32_overlap(const microaot_depthwise_conv_2d_params_f32* params, const float* input,
                                            const float* filter, const float* bias, float* output, void* scratch) {
  depthwise_conv_2d_rows(params, input, filter, bias, output, (float*)scratch);
}
