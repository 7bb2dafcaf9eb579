/* The Helium (MVE) int8 CONV_2D's rows (runtime/kernels/mve/conv_2d_s8.c, conv_2d_s8_mve.c): each output
 * pixel's window in filter order is one int8 row (a 1x1 filter without padding: the input pixel itself; other
 * filters: the window gathered, taps outside the image as the input zero point, whose offset product is 0
 * exactly as the reference's skipped taps). Two pixels against two output channels per block, 16 products per
 * VMLADAVA, the row's end predicated (microaot/internal/mve_dot.h); the input offset's products in each
 * channel's bias: folded once per call (conv_2d_s8) or by the compiler (conv_2d_s8_mve, the folded biases
 * given). A layer of one output pixel: its row against four channels per step over folded biases
 * (mve_units.h), or two with the weights' sums in the loop. Only with MVE; the including file defines
 * conv_params' users. */
#ifndef MICROAOT_MVE_CONV_H
#define MICROAOT_MVE_CONV_H

#include <stddef.h>
#include <string.h>

#include "microaot/fit/mve_matmul.h"
#include "microaot/internal/conv_window.h" /* microaot_conv_window_size */
#include "microaot/internal/mve_dot.h"
#include "microaot/internal/mve_lanes.h"
#include "microaot/internal/mve_units.h"
#include "microaot/kernels/conv.h"

#if MICROAOT_MVE
#define MVE_CONV_WINDOW_MAX MICROAOT_MVE_CONV_WINDOW_MAX
#define MVE_CONV_CHANNELS_MAX MICROAOT_MVE_CONV_CHANNELS_MAX

typedef microaot_conv_2d_params_q conv_params;

static int is_pointwise(const conv_params* p) {
  return p->filter_height == 1 && p->filter_width == 1 && p->pad_height == 0 && p->pad_width == 0;
}

static inline int mve_handles(const conv_params* p) {
  return microaot_fit_mve_conv(p) && microaot_fit_mve_shifts(p->output_shift, p->output_depth);
}

/* folded[c] = bias[c] + input_offset * the sum of channel c's weights (mod 2^32, as the reference sums). */
static void fold_biases(const conv_params* p, const int8_t* filter, const int32_t* bias, int32_t* folded) {
  const int32_t n = microaot_conv_window_size(p);
  int32_t c;
  for (c = 0; c < p->output_depth; ++c) {
    const uint32_t sum = (uint32_t)microaot_mve_sum_s8(filter + (size_t)c * (size_t)n, n);
    folded[c] = (int32_t)((uint32_t)(bias != NULL ? bias[c] : 0) + (uint32_t)p->input_offset * sum);
  }
}

/* `rows` rows of `row` bytes, `step` bytes apart from src on, one after the other into dst: an interior window
 * (every tap inside the image, no column dilation), each filter row one tail-predicated copy in one assembly
 * loop (7 instructions per row besides 3 per 16 bytes; the general path's fills and copies took about 55 per
 * row of IC's 16-channel 3x3 windows). */
static inline void copy_rows(int8_t* dst, const int8_t* src, int32_t rows, int32_t row, int32_t step) {
  int8_t* d;
  const int8_t* s;
  __asm__ volatile(
      "1:\n\t"
      "mov %[d], %[dst]\n\t"
      "mov %[s], %[src]\n\t"
      "wlstp.8 lr, %[row], 3f\n"
      "2:\n\t"
      "vldrb.8 q0, [%[s]], #16\n\t"
      "vstrb.8 q0, [%[d]], #16\n\t"
      "letp lr, 2b\n"
      "3:\n\t"
      "add %[dst], %[dst], %[row]\n\t"
      "add %[src], %[src], %[step]\n\t"
      "subs %[rows], %[rows], #1\n\t"
      "bne 1b\n"
      : [dst] "+r"(dst), [src] "+r"(src), [rows] "+r"(rows), [d] "=&r"(d), [s] "=&r"(s)
      : [row] "r"(row), [step] "r"(step)
      : "q0", "lr", "memory", "cc");
}

