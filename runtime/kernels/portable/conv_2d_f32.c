/* float32 CONV_2D, portable C99: the same loop and summation order as TFLite's reference Conv (sum of
 * input * filter over the in-image taps, then + bias, then the activation clamp). */
#include <string.h>

#include "microaot/fixedpoint.h"
#include "microaot/kernels/conv.h"

/* One output value before bias; taps outside the image contribute nothing (zero padding). */
static float conv_accumulate(const microaot_conv_2d_params_f32* p, const float* input_batch, const float* filter_oc,
                             int32_t in_y0, int32_t in_x0, int32_t in_c0) {
  float total = 0.0f;
  for (int32_t fy = 0; fy < p->filter_height; ++fy) {
    const int32_t in_y = in_y0 + fy * p->dilation_height;
    if (in_y < 0 || in_y >= p->input_height) continue;
    for (int32_t fx = 0; fx < p->filter_width; ++fx) {
      const int32_t in_x = in_x0 + fx * p->dilation_width;
      if (in_x < 0 || in_x >= p->input_width) continue;
      const float* in = input_batch + ((size_t)in_y * p->input_width + in_x) * p->input_depth + in_c0;
      const float* w = filter_oc + ((size_t)fy * p->filter_width + fx) * p->filter_depth;
      for (int32_t c = 0; c < p->filter_depth; ++c) total += in[c] * w[c];
    }
  }
  return total;
}

static void conv_pixel(const microaot_conv_2d_params_f32* p, const float* input_batch, const float* filter,
                       const float* bias, int32_t in_y0, int32_t in_x0, float* out) {
  const int32_t filters_per_group = p->output_depth / (p->input_depth / p->filter_depth);
  const size_t filter_size = (size_t)p->filter_height * p->filter_width * p->filter_depth;
  for (int32_t oc = 0; oc < p->output_depth; ++oc) {
    const int32_t in_c0 = (oc / filters_per_group) * p->filter_depth;
    const float total = conv_accumulate(p, input_batch, filter + oc * filter_size, in_y0, in_x0, in_c0);
    const float bias_value = bias != NULL ? bias[oc] : 0.0f;
    out[oc] = microaot_clamp_f32(total + bias_value, p->activation_min, p->activation_max);
  }
}

/* Every output row in order, straight into the output, or (overlap flavor) into row_scratch and then copied
 * to its place, so that no output byte is stored before the last input read of its row. */
static void conv_2d_rows(const microaot_conv_2d_params_f32* p, const float* input, const float* filter,
                         const float* bias, float* output, float* row_scratch) {
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
        conv_pixel(p, input_batch, filter, bias, in_y0, in_x0, dst + (size_t)ox * p->output_depth);
      }
      if (row_scratch != NULL) memcpy(row, row_scratch, row_size * sizeof(float));
    }
  }
}

void microaot_conv_2d_f32(const microaot_conv_2d_params_f32* params, const float* input, const float* filter,
                          const float* bias, float* output) {
  conv_2d_rows(params, input, filter, bias, output, NULL);
}

void microaot_conv_2d_f32_overlap(const microaot_conv_2d_params_f32* params, const float* input, const float* filter,
                                  const float* bias, float* output, void* scratch) {
  conv_2d_rows(params, input, filter, bias, output, (float*)scratch);
}
