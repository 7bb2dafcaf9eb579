/* The packed k x k CONV_2D's windows (microaot/internal/templates/packed_conv_2d_kxk.h, and the k x k palette
 * kernel, kernels/dsp/conv_2d_s8_packed_kxk_palette.c, which runs the same rows against a decoded block): an output
 * pixel's window gathered in filter order (padding taps as the input zero point) and widened for
 * microaot_packed_rows of the including source's weight form (MICROAOT_PACKED_WIDE_WEIGHTS or
 * MICROAOT_PACKED_RAW_WEIGHTS, defined before the include). */
#include <stddef.h>
#include <string.h>

#include "microaot/internal/conv_window.h"
#include "microaot/internal/packed_widen3.h"
#include "microaot/packed_matmul.h"

typedef microaot_conv_2d_params_q conv_params;

/* Where the scratch's parts start for a window of one chunk (convolve): the widened rows, then the gathered window
 * (or filter row), and the gathered window's length in whole groups (computed once: after a gather the compiler
 * cannot know p unchanged). */
typedef struct {
  uint32_t* rows;
  int8_t* gathered;
  int32_t gathered_bytes;
} window_scratch;

/* n bytes from src to dst a word at a time (the windows' runs are short: no library call). */
static void copy_run(int8_t* dst, const int8_t* src, int32_t n) {
  for (; n >= 4; n -= 4, dst += 4, src += 4) {
    const uint32_t word = microaot_dsp_load4(src);
    memcpy(dst, &word, 4);
  }
  for (; n > 0; --n) *dst++ = *src++;
}

/* Input depths from which an edge window's runs go through memset and memcpy: below, a call costs more than
 * the few bytes it moves. */
#define MICROAOT_PACKED_LIBRARY_TAP 16

/* n bytes of dst set to `byte` (the padding of an edge window's row of a few channels: no library call). */
static void fill_run(int8_t* dst, int8_t byte, int32_t n) {
  const uint32_t word = 0x01010101u * (uint8_t)byte;
  for (; n >= 4; n -= 4, dst += 4) memcpy(dst, &word, 4);
  if (n >= 2) memcpy(dst, &word, 2), dst += 2; /* not a byte loop: GCC would make it a call of memset */
  if (n % 2 != 0) *dst = byte;
}

/* A row of an edge window without column dilation: `left` bytes of padding, `mid` bytes from src, `right` bytes of
 * padding; through the library for taps of many channels (`library`). */
static void edge_row(int8_t* dst, const int8_t* src, int8_t zero, int32_t left, int32_t mid, int32_t right,
                     int library) {
  if (library) {
    if (left > 0) memset(dst, zero, (size_t)left);
    memcpy(dst + left, src, (size_t)mid);
    if (right > 0) memset(dst + left + mid, zero, (size_t)right);
    return;
  }
  fill_run(dst, zero, left);
  copy_run(dst + left, src, mid);
  fill_run(dst + left + mid, zero, right);
}

/* Filter row fy's taps straight from the image when they are all inside it (a run of whole groups), NULL when
 * the row must be gathered. Inlined into both callers: a call per window costs more than its few tests. */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline const int8_t* direct_row(const conv_params* p, const int8_t* image, int32_t oy, int32_t ox, int32_t fy) {
  const int32_t in_y = oy * p->stride_height - p->pad_height + fy * p->dilation_height;
  const int32_t first_x = ox * p->stride_width - p->pad_width;
  const int32_t last_x = first_x + (p->filter_width - 1) * p->dilation_width;
  if (in_y < 0 || in_y >= p->input_height || p->dilation_width != 1 || first_x < 0 || last_x >= p->input_width) {
    return NULL;
  }
  return image + ((size_t)in_y * (size_t)p->input_width + (size_t)first_x) * (size_t)p->input_depth;
}

/* An output row's filter rows with their padding (microaot_packed_padded_rows_bytes): `bytes` each (the columns
 * its windows span), from `rows` on. */
typedef struct {
  int8_t* rows;
  size_t bytes;
} padded_rows;

