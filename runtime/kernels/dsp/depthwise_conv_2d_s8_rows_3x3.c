/* The DSP int8 DEPTHWISE_CONV_2D's rows of a 3x3 filter without dilation, one channel group at a time
 * (microaot/internal/dsp_depthwise.h): windows wholly inside the image unrolled, edge windows by their in-image
 * taps only, as the reference does. Out of line in a source of its own, linked by the full DSP kernel
 * (dsp/depthwise_conv_2d_s8.c) and the palette kernel (dsp/depthwise_conv_2d_s8_widened_palette.c), so that a
 * model compiles it once whichever it calls. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "microaot/internal/dsp_depthwise.h"
#include "microaot/internal/window.h"

static const int32_t* dw_bias(const dw_group* g) { return g->bias_weights; }

static const uint32_t (*dw_weights(const dw_group* g))[2] {
  return (const uint32_t(*)[2])(const void*)(g->bias_weights + 4);
}

/* The windows wholly inside the image of one output row, unrolled: `in` at the first one's top-left tap (the
 * group's channel), `pixel_stride` bytes to the next; outputs [out, end) `depth` bytes apart. `full` (a constant
 * at each call) whether the clamp is [-128, 127]: the test once per row, not per pixel. */
static inline __attribute__((always_inline)) void dw_interior_3x3(const dw_group* g, const int8_t* in,
                                                                  size_t pixel_stride, size_t depth, size_t row,
                                                                  uint32_t offset, int8_t* out,
                                                                  const int8_t* end, int full) {
  int32_t s[4];
  for (; out != end; in += pixel_stride, out += depth) {
    if (full) {
      microaot_dsp_window_3x3_store8x4(in, depth, row, g->bias_weights, offset, out);
    } else {
      microaot_dsp_mac4_lanes_3x3(in, depth, row, g->bias_weights, offset, s);
      dw_store4(g, s, out);
    }
  }
}

/* What the pixels of one output row of a channel group need, for a 3x3 filter without dilation. */
typedef struct {
  const dw_group* g;
  const int8_t* in;        /* the window's first in-image input row, at the group's channel */
  const uint32_t (*w)[2];  /* the widened weights of that row's taps */
  size_t depth, row;       /* bytes from one input pixel (row) to the next */
  int32_t rows;            /* input rows inside the window (0 to 3) */
  int32_t input_width;
  uint32_t offset;         /* the input offset in both 16-bit lanes */
} dw_row_3x3;

/* One output pixel whose window starts at input column `origin` and is clipped by the image's edges: its
 * in-image taps only (the reference skips the others); no tap inside leaves the bias. The shapes of the edges
 * of a map without padding above and left (stride 2 over an even map: SAME pads below and right only) unrolled,
 * any other tap row by tap row. Not inlined, with the row's constants in one struct: the sums stay in registers
 * and the call is cheap. */
static __attribute__((noinline)) void dw_pixel_clipped(const dw_row_3x3* r, int32_t origin, int8_t* out) {
  const int32_t begin = origin < 0 ? -origin : 0;
  const int32_t n = (r->input_width - origin < 3 ? r->input_width - origin : 3) - begin;
  const size_t depth = r->depth, row = r->row;
  const int32_t* bias = dw_bias(r->g);
  int32_t k, s[4] = {bias[0], bias[1], bias[2], bias[3]};
  if (n > 0) {
    const int8_t* in = r->in + (size_t)(origin + begin) * depth;
    const uint32_t(*w)[2] = r->w + begin;
    if (r->rows == 3 && n == 2) {
      microaot_dsp_mac4_lanes_3x2(in, depth, row, w, r->offset, s);
    } else if (r->rows == 2 && n == 3) {
      microaot_dsp_mac4_lanes_2x3(in, depth, row, w, r->offset, s);
    } else if (r->rows == 2 && n == 2) {
      microaot_dsp_mac4_lanes_2x2(in, depth, row, w, r->offset, s);
    } else {
      for (k = 0; k < r->rows; ++k, in += row, w += 3) {
        if (n == 3) {
          microaot_dsp_mac4_lanes_x3(in, depth, w, r->offset, s);
        } else if (n == 2) {
          microaot_dsp_mac4_lanes_x2(in, depth, w, r->offset, s);
        } else {
          microaot_dsp_mac4_lanes(microaot_dsp_load4(in), w[0][0], w[0][1], r->offset, s);
        }
      }
    }
  }
  dw_store4_tested(r->g, s, out);
}