/* Output pixel (oy, ox)'s window in filter order into `window` (microaot_conv_window's result): taps outside
 * the image as the input zero point. Without column dilation each filter row is at most a fill, a copy and a
 * fill (the taps left of the image, inside, right of it), found once per pixel; with it, tap by tap. The fills
 * and copies are mve_lanes.h's vector loops (3 instructions per 16 bytes; no library call for a few bytes). */
static void gather_window(const conv_params* p, const int8_t* image, int32_t oy, int32_t ox, int8_t* window) {
  const int32_t depth = p->input_depth, row = p->filter_width * depth;
  const int32_t first_x = ox * p->stride_width - p->pad_width, first_y = oy * p->stride_height - p->pad_height;
  const int8x16_t zero_point = vdupq_n_s8((int8_t)-p->input_offset);
  const int32_t lo = first_x < 0 ? (-first_x < p->filter_width ? -first_x : p->filter_width) : 0;
  int32_t hi = p->input_width - first_x < p->filter_width ? p->input_width - first_x : p->filter_width;
  int32_t fy;
  if (hi < lo) hi = lo;
  if (lo == 0 && hi == p->filter_width && p->dilation_width == 1 && first_y >= 0 &&
      first_y + (p->filter_height - 1) * p->dilation_height < p->input_height) {
    copy_rows(window, image + ((ptrdiff_t)first_y * p->input_width + first_x) * depth, p->filter_height, row,
              p->input_width * depth * p->dilation_height);
    return;
  }
  for (fy = 0; fy < p->filter_height; ++fy, window += row) {
    const int32_t in_y = oy * p->stride_height - p->pad_height + fy * p->dilation_height;
    /* the row's first tap: only read at the taps inside the image */
    const ptrdiff_t row_start = ((ptrdiff_t)in_y * p->input_width + first_x) * depth;
    int32_t fx;
    if (in_y < 0 || in_y >= p->input_height) {
      microaot_mve_fill(window, zero_point, row);
    } else if (p->dilation_width == 1) {
      microaot_mve_fill(window, zero_point, lo * depth);
      microaot_mve_copy(window + lo * depth, image + row_start + lo * depth, (hi - lo) * depth);
      microaot_mve_fill(window + hi * depth, zero_point, (p->filter_width - hi) * depth);
    } else {
      for (fx = 0; fx < p->filter_width; ++fx) {
        const int32_t in_x = first_x + fx * p->dilation_width;
        if (in_x >= 0 && in_x < p->input_width) {
          microaot_mve_copy(window + fx * depth, image + row_start + in_x * depth - first_x * depth, depth);
        } else {
          microaot_mve_fill(window + fx * depth, zero_point, depth);
        }
      }
    }
  }
}

/* Output pixel (oy, ox)'s window: the input pixel itself (1x1), or gathered into `window`. */
static inline __attribute__((always_inline)) const int8_t* pixel_row(const conv_params* p, const int8_t* image,
                                                                     int32_t oy, int32_t ox, int8_t* window) {
  if (is_pointwise(p)) {
    const size_t in_y = (size_t)(oy * p->stride_height), in_x = (size_t)(ox * p->stride_width);
    return image + (in_y * (size_t)p->input_width + in_x) * (size_t)p->input_depth;
  }
  gather_window(p, image, oy, ox, window);
  return window;
}

#define MVE_CONV_SUMS_STRIDE 1024 /* sizeof sums[0]: MVE_CONV_CHANNELS_MAX int32 */

typedef struct {
  int32_t folded[MVE_CONV_CHANNELS_MAX]; /* the folded biases (the compiler's copied here), the sums 1 KiB on */
  int32_t sums[2][MVE_CONV_CHANNELS_MAX];
  int8_t windows[2][MVE_CONV_WINDOW_MAX];
  int8_t carry[MVE_CONV_CHANNELS_MAX];
} conv_work;

