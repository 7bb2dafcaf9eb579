/* AVERAGE_POOL_2D, int8: integer mean of the in-bounds window elements (TFLite Micro's reference rounding). */
#include <string.h>

#include "microaot/fixedpoint.h"
#include "microaot/kernels/pooling.h"

/* sum / count rounded to nearest, ties away from zero; C division truncates toward zero. */
static int32_t rounded_mean(int32_t sum, int32_t count) {
  if (count <= 0) return 0; /* unreachable: the compiler proves every window is non-empty */
  return sum > 0 ? (sum + count / 2) / count : (sum - count / 2) / count;
}

/* One output row (all x and channels) of the image at in_image, written to out. */
static void average_pool_2d_row(const microaot_pool_2d_params_s8* params, const int8_t* in_image, int32_t oy,
                                int8_t* out) {
  const int32_t channels = params->channels;
  const size_t row_stride = (size_t)params->input_width * (size_t)channels;
  int32_t ox, c, y, x, y0, y1, x0, x1;
  const int32_t iy = microaot_pool_2d_window(oy, params->stride_height, params->padding_height, params->filter_height,
                                             params->input_height, &y0, &y1);
  for (ox = 0; ox < params->output_width; ++ox) {
    const int32_t ix = microaot_pool_2d_window(ox, params->stride_width, params->padding_width, params->filter_width,
                                               params->input_width, &x0, &x1);
    const int32_t count = (y1 - y0) * (x1 - x0);
    for (c = 0; c < channels; ++c) {
      int32_t sum = 0;
      for (y = y0; y < y1; ++y) {
        const int8_t* in_row = in_image + (size_t)(iy + y) * row_stride + c;
        for (x = x0; x < x1; ++x) sum += in_row[(size_t)(ix + x) * (size_t)channels];
      }
      *out++ = (int8_t)microaot_clamp_s32(rounded_mean(sum, count), params->activation_min, params->activation_max);
    }
  }
}

/* Every output row in order, straight into the output, or (overlap flavor) into row_scratch and then copied
 * to its place, so that no output byte is stored before the last input read of its row. */
static void average_pool_2d_rows(const microaot_pool_2d_params_s8* params, const int8_t* input, int8_t* output,
                                 int8_t* row_scratch) {
  const size_t image_size = (size_t)params->input_height * (size_t)params->input_width * (size_t)params->channels;
  const size_t row_size = (size_t)params->output_width * (size_t)params->channels;
  int32_t b, oy;
  for (b = 0; b < params->batches; ++b) {
    for (oy = 0; oy < params->output_height; ++oy) {
      int8_t* row = output + ((size_t)b * (size_t)params->output_height + (size_t)oy) * row_size;
      average_pool_2d_row(params, input + (size_t)b * image_size, oy, row_scratch != NULL ? row_scratch : row);
      if (row_scratch != NULL) memcpy(row, row_scratch, row_size * sizeof(int8_t));
    }
  }
}

void microaot_average_pool_2d_s8(const microaot_pool_2d_params_s8* params, const int8_t* input, int8_t* output) {
  average_pool_2d_rows(params, input, output, NULL);
}

void microaot_average_pool_2d_s8_overlap(const microaot_pool_2d_params_s8* params, const int8_t* input, int8_t* output,
                                         void* scratch) {
  average_pool_2d_rows(params, input, output, (int8_t*)scratch);
}
