/* The window of one output pixel of a CONV_2D, gathered in filter order (rows, columns, channels: the im2col
 * row of the pixel), for the kernels that turn a k x k convolution into a matrix product. int8: taps outside
 * the image hold the input zero point, which with the input offset added is 0, so the window's product equals
 * the reference's, which skips those taps; int16 (16x8, symmetric): they hold 0. */
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

/* The taps [*lo, *hi) of a filter row of output column ox that lie inside the image, for a row without column
 * dilation (its taps adjacent): the ones before lo lie left of the image, the ones from hi on right of it. */
static inline void microaot_conv_window_row_inside(const microaot_conv_2d_params_q* p, int32_t ox, int32_t* lo,
                                                   int32_t* hi) {
  const int32_t first_x = ox * p->stride_width - p->pad_width;
  const int32_t before = first_x < 0 ? -first_x : 0, after = p->input_width - first_x;
  *lo = before < p->filter_width ? before : p->filter_width;
  *hi = after < *lo ? *lo : after < p->filter_width ? after : p->filter_width;
}

/* Filter row `fy` of the window of output column ox (input row in_y) into `dst`, elements of `elem` bytes (a
 * tap outside the image: every byte `fill`): without column dilation the taps inside the image are one copy
 * (an edge window's padding a fill either side), else tap by tap. */
static inline void microaot_conv_window_row_elems(const microaot_conv_2d_params_q* p, const void* image_row,
                                                  int32_t in_y_inside, int32_t ox, void* dst_row, size_t elem,
                                                  int fill) {
  const size_t tap = (size_t)p->input_depth * elem;
  const unsigned char* src = (const unsigned char*)image_row;
  unsigned char* dst = (unsigned char*)dst_row;
  const int32_t first_x = ox * p->stride_width - p->pad_width;
  int32_t fx;
  if (!in_y_inside) {
    memset(dst, fill, (size_t)p->filter_width * tap);
  } else if (p->dilation_width == 1) {
    int32_t lo, hi;
    microaot_conv_window_row_inside(p, ox, &lo, &hi);
    memset(dst, fill, (size_t)lo * tap);
    if (hi > lo) memcpy(dst + (size_t)lo * tap, src + (size_t)(first_x + lo) * tap, (size_t)(hi - lo) * tap);
    memset(dst + (size_t)hi * tap, fill, (size_t)(p->filter_width - hi) * tap);
  } else {
    for (fx = 0; fx < p->filter_width; ++fx, dst += tap) {
      const int32_t in_x = first_x + fx * p->dilation_width;
      if (in_x >= 0 && in_x < p->input_width) {
        memcpy(dst, src + (size_t)in_x * tap, tap);
      } else {
        memset(dst, fill, tap);
      }
    }
  }
}

/* The window of output pixel (oy, ox) of `image` (one batch, elements of `elem` bytes) into `window`
 * (microaot_conv_window_size elements), taps outside the image filled with the byte `fill`. */
static inline void microaot_conv_window_elems(const microaot_conv_2d_params_q* p, const void* image, int32_t oy,
                                              int32_t ox, void* window, size_t elem, int fill) {
  const size_t row_bytes = (size_t)p->filter_width * (size_t)p->input_depth * elem;
  const size_t image_row_bytes = (size_t)p->input_width * (size_t)p->input_depth * elem;
  unsigned char* dst = (unsigned char*)window;
  int32_t fy;
  for (fy = 0; fy < p->filter_height; ++fy, dst += row_bytes) {
    const int32_t in_y = oy * p->stride_height - p->pad_height + fy * p->dilation_height;
    const int inside = in_y >= 0 && in_y < p->input_height;
    const unsigned char* image_row = (const unsigned char*)image + (size_t)(inside ? in_y : 0) * image_row_bytes;
    microaot_conv_window_row_elems(p, image_row, inside, ox, dst, elem, fill);
  }
}

/* Elements [begin, begin + n) of output pixel (oy, ox)'s window (as microaot_conv_window_elems orders it) into
 * `dst`, tap by tap (a long window's piece: its taps are long), taps outside the image filled with the byte
 * `fill`. */
static inline void microaot_conv_window_part_elems(const microaot_conv_2d_params_q* p, const void* image, int32_t oy,
                                                   int32_t ox, int32_t begin, int32_t n, void* dst, size_t elem,
                                                   int fill) {
  const int32_t depth = p->input_depth;
  unsigned char* out = (unsigned char*)dst;
  while (n > 0) {
    const int32_t tap = begin / depth, channel = begin % depth, take = n < depth - channel ? n : depth - channel;
    const int32_t in_y = oy * p->stride_height - p->pad_height + tap / p->filter_width * p->dilation_height;
    const int32_t in_x = ox * p->stride_width - p->pad_width + tap % p->filter_width * p->dilation_width;
    const size_t bytes = (size_t)take * elem;
    if (in_y < 0 || in_y >= p->input_height || in_x < 0 || in_x >= p->input_width) {
      memset(out, fill, bytes);
    } else {
      const size_t at = ((size_t)in_y * (size_t)p->input_width + (size_t)in_x) * (size_t)depth + (size_t)channel;
      memcpy(out, (const unsigned char*)image + at * elem, bytes);
    }
    begin += take, n -= take, out += bytes;
  }
}

/* Filter row `fy` of an int8 window: taps outside the image hold the input zero point. */
static inline void microaot_conv_window_row(const microaot_conv_2d_params_q* p, const int8_t* image_row,
                                            int32_t in_y_inside, int32_t ox, int8_t* dst) {
  microaot_conv_window_row_elems(p, image_row, in_y_inside, ox, dst, 1, (int8_t)-p->input_offset);
}

/* The int8 window of output pixel (oy, ox) of `image` (one batch) into `window` (microaot_conv_window_size bytes). */
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
