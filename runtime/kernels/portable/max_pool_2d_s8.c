/* MAX_POOL_2D, int8: maximum of the in-bounds window elements, clamped to the activation range. */
#include "microaot/fixedpoint.h"
#include "microaot/kernels/pooling.h"

void microaot_max_pool_2d_s8(const microaot_pool_2d_params_s8* params, const int8_t* input, int8_t* output) {
  const int32_t channels = params->channels;
  const size_t row_stride = (size_t)params->input_width * (size_t)channels;
  int32_t b, oy, ox, c, y, x;
  for (b = 0; b < params->batches; ++b) {
    const int8_t* in_image = input + (size_t)b * (size_t)params->input_height * row_stride;
    for (oy = 0; oy < params->output_height; ++oy) {
      int32_t y0, y1, x0, x1;
      const int32_t iy = microaot_pool_2d_window(oy, params->stride_height, params->padding_height,
                                                 params->filter_height, params->input_height, &y0, &y1);
      for (ox = 0; ox < params->output_width; ++ox) {
        const int32_t ix = microaot_pool_2d_window(ox, params->stride_width, params->padding_width,
                                                   params->filter_width, params->input_width, &x0, &x1);
        for (c = 0; c < channels; ++c) {
          int32_t max = INT8_MIN;
          for (y = y0; y < y1; ++y) {
            const int8_t* in_row = in_image + (size_t)(iy + y) * row_stride + c;
            for (x = x0; x < x1; ++x) {
              const int32_t value = in_row[(size_t)(ix + x) * (size_t)channels];
              if (value > max) max = value;
            }
          }
          *output++ = (int8_t)microaot_clamp_s32(max, params->activation_min, params->activation_max);
        }
      }
    }
  }
}
