/* RESIZE_NEAREST_NEIGHBOR for every element type: each output pixel is a copy of one input pixel. */
#include <stddef.h>
#include <string.h>

#include "microaot/kernels/resize.h"

void microaot_resize_nearest_neighbor(const microaot_resize_nearest_neighbor_params* params, const void* input,
                                      void* output) {
  const size_t pixel = (size_t)params->pixel_bytes;
  const size_t row_bytes = (size_t)params->input_width * pixel;
  const size_t image_bytes = (size_t)params->input_height * row_bytes;
  const uint8_t* image = (const uint8_t*)input;
  uint8_t* out = (uint8_t*)output;
  for (int32_t b = 0; b < params->batches; ++b, image += image_bytes) {
    for (int32_t y = 0; y < params->output_height; ++y) {
      const uint8_t* row = image + (size_t)params->source_rows[y] * row_bytes;
      for (int32_t x = 0; x < params->output_width; ++x, out += pixel) {
        memcpy(out, row + (size_t)params->source_cols[x] * pixel, pixel);
      }
    }
  }
}
