/* MAX_POOL_2D, float32: maximum of the in-bounds window elements, clamped to the activation range. */
#include <float.h>
#include <string.h>

#include "microaot/fixedpoint.h"
#include "microaot/kernels/pooling.h"

/* One output row (all x and channels) of the image at in_image, written to out. */
static void max_pool_2d_row(const microaot_pool_2d_params_f32* params, const float* in_image, int32_t oy, float* out) {
  const int32_t channels = params->channels;
  const size_t row_stride = (size_t)params->input_width * (size_t)channels;
  int32_t ox, c, y, x, y0, y1, x0, x1;
  const int32_t iy = microaot_pool_2d_window(oy, params->stride_height, params->padding_height, params->filter_height,
                                             params->input_height, &y0, &y1);
  for (ox = 0; ox < params->output_width; ++ox) {
    const int32_t ix = microaot_pool_2d_window(ox, params->stride_width, params->padding_width, params->filter_width,
                                               params->input_width, &x0, &x1);
    for (c = 0; c < channels; ++c) {
      float max = -FLT_MAX; /* TFLite starts from the lowest finite float */
      for (y = y0; y < y1; ++y) {
        const float* in_row = in_image + (size_t)(iy + y) * row_stride + c;
        for (x = x0; x < x1; ++x) {
          const float value = in_row[(size_t)(ix + x) * (size_t)channels];
          if (value > max) max = value; /* NaN never replaces the running max, as std::max */
        }
      }
      *out++ = microaot_clamp_f32(max, params->activation_min, params->activation_max);
    }
  }
}

/* Every output row in order, straight into the output, or (overlap flavor) into row_scratch and then copied
 * to its place, so that no output byte is stored before the last input read of its row. */
static void max_pool_2d_rows(const microaot_pool_2d_params_f32* params, const float* input, float* output,
                             float* row_scratch) {
  const size_t image_size = (size_t)params->input_height * (size_t)params->input_width * (size_t)params->channels;
  const size_t row_size = (size_t)params->output_width * (size_t)params->channels;
  int32_t b, oy;
  for (b = 0; b < params->batches; ++b) {
    for (oy = 0; oy < params->output_height; ++oy) {
      float* row = output + ((size_t)b * (size_t)params->output_height + (size_t)oy) * row_size;
      max_pool_2d_row(params, input + (size_t)b * image_size, oy, row_scratch != NULL ? row_scratch : row);
      if (row_scratch != NULL) memcpy(row, row_scratch, row_size * sizeof(float));
    }
  }
}

void microaot_max_pool_2d_f32(const microaot_pool_2d_params_f32* params, const float* input, float* output) {
  max_pool_2d_rows(params, input, output, NULL);
}

void microaot_max_pool_2d_f32_overlap(const microaot_pool_2d_params_f32* params, const float* input, float* output,
                                      void* scratch) {
  max_pool_2d_rows(params, input, output, (float*)scratch);
}