/* The channel blocks' loops of two pixels (conv_blocks_3x2), the operands at fixed offsets (below). */
typedef struct {
  const int8_t* x0; /* the pixels' rows, read again for every block */
  const int8_t* x1;
  const int8_t* w;         /* the first block's weights: rows of n, one per channel */
  const int32_t* first;    /* the first channel's folded bias: in conv_work's `folded` */
  const int32_t* triples;  /* past the triples' folded biases */
  int32_t n;
  const int32_t* pairs;    /* past the pairs' */
} block_job;
/* What conv_blocks_3x2's assembly assumes (C99 has no static_assert: an array of negative size fails): each
 * channel's sums at its folded bias + MVE_CONV_SUMS_STRIDE (pixel 0) and twice that (pixel 1). */
typedef char conv_blocks_layout[(MVE_CONV_SUMS_STRIDE == MVE_CONV_CHANNELS_MAX * 4 &&
                                 offsetof(conv_work, sums) == MVE_CONV_SUMS_STRIDE && offsetof(block_job, x1) == 4 &&
                                 offsetof(block_job, w) == 8 && offsetof(block_job, first) == 12 &&
                                 offsetof(block_job, triples) == 16 && offsetof(block_job, n) == 20 &&
                                 offsetof(block_job, pairs) == 24)
                                    ? 1
                                    : -1];

/* conv_blocks_3x2's steps that its triples and pairs share: a block's start (the pixels' rows r1, r3 and its
 * first two weight rows r5, r7 from the stack's job), and the first two channels' products of 16 elements. */
#define CONV_BLOCKS_ROWS                                                                                               \
  "ldrd r1, r3, [sp]\n\t"                                                                                              \
  "ldr r5, [sp, #8]\n\t"                                                                                               \
  "add r7, r5, r11\n\t"
#define CONV_BLOCKS_FIRST_TWO                                                                                          \
  "vldrb.8 q0, [r1], #16\n\t"                                                                                          \
  "vldrb.8 q1, [r3], #16\n\t"                                                                                          \
  "vldrb.8 q2, [r5], #16\n\t"                                                                                          \
  "vmladava.s8 r0, q0, q2\n\t"                                                                                         \
  "vmladava.s8 r6, q1, q2\n\t"                                                                                         \
  "vldrb.8 q2, [r7], #16\n\t"                                                                                          \
  "vmladava.s8 r2, q0, q2\n\t"                                                                                         \
  "vmladava.s8 r8, q1, q2\n\t"

/* Two pixels' rows times channel triples, then channel pairs, every block's sums from its folded biases: the
 * whole loop in assembly. A triple: six accumulators, per 16 elements two row loads, three weight loads, six
 * VMLADAVA and the LETP (0.125 instructions per product; a pair's 9 per 64 products, 0.14), 19 instructions a
 * block besides (a pair 16). The job is copied onto the stack (x0, x1, w at sp; the ends at sp + 16, sp + 24);
 * r12 walks the folded biases, the sums 1 KiB and 2 KiB on (conv_work). r0, r2, r4 pixel 0's sums, r6, r8, r10
 * pixel 1's, r1, r3 the rows, r5, r7, r9 the weight rows, r11 n. */