/* The window of one output position of a 3x3 filter without dilation along one axis: comparisons instead
 * of microaot_window_of's divisions. */
static inline microaot_window dw_window_3(int32_t origin, int32_t in_size) {
  microaot_window w;
  w.origin = origin;
  w.begin = origin < 0 ? -origin : 0;
  w.end = in_size - origin < 3 ? in_size - origin : 3;
  return w;
}

/* The output columns whose window lies wholly inside the image: [*first, *end). */
static void dw_interior_columns(const dw_params* p, int32_t* first, int32_t* end) {
  const int32_t last_origin = p->input_width - 1 - (p->filter_width - 1) * p->dilation_width;
  *first = (p->pad_width + p->stride_width - 1) / p->stride_width;
  *end = last_origin + p->pad_width < 0 ? 0 : (last_origin + p->pad_width) / p->stride_width + 1;
  if (*end > p->output_width) *end = p->output_width;
  if (*first > *end) *first = *end;
}

/* One output row of a 3x3 filter without dilation for the group, its window's rows `y`: the columns
 * [first, end) whose window lies inside the image unrolled, the others clipped. `image` and `out` start at the
 * group's channel. Not inlined: its loops keep their own registers (inlined, the interior loop spilled). */
static __attribute__((noinline)) void dw_group_row_3x3(const dw_params* p, const dw_group* g, const int8_t* image,
                                                       const microaot_window* y, int32_t first, int32_t end,
                                                       int8_t* out) {
  const size_t depth = (size_t)p->output_depth, row = (size_t)p->input_width * depth;
  const int32_t rows = y->end > y->begin ? y->end - y->begin : 0, stride = p->stride_width;
  const dw_row_3x3 r = {g,   image + (size_t)(rows > 0 ? y->origin + y->begin : 0) * row,
                        dw_weights(g) + (rows > 0 ? 3 * y->begin : 0),
                        depth, row, rows, p->input_width, microaot_dsp_pack16(p->input_offset, p->input_offset)};
  int32_t ox;
  if (rows != 3) first = end = 0; /* a top or bottom row (or none inside): every column clipped */
  for (ox = 0; ox < first; ++ox) dw_pixel_clipped(&r, ox * stride - p->pad_width, out + (size_t)ox * depth);
  if (first < end) {
    const int8_t* in = r.in + (size_t)(first * stride - p->pad_width) * depth;
    if (g->full_range) {
      dw_interior_3x3(g, in, (size_t)stride * depth, depth, row, r.offset, out + (size_t)first * depth,
                      out + (size_t)end * depth, 1);
    } else {
      dw_interior_3x3(g, in, (size_t)stride * depth, depth, row, r.offset, out + (size_t)first * depth,
                      out + (size_t)end * depth, 0);
    }
  }
  for (ox = end; ox < p->output_width; ++ox) {
    dw_pixel_clipped(&r, ox * stride - p->pad_width, out + (size_t)ox * depth); /* none inside: the bias */
  }
}

/* The batch and row counted on instead of divided out, and a row's overhead small (KWS's rows are 5 pixels). */
void microaot_dsp_depthwise_group_rows_3x3(const dw_params* p, const dw_group* g, const int8_t* input,
                                           int8_t* output, size_t row_stride, int32_t row_begin, int32_t row_end,
                                           int8_t* scratch) {
  const size_t image_size = (size_t)p->input_height * (size_t)p->input_width * (size_t)p->input_depth;
  const int8_t* image = input + (size_t)(row_begin / p->output_height) * image_size;
  int32_t row, oy = row_begin % p->output_height, first, end;
  dw_interior_columns(p, &first, &end);
  for (row = row_begin; row < row_end; ++row, output += row_stride) {
    const microaot_window y = dw_window_3(oy * p->stride_height - p->pad_height, p->input_height);
    dw_group_row_3x3(p, g, image, &y, first, end, scratch != NULL ? scratch : output);
    if (scratch != NULL) dw_copy_channels(p, scratch, output, 4);
    if (++oy == p->output_height) {
      oy = 0;
      image += image_size;
    }
  }
}