/* The padded rows' padding, once per call: the input zero point everywhere (pad_rows then writes the image's
 * columns alone, the same for every output row). */
static inline void pad_rows_start(const conv_params* p, const padded_rows* r) {
  memset(r->rows, (int8_t)-p->input_offset, (size_t)p->filter_height * r->bytes);
}

/* Output row oy's filter rows (of one image) into r over the image's columns: each its image row, or the input zero
 * point where it lies outside the image. Out of line: once per output row. */
#if defined(__GNUC__)
__attribute__((noinline, unused)) /* the palette and transpose kernels have no use */
#endif
static void pad_rows(const conv_params* p, const int8_t* image, int32_t oy, const padded_rows* r) {
  const size_t image_row = (size_t)p->input_width * (size_t)p->input_depth;
  const int32_t span = (int32_t)r->bytes / p->input_depth, end = p->input_width + p->pad_width;
  /* The image's columns among the span's: [lo, hi); where any is, lo is pad_width, the image's first column. */
  const int32_t lo = p->pad_width < span ? p->pad_width : span, hi = end < lo ? lo : end < span ? end : span;
  const size_t bytes = (size_t)(hi - lo) * (size_t)p->input_depth;
  int32_t in_y = oy * p->stride_height - p->pad_height, fy;
  int8_t* row = r->rows + (size_t)lo * (size_t)p->input_depth;
  for (fy = 0; fy < p->filter_height; ++fy, row += r->bytes, in_y += p->dilation_height) {
    if (in_y < 0 || in_y >= p->input_height) { /* no row pointer outside the image */
      memset(row, (int8_t)-p->input_offset, bytes);
    } else {
      memcpy(row, image + (size_t)in_y * image_row, bytes);
    }
  }
}

/* The window of output pixel (oy, ox), one with taps outside the image, as int8 into `window`, row by row: a row
 * outside the image the input zero point, else its taps inside the image between the padding's (the same columns
 * for every row), or tap by tap with a column dilation. Out of line: one call per edge window, and gather_window's
 * fast loop keeps its registers. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static void gather_edge_window(const conv_params* p, const int8_t* image, int32_t oy, int32_t ox, int8_t* window) {
  const int32_t depth = p->input_depth, width = p->filter_width, run = width * depth;
  const size_t image_row = (size_t)p->input_width * (size_t)depth;
  const int8_t zero = (int8_t)-p->input_offset;
  const int32_t first_x = ox * p->stride_width - p->pad_width;
  const int library = depth >= MICROAOT_PACKED_LIBRARY_TAP;
  int32_t in_y = oy * p->stride_height - p->pad_height, lo, hi, fy;
  size_t from;
  microaot_conv_window_row_inside(p, ox, &lo, &hi);
  from = (size_t)(hi > lo ? first_x + lo : 0) * (size_t)depth; /* the same columns for every row */
  for (fy = 0; fy < p->filter_height; ++fy, window += run, in_y += p->dilation_height) {
    if (in_y < 0 || in_y >= p->input_height) { /* no row pointer: it would lie outside the image */
      fill_run(window, zero, run);
    } else if (p->dilation_width != 1) {
      microaot_conv_window_row(p, image + (size_t)in_y * image_row, 1, ox, window);
    } else {
      edge_row(window, image + (size_t)in_y * image_row + from, zero, lo * depth, (hi - lo) * depth,
               (width - hi) * depth, library);
    }
  }
}

/* The window of output pixel (oy, ox) as int8 into `window`: the rows' runs copied straight from the padded rows
 * where the layer takes them (`padded` not NULL, filled for row oy: no test), else from the image when every row
 * is inside it (one bounds test per window), else through gather_edge_window. */