static __attribute__((naked, noipa)) void conv_blocks_3x2(const block_job* job __attribute__((unused))) {
  __asm__ volatile(
      "push {r4-r11, lr}\n\t"
      "ldm r0, {r1-r7}\n\t"
      "push {r1-r7}\n\t"
      "mov r12, r4\n\t"
      "mov r11, r6\n\t"
      "cmp r12, r5\n\t"
      "beq 4f\n"
      "1:\n\t"
      CONV_BLOCKS_ROWS
      "add r9, r7, r11\n\t"
      "add lr, r9, r11\n\t"
      "str lr, [sp, #8]\n\t"
      "ldm r12!, {r0, r2, r4}\n\t"
      "mov r6, r0\n\t"
      "mov r8, r2\n\t"
      "mov r10, r4\n\t"
      "wlstp.8 lr, r11, 3f\n"
      "2:\n\t"
      CONV_BLOCKS_FIRST_TWO
      "vldrb.8 q2, [r9], #16\n\t"
      "vmladava.s8 r4, q0, q2\n\t"
      "vmladava.s8 r10, q1, q2\n\t"
      "letp lr, 2b\n"
      "3:\n\t"
      "strd r0, r2, [r12, #1012]\n\t"
      "str r4, [r12, #1020]\n\t"
      "str r6, [r12, #2036]\n\t"
      "str r8, [r12, #2040]\n\t"
      "str r10, [r12, #2044]\n\t"
      "ldr lr, [sp, #16]\n\t"
      "cmp r12, lr\n\t"
      "bne 1b\n"
      "4:\n\t"
      "ldr lr, [sp, #24]\n\t"
      "cmp r12, lr\n\t"
      "beq 9f\n"
      "5:\n\t"
      CONV_BLOCKS_ROWS
      "add lr, r7, r11\n\t"
      "str lr, [sp, #8]\n\t"
      "ldrd r0, r2, [r12], #8\n\t"
      "mov r6, r0\n\t"
      "mov r8, r2\n\t"
      "wlstp.8 lr, r11, 7f\n"
      "6:\n\t"
      CONV_BLOCKS_FIRST_TWO
      "letp lr, 6b\n"
      "7:\n\t"
      "strd r0, r2, [r12, #1016]\n\t"
      "str r6, [r12, #2040]\n\t"
      "str r8, [r12, #2044]\n\t"
      "ldr lr, [sp, #24]\n\t"
      "cmp r12, lr\n\t"
      "bne 5b\n"
      "9:\n\t"
      "add sp, sp, #28\n\t"
      "pop {r4-r11, pc}\n");
}
#undef CONV_BLOCKS_ROWS
#undef CONV_BLOCKS_FIRST_TWO

/* The channels in triples, but for the last one or two pairs (16 = 4 triples + 2 pairs: a triple and a channel
 * paired with itself would waste half a block). */
static inline int32_t conv_triples(int32_t channels) {
  const int32_t rest = channels % 3 == 1 ? 4 : channels % 3;
  return channels < 3 ? 0 : (channels - rest) / 3;
}

/* Every output channel of two pixels' rows (out1 NULL: the second row is the first, not stored): channel triples
 * and pairs in conv_blocks_3x2, an odd last channel paired with itself; then each pixel's output step. `folded`
 * is conv_work's (conv_blocks_3x2 stores the sums relative to it). */
static inline __attribute__((always_inline)) void pixel_pair(const conv_params* p, const int8_t* x0,
                                                             const int8_t* x1, const int8_t* filter,
                       const int32_t* folded, const microaot_mve_output_stage* stage,
                       int32_t sums[2][MVE_CONV_CHANNELS_MAX], int8_t* out0, int8_t* out1) {
  const int32_t n = microaot_conv_window_size(p), last = p->output_depth - 1;
  const int32_t triples = conv_triples(p->output_depth), pairs = (p->output_depth - 3 * triples) / 2;
  if (p->output_depth >= 2) {
    const block_job job = {x0, x1, filter, folded, folded + 3 * triples, n, folded + 3 * triples + 2 * pairs};
    conv_blocks_3x2(&job);
  }
  if (3 * triples + 2 * pairs == last) { /* a layer of one channel */
    const int8_t* w = filter + (size_t)last * (size_t)n;
    int32_t acc[4];
    microaot_mve_set4(acc, folded[last], folded[last], folded[last], folded[last]);
    microaot_mve_dot_2x2(x0, x1, w, w, n, acc);
    sums[0][last] = acc[0];
    sums[1][last] = acc[2];
  }
  microaot_mve_output_row(stage, sums[0], p->output_depth, out0);
  if (out1 != NULL) microaot_mve_output_row(stage, sums[1], p->output_depth, out1);
}

/* The scratch of the vector code, on the stack: the folded biases, two pixels' sums and windows, and the output
 * pixel that waits for its row's place in the row scratch (conv_image). */

/* Output pixel (oy, ox)'s row as pixel_row, where `rows` (row_window's) is the window's first tap when every
 * filter row of output row oy lies inside the image: an interior pixel's rows copied straight from it, without
 * gather_window's call and bounds. */
