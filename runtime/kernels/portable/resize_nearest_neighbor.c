/* RESIZE_NEAREST_NEIGHBOR for every element type: each output pixel is a copy of one input pixel. An output row
 * whose source row is the previous one's (an upscale) is one copy of that output row; a pixel of fewer than 16
 * bytes goes byte by byte (a memcpy of a run-time size is a library call). */
#include <stddef.h>
#include <string.h>

#include "microaot/kernels/resize.h"

static uint8_t* resize_row(const microaot_resize_nearest_neighbor_params* p, const uint8_t* row, size_t pixel,
                           uint8_t* out) {
  int32_t x;
  size_t k;
  if (pixel >= 16) {
    for (x = 0; x < p->output_width; ++x, out += pixel) memcpy(out, row + (size_t)p->source_cols[x] * pixel, pixel);
    return out;
  }
  for (x = 0; x < p->output_width; ++x) {
    const uint8_t* from = row + (size_t)p->source_cols[x] * pixel;
    for (k = 0; k < pixel; ++k) *out++ = from[k];
  }
  return out;
}

void microaot_resize_nearest_neighbor(const microaot_resize_nearest_neighbor_params* params, const void* input,
                                      void* output) {
  const size_t pixel = (size_t)params->pixel_bytes;
  const size_t row_bytes = (size_t)params->input_width * pixel;
  const size_t image_bytes = (size_t)params->input_height * row_bytes;
  const size_t out_row_bytes = (size_t)params->output_width * pixel;
  const uint8_t* image = (const uint8_t*)input;
  uint8_t* out = (uint8_t*)output;
  for (int32_t b = 0; b < params->batches; ++b, image += image_bytes) {
    for (int32_t y = 0; y < params->output_height; ++y) {
      if (y > 0 && params->source_rows[y] == params->source_rows[y - 1]) {
        memcpy(out, out - out_row_bytes, out_row_bytes);
        out += out_row_bytes;
        continue;
      }
      out = resize_row(params, image + (size_t)params->source_rows[y] * row_bytes, pixel, out);
    }
  }
}