static void gather_window(const conv_params* p, const int8_t* image, const padded_rows* padded, int32_t oy,
                          int32_t ox, int8_t* window) {
  const int32_t run = p->filter_width * p->input_depth;
  const int32_t last_y = oy * p->stride_height - p->pad_height + (p->filter_height - 1) * p->dilation_height;
  const int8_t* tap;
  size_t row_step;
  int32_t fy;
  if (padded != NULL) {
    tap = padded->rows + (size_t)ox * (size_t)p->stride_width * (size_t)p->input_depth, row_step = padded->bytes;
  } else {
    tap = last_y < p->input_height ? direct_row(p, image, oy, ox, 0) : NULL;
    row_step = (size_t)p->dilation_height * (size_t)p->input_width * (size_t)p->input_depth;
    if (tap == NULL) {
      gather_edge_window(p, image, oy, ox, window);
      return;
    }
  }
  for (fy = 0; fy < p->filter_height; ++fy, window += run, tap += row_step) copy_run(window, tap, run);
}

/* The window of output pixel (oy, ox) widened into dst (every `stride` words, as microaot_packed_widen):
 * gathered whole, then widened as whole groups (the gathered window's pad bytes are zeros, see
 * convolve; their weights are zeros too): no byte-wise tail, and one widening call per window. */
#if defined(__GNUC__)
__attribute__((unused)) /* the k x k kernel gathers through its own widen_gathered */
#endif
static void widen_window(const conv_params* p, const int8_t* image, int32_t oy, int32_t ox, const window_scratch* s,
                         uint32_t* dst, int32_t stride) {
  gather_window(p, image, NULL, oy, ox, s->gathered);
  microaot_packed_widen(s->gathered, s->gathered_bytes, dst, stride);
}

/* Whether windows inside the image are widened straight from it (widen_direct): MICROAOT_PACKED_DIRECT_RUNS. */
static inline int widens_direct(const conv_params* p) {
  return MICROAOT_PACKED_DIRECT_RUNS(p->filter_width * p->input_depth);
}

/* The windows of output pixels (oy, ox) to (oy, ox + 2), their row runs whole groups, widened straight from the
 * image (interleaved, microaot_packed_widen3 a filter row) when all lie inside it: 1; else 0, nothing written (they
 * are then gathered first). Fewer pixels are gathered: a widening call per filter row and pixel costs more. */
#if defined(__GNUC__)
/* out of the row loops: inlined, its registers cost the gathered windows' path; the transpose kernel has no use */
__attribute__((noinline, unused))
#endif
static int widen_direct(const conv_params* p, const int8_t* image, int32_t oy, int32_t ox, uint32_t* rows) {
  const int32_t groups = p->filter_width * p->input_depth / 4;
  const int32_t last_y = oy * p->stride_height - p->pad_height + (p->filter_height - 1) * p->dilation_height;
  const size_t row_step = (size_t)p->dilation_height * (size_t)p->input_width * (size_t)p->input_depth;
  const size_t pixel_step = (size_t)p->stride_width * (size_t)p->input_depth;
  const int8_t* tap = last_y < p->input_height ? direct_row(p, image, oy, ox, 0) : NULL;
  int32_t fy;
  /* The first window's taps start inside the image and the last's end inside it: all are inside. */
  if (tap == NULL || direct_row(p, image, oy, ox + 2, 0) == NULL) return 0;
  for (fy = 0; fy < p->filter_height; ++fy, rows += 6 * groups, tap += row_step) {
    microaot_packed_widen3(tap, pixel_step, groups, rows);
  }
  return 1;
}

/* The input pixels of `count` output pixels of a 1x1 filter without padding (each its window), `step` bytes
 * apart from `pixel` on, widened straight from the image (interleaved, `count` rows). */
#if defined(__GNUC__)
__attribute__((always_inline)) /* in the row loops: a call per three pixels costs a 1x1 layer 0.2% */
#endif
static inline void widen_pixels(const int8_t* pixel, size_t step, int32_t depth, int32_t count, uint32_t* rows) {
  int32_t r;
  if (count == 3 && depth % 4 == 0) {
    microaot_packed_widen3(pixel, step, depth / 4, rows);
    return;
  }
  for (r = 0; r < count; ++r) microaot_packed_widen(pixel + (size_t)r * step, depth, rows + 2 * r, 2 * count);
}
