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

/* The windows wholly inside the image of one output row, unrolled, for a clamp narrower than [-128, 127]: `in` at
 * the first one's top-left tap (the group's channel), `pixel_stride` bytes to the next; outputs [out, end)
 * `depth` bytes apart. */
static void dw_interior_3x3(const dw_group* g, const int8_t* in, size_t pixel_stride, size_t depth, size_t row,
                            uint32_t offset, int8_t* out, const int8_t* end) {
  int32_t s[4];
  for (; out != end; in += pixel_stride, out += depth) {
    microaot_dsp_mac4_lanes_3x3(in, depth, row, g->bias_weights, offset, s);
    dw_store4(g, s, out);
  }
}

/* The windows [out, end) of one output row with 3 columns in the image and `rows` (3 or 2, a constant at each
 * call) from the top one (none clipped above or left), for the clamp [-128, 127]: each one statement from the
 * bias to the stores. `in` at the first one's top-left tap, `pixel_stride` bytes to the next. Returns `in` at the
 * window after the last. */
static inline __attribute__((always_inline)) const int8_t* dw_windows_full(const dw_group* g, const int8_t* in,
                                                                           size_t pixel_stride, size_t depth,
                                                                           size_t row, uint32_t offset, int8_t* out,
                                                                           const int8_t* end, int rows) {
  /* each statement leaves `in` rows - 1 rows on */
  const ptrdiff_t next = (ptrdiff_t)pixel_stride - (ptrdiff_t)((size_t)(rows - 1) * row);
  for (; out != end; out += depth, in += next) {
    if (rows == 3) {
      in = microaot_dsp_window_3x3_store8x4(in, depth, row, g->bias_weights, offset, out);
    } else {
      in = microaot_dsp_window_2x3_store8x4(in, depth, row, g->bias_weights, offset, out);
    }
  }
  return in;
}

/* A layer's row constants, once per call: the output columns [first, first + inside) whose windows have 3
 * columns in the image, then `edge` (0 or 1) whose window has the first 2 (TF's "same" at stride 2 over an even
 * map pads below and right only: every clipped window is one of these or in the last row). */
typedef struct {
  const dw_group* g;
  size_t depth, row, step; /* bytes from one input pixel (row, window) to the next */
  int32_t first, inside, edge;
  uint32_t offset; /* the input offset in both 16-bit lanes */
} dw_row_full_at;

/* Columns [first, first + inside + edge) of an output row of the clamp [-128, 127] whose windows have `rows` (3
 * or 2) rows in the image from their top one, `in` at the first one's top-left tap (the group's channel): no
 * call, no struct per window. Not inlined: its loop keeps its own registers. */
static __attribute__((noinline)) void dw_row_full(const dw_row_full_at* f, const int8_t* in, int8_t* out,
                                                  int32_t rows) {
  int8_t* const end = out + (size_t)f->inside * f->depth;
  if (rows == 3) {
    in = dw_windows_full(f->g, in, f->step, f->depth, f->row, f->offset, out, end, 3);
    if (f->edge) (void)microaot_dsp_window_3x2_store8x4(in, f->depth, f->row, f->g->bias_weights, f->offset, end);
  } else {
    in = dw_windows_full(f->g, in, f->step, f->depth, f->row, f->offset, out, end, 2);
    if (f->edge) (void)microaot_dsp_window_2x2_store8x4(in, f->depth, f->row, f->g->bias_weights, f->offset, end);
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

/* One output row of a 3x3 filter without dilation for the group, its window's rows `y`: the windows inside the
 * image unrolled, and with the clamp [-128, 127] those clipped by the right edge to 2 columns or by the bottom to
 * 2 rows (dw_row_full); the others clipped tap row by tap row. `image` and `out` start at the group's channel.
 * Not inlined: its loops keep their own registers (inlined, the interior loop spilled). */
static __attribute__((noinline)) void dw_group_row_3x3(const dw_params* p, const dw_row_full_at* f,
                                                       const int8_t* image, const microaot_window* y, int8_t* out) {
  const dw_group* g = f->g;
  const size_t depth = f->depth, row = f->row;
  const int32_t rows = y->end > y->begin ? y->end - y->begin : 0, stride = p->stride_width;
  const dw_row_3x3 r = {g,   image + (size_t)(rows > 0 ? y->origin + y->begin : 0) * row,
                        dw_weights(g) + (rows > 0 ? 3 * y->begin : 0),
                        depth, row, rows, p->input_width, f->offset};
  const int32_t shaped = g->full_range && y->begin == 0 && rows >= 2;
  int32_t ox, done = 0; /* columns [0, done) written */
  if (rows == 3 || shaped) { /* else a top or bottom row (or none inside): every column clipped */
    const int32_t first = f->first;
    for (ox = 0; ox < first; ++ox) dw_pixel_clipped(&r, ox * stride - p->pad_width, out + (size_t)ox * depth);
    done = first + f->inside + (shaped ? f->edge : 0);
    if (done > first) {
      const int8_t* in = r.in + (size_t)(first * stride - p->pad_width) * depth;
      if (shaped) {
        dw_row_full(f, in, out + (size_t)first * depth, rows);
      } else {
        dw_interior_3x3(g, in, f->step, depth, row, r.offset, out + (size_t)first * depth, out + (size_t)done * depth);
      }
    }
  }
  for (ox = done; ox < p->output_width; ++ox) {
    dw_pixel_clipped(&r, ox * stride - p->pad_width, out + (size_t)ox * depth); /* none inside: the bias */
  }
}

/* The batch and row counted on instead of divided out, and a row's overhead small (KWS's rows are 5 pixels):
 * the rows' constants once, and a row without clipped windows but dw_row_full's straight there. */
void microaot_dsp_depthwise_group_rows_3x3(const dw_params* p, const dw_group* g, const int8_t* input,
                                           int8_t* output, size_t row_stride, int32_t row_begin, int32_t row_end,
                                           int8_t* scratch) {
  const size_t image_size = (size_t)p->input_height * (size_t)p->input_width * (size_t)p->input_depth;
  const size_t depth = (size_t)p->output_depth, row_bytes = (size_t)p->input_width * depth;
  const int8_t* image = input + (size_t)(row_begin / p->output_height) * image_size;
  int32_t row, oy = row_begin % p->output_height, first, end, edge, whole;
  dw_interior_columns(p, &first, &end);
  /* a window from column end with 2 columns in the image (none to its left outside) */
  edge = end < p->output_width && end * p->stride_width - p->pad_width == p->input_width - 2 &&
         end * p->stride_width >= p->pad_width;
  whole = g->full_range && first == 0 && end + edge == p->output_width; /* first 0: no padding left */
  {
    const dw_row_full_at f = {g,     depth, row_bytes, (size_t)p->stride_width * depth, first, end - first, edge,
                              microaot_dsp_pack16(p->input_offset, p->input_offset)};
    for (row = row_begin; row < row_end; ++row, output += row_stride) {
      const microaot_window y = dw_window_3(oy * p->stride_height - p->pad_height, p->input_height);
      int8_t* const out = scratch != NULL ? scratch : output;
      if (whole && y.begin == 0 && y.end >= 2) { /* none clipped above (a row of 3 or 2 in the image) */
        dw_row_full(&f, image + (size_t)y.origin * row_bytes, out, y.end);
      } else {
        dw_group_row_3x3(p, &f, image, &y, out);
      }
      if (scratch != NULL) dw_copy_channels(p, scratch, output, 4);
      if (++oy == p->output_height) {
        oy = 0;
        image += image_size;
      }
    }
  }
}