static inline __attribute__((always_inline)) const int8_t* row_pixel(const conv_params* p, const int8_t* image,
                                                                     const int8_t* rows, int32_t oy, int32_t ox,
                                                                     int8_t* window) {
  const int32_t first_x = ox * p->stride_width - p->pad_width;
  if (rows != NULL && first_x >= 0 && first_x + p->filter_width <= p->input_width) {
    copy_rows(window, rows + (ptrdiff_t)first_x * p->input_depth, p->filter_height, p->filter_width * p->input_depth,
              p->input_width * p->input_depth * p->dilation_height);
    return window;
  }
  return pixel_row(p, image, oy, ox, window);
}

/* Output row oy's input row at column 0 when its windows' filter rows all lie inside the image (a k x k filter
 * without column dilation), else NULL. */
static inline const int8_t* row_window(const conv_params* p, const int8_t* image, int32_t oy) {
  const int32_t first_y = oy * p->stride_height - p->pad_height;
  if (is_pointwise(p) || p->dilation_width != 1 || first_y < 0 ||
      first_y + (p->filter_height - 1) * p->dilation_height >= p->input_height) {
    return NULL;
  }
  return image + (ptrdiff_t)first_y * p->input_width * p->input_depth;
}

/* Output row oy of one image into `dst`, two pixels at a time (an even width: conv_image for an odd one). */
static void conv_row(const conv_params* p, const int8_t* image, int32_t oy, const int8_t* filter,
                     const microaot_mve_output_stage* stage, conv_work* work, int8_t* dst) {
  const size_t depth = (size_t)p->output_depth;
  const int8_t* rows = row_window(p, image, oy);
  int32_t ox;
  for (ox = 0; ox < p->output_width; ox += 2) {
    const int pair = ox + 1 < p->output_width;
    const int8_t* x0 = row_pixel(p, image, rows, oy, ox, work->windows[0]);
    const int8_t* x1 = pair ? row_pixel(p, image, rows, oy, ox + 1, work->windows[1]) : x0;
    pixel_pair(p, x0, x1, filter, work->folded, stage, work->sums, dst + (size_t)ox * depth,
               pair ? dst + (size_t)(ox + 1) * depth : NULL);
  }
}

/* pixel_pair out of line, for conv_image (inlined there too, it costs conv_row's inlining: its 2x2 loop's
 * registers). */
static __attribute__((noinline)) void pixel_pair_call(const conv_params* p, const int8_t* x0, const int8_t* x1,
                                                      const int8_t* filter, const int32_t* folded,
                                                      const microaot_mve_output_stage* stage,
                                                      int32_t sums[2][MVE_CONV_CHANNELS_MAX], int8_t* out0,
                                                      int8_t* out1) {
  pixel_pair(p, x0, x1, filter, folded, stage, sums, out0, out1);
}

/* One image's output pixels two at a time in row order, a pair spanning two rows, for an odd width (no
 * half-empty pair at each row's end: KWS's rows of 5 pixels wasted a sixth of the products; the row loop
 * costs fewer instructions per pair where the width is even). Straight into
 * `output`, or (row_scratch: the overlap variant) each row built in the scratch and copied to its place after
 * its last input read, as the portable kernel does: the next row's first pixel, computed with a row's last,
 * waits in `carry` until the row is copied. */
static __attribute__((noinline)) void conv_image(const conv_params* p, const int8_t* image, const int8_t* filter,
                       const microaot_mve_output_stage* stage, conv_work* work, int8_t* output, int8_t* row_scratch) {
  const int32_t width = p->output_width, count = p->output_height * width;
  const size_t depth = (size_t)p->output_depth, row_size = (size_t)width * depth;
  int32_t i;
  for (i = 0; i < count; i += 2) {
    const int pair = i + 1 < count;
    const int32_t oy = i / width, ox = i - oy * width;
    const int32_t oy1 = pair ? (i + 1) / width : oy, ox1 = pair ? i + 1 - oy1 * width : ox;
    const int8_t* x0 = pixel_row(p, image, oy, ox, work->windows[0]);
    const int8_t* x1 = pair ? pixel_row(p, image, oy1, ox1, work->windows[1]) : x0;
    if (row_scratch == NULL) {
      pixel_pair_call(p, x0, x1, filter, work->folded, stage, work->sums, output + (size_t)i * depth,
                 pair ? output + (size_t)(i + 1) * depth : NULL);
      continue;
    }
    pixel_pair_call(p, x0, x1, filter, work->folded, stage, work->sums, row_scratch + (size_t)ox * depth,
               !pair ? NULL : oy1 == oy ? row_scratch + (size_t)ox1 * depth : work->carry);
    if (ox1 == width - 1 || oy1 != oy) {
      microaot_mve_copy(output + (size_t)oy * row_size, row_scratch, (int32_t)row_size);
    }
    if (oy1 != oy) {
      microaot_mve_copy(row_scratch, work->carry, (int32_t)depth);
      if (width == 1) microaot_mve_copy(output + (size_t)oy1 * row_size, row_scratch, (int32_t)row_size);
    }
  }
}

