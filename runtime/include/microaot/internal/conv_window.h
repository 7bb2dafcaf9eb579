/* The window of one output pixel of an int8 CONV_2D, gathered in filter order (rows, columns, channels: the
 * im2col row of the pixel), for the kernels that turn a k x k convolution into a matrix product. Taps outside
 * the image hold the input zero point: with the input offset added it is 0, so the window's product equals
 * the reference's, which skips those taps. */
#ifndef MICROAOT_CONV_WINDOW_H
#define MICROAOT_CONV_WINDOW_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "microaot/kernels/conv.h"

/* Elements of one window: filter_height * filter_width * input_depth. */
static inline int32_t microaot_conv_window_size(const microaot_conv_2d_params_q* p) {
  return p->filter_height * p->filter_width * p->input_depth;
}

/* Filter row `fy` of the window of output column ox (input row in_y) into `dst`: one copy when the row's taps
 * are adjacent and all inside the image (no column dilation), else tap by tap. */
static inline void microaot_conv_window_row(const microaot_conv_2d_params_q* p, const int8_t* image_row,
                                            int32_t in_y_inside, int32_t ox, int8_t* dst) {
  const size_t depth = (size_t)p->input_depth;
  const int8_t zero_point = (int8_t)-p->input_offset;
  const int32_t first_x = ox * p->stride_width - p->pad_width;
  const int32_t last_x = first_x + (p->filter_width - 1) * p->dilation_width;
  int32_t fx;
  if (in_y_inside && p->dilation_width == 1 && first_x >= 0 && last_x < p->input_width) {
    memcpy(dst, image_row + (size_t)first_x * depth, (size_t)p->filter_width * depth);
    return;
  }
  for (fx = 0; fx < p->filter_width; ++fx, dst += depth) {
    const int32_t in_x = first_x + fx * p->dilation_width;
    if (in_y_inside && in_x >= 0 && in_x < p->input_width) {
      memcpy(dst, image_row + (size_t)in_x * depth, depth);
    } else {
      memset(dst, zero_point, depth);
    }
  }
}

/* The window of output pixel (oy, ox) of `image` (one batch) into `window` (microaot_conv_window_size bytes). */
static inline void microaot_conv_window(const microaot_conv_2d_params_q* p, const int8_t* image, int32_t oy,
                                        int32_t ox, int8_t* window) {
  const size_t row_bytes = (size_t)p->filter_width * (size_t)p->input_depth;
  int32_t fy;
  for (fy = 0; fy < p->filter_height; ++fy, window += row_bytes) {
    const int32_t in_y = oy * p->stride_height - p->pad_height + fy * p->dilation_height;
    const int inside = in_y >= 0 && in_y < p->input_height;
    const int8_t* image_row = image + (size_t)(inside ? in_y : 0) * (size_t)p->input_width * (size_t)p->input_depth;
    microaot_conv_window_row(p, image_row, inside, ox, window);
  }
}

#endif /* MICROAOT_CONV_WINDOW_H */
