/* AVERAGE_POOL_2D, float32: sum of the in-bounds window elements (row by row) divided by their count. */
#include "microaot/fixedpoint.h"
#include "microaot/kernels/pooling.h"

void microaot_average_pool_2d_f32(const microaot_pool_2d_params_f32* params, const float* input, float* output) {
  const int32_t channels = params->channels;
  const size_t row_stride = (size_t)params->input_width * (size_t)channels;
  int32_t b, oy, ox, c, y, x;
  for (b = 0; b < params->batches; ++b) {
    const float* in_image = input + (size_t)b * (size_t)params->input_height * row_stride;
    for (oy = 0; oy < params->output_height; ++oy) {
      int32_t y0, y1, x0, x1;
      const int32_t iy = microaot_pool_2d_window(oy, params->stride_height, params->padding_height,
                                                 params->filter_height, params->input_height, &y0, &y1);
      for (ox = 0; ox < params->output_width; ++ox) {
        const int32_t ix = microaot_pool_2d_window(ox, params->stride_width, params->padding_width,
                                                   params->filter_width, params->input_width, &x0, &x1);
        const float count = (float)((y1 - y0) * (x1 - x0));
        for (c = 0; c < channels; ++c) {
          float sum = 0.0f;
          for (y = y0; y < y1; ++y) {
            const float* in_row = in_image + (size_t)(iy + y) * row_stride + c;
            for (x = x0; x < x1; ++x) sum += in_row[(size_t)(ix + x) * (size_t)channels];
          }
          *output++ = microaot_clamp_f32(sum / count, params->activation_min, params->activation_max);
        }
      }
    }
  }
}