/* A layer of one output pixel: its row times the channels, the weight sums in the products' loop (no pass
 * over the weights first, no second pixel). Out of line: inlined, it costs the rows' loop registers. */
static __attribute__((noinline)) void conv_one_pixel(const conv_params* p, const int8_t* input, const int8_t* filter,
                                                     const int32_t* bias, const int32_t* folded, int8_t* output,
                                                     int8_t* row_scratch) {
  const microaot_mve_output_stage stage = MICROAOT_MVE_OUTPUT_STAGE(p, p->output_depth);
  int8_t window[MVE_CONV_WINDOW_MAX];
  const int8_t* row = pixel_row(p, input, 0, 0, window);
  int8_t* out = row_scratch != NULL ? row_scratch : output;
  if (folded != NULL) {
    microaot_mve_row_times_folded(row, filter, microaot_conv_window_size(p), p->output_depth, folded, &stage, out);
  } else {
    microaot_mve_row_times_units(row, filter, microaot_conv_window_size(p), p->output_depth, bias,
                                 p->input_offset, &stage, out);
  }
  if (row_scratch != NULL) microaot_mve_copy(output, row_scratch, p->output_depth);
}

/* Every image of the batch over the folded biases (`folded`, or NULL: folded here from `bias`): row by row
 * (conv_row), or for an odd width in pairs across the rows (conv_image); straight into the output or
 * (row_scratch) each row built there and copied to its place after its last input read. */
static __attribute__((unused)) void conv_rows_mve(const conv_params* p, const int8_t* input, const int8_t* filter,
                                                  const int32_t* bias, const int32_t* folded, int8_t* output,
                                                  int8_t* row_scratch) {
  const size_t image_size = (size_t)p->input_height * (size_t)p->input_width * (size_t)p->input_depth;
  const size_t image_out = (size_t)p->output_height * (size_t)p->output_width * (size_t)p->output_depth;
  const microaot_mve_output_stage stage = MICROAOT_MVE_OUTPUT_STAGE(p, p->output_depth);
  conv_work work;
  int32_t b, oy;
  if (p->batches * p->output_height * p->output_width == 1) {
    conv_one_pixel(p, input, filter, bias, folded, output, row_scratch);
    return;
  }
  if (folded == NULL) {
    fold_biases(p, filter, bias, work.folded);
  } else {
    microaot_mve_copy((int8_t*)work.folded, (const int8_t*)folded, p->output_depth * 4);
  }
  const size_t row_size = (size_t)p->output_width * (size_t)p->output_depth;
  for (b = 0; b < p->batches; ++b, input += image_size, output += image_out) {
    if ((p->output_width & 1) != 0 && p->output_height > 1) {
      conv_image(p, input, filter, &stage, &work, output, row_scratch);
      continue;
    }
    for (oy = 0; oy < p->output_height; ++oy) {
      int8_t* row = output + (size_t)oy * row_size;
      conv_row(p, input, oy, filter, &stage, &work, row_scratch != NULL ? row_scratch : row);
      if (row_scratch != NULL) microaot_mve_copy(row, row_scratch, (int32_t)row_size);
    }
  }
}

#endif /* MICROAOT_MVE */

#endif /* MICROAOT_MVE_CONV_H */
