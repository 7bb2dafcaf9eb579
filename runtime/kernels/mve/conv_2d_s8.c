/* int8 CONV_2D with Helium (MVE), bit-exact with the portable kernel. Each output pixel's window in filter
 * order is one int8 row (a 1x1 filter without padding: the input pixel itself; other filters: the window
 * gathered, microaot/internal/conv_window.h, taps outside the image as the input zero point, whose offset
 * product is 0 exactly as the reference's skipped taps). Two pixels against four output channels per step,
 * 16 products per VMLADAVA, the row's end predicated (microaot/internal/mve_dot.h); the input offset's
 * products are folded into each channel's bias once per call. Grouped convolutions, windows larger than the
 * stack buffer, more channels than the folded-bias buffer and shifts outside VRSHL's range take the portable
 * code; so does a build without MVE. */
#include <stddef.h>
#include <string.h>

#include "microaot/internal/conv_window.h"
#include "microaot/internal/mve_dot.h"
#include "microaot/kernels/conv.h"

#if MICROAOT_MVE
/* The portable kernels, for the shapes the vector code does not take, as this file's own functions. */
#define MICROAOT_CONV_LINKAGE static
#define MICROAOT_FN conv_portable
#define MICROAOT_FN_OVERLAP conv_overlap_portable
#else
#define MICROAOT_FN microaot_conv_2d_s8
#define MICROAOT_FN_OVERLAP microaot_conv_2d_s8_overlap
#endif
#define MICROAOT_DTYPE s8
#define MICROAOT_CONV conv_2d
#include "microaot/internal/templates/conv.h"

#if MICROAOT_MVE
/* One pixel's window in elements (two on the stack), and the channels whose folded biases the stack holds. */
#define MVE_CONV_WINDOW_MAX 1152
#define MVE_CONV_CHANNELS_MAX 256

typedef microaot_conv_2d_params_q conv_params;

static int is_pointwise(const conv_params* p) {
  return p->filter_height == 1 && p->filter_width == 1 && p->pad_height == 0 && p->pad_width == 0;
}

static int mve_handles(const conv_params* p) {
  return p->filter_depth == p->input_depth && microaot_conv_window_size(p) <= MVE_CONV_WINDOW_MAX &&
         p->output_depth <= MVE_CONV_CHANNELS_MAX && microaot_mve_shifts_fit(p->output_shift, p->output_depth);
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

/* Output pixel (oy, ox)'s window: the input pixel itself (1x1), or gathered into `window`. */
static inline __attribute__((always_inline)) const int8_t* pixel_row(const conv_params* p, const int8_t* image,
                                                                     int32_t oy, int32_t ox, int8_t* window) {
  if (is_pointwise(p)) {
    const size_t in_y = (size_t)(oy * p->stride_height), in_x = (size_t)(ox * p->stride_width);
    return image + (in_y * (size_t)p->input_width + in_x) * (size_t)p->input_depth;
  }
  microaot_conv_window(p, image, oy, ox, window);
  return window;
}

/* Every output channel of two pixels' rows (out1 NULL: the second row is the first, not stored), channel pairs
 * (an odd last channel pairs with itself) into `sums`, then each pixel's output step. */
static void pixel_pair(const conv_params* p, const int8_t* x0, const int8_t* x1, const int8_t* filter,
                       const int32_t* folded, const microaot_mve_output_stage* stage, int32_t sums[2][MVE_CONV_CHANNELS_MAX],
                       int8_t* out0, int8_t* out1) {
  const int32_t n = microaot_conv_window_size(p);
  int32_t oc, acc[4];
  for (oc = 0; oc < p->output_depth; oc += 2) {
    const int32_t second = oc + 1 < p->output_depth ? oc + 1 : oc;
    const int8_t* w0 = filter + (size_t)oc * (size_t)n;
    microaot_mve_set4(acc, folded[oc], folded[second], folded[oc], folded[second]);
    microaot_mve_dot_2x2(x0, x1, w0, w0 + (size_t)(second - oc) * (size_t)n, n, acc);
    sums[0][oc] = acc[0];
    sums[0][second] = acc[1];
    sums[1][oc] = acc[2];
    sums[1][second] = acc[3];
  }
  microaot_mve_output_row(stage, sums[0], p->output_depth, out0);
  if (out1 != NULL) microaot_mve_output_row(stage, sums[1], p->output_depth, out1);
}

/* The scratch of the vector code, on the stack: the folded biases, two pixels' sums and windows. */
typedef struct {
  int32_t folded[MVE_CONV_CHANNELS_MAX];
  int32_t sums[2][MVE_CONV_CHANNELS_MAX];
  int8_t windows[2][MVE_CONV_WINDOW_MAX];
} conv_work;

/* Output row oy of one image into `dst`, two pixels at a time. */
static void conv_row(const conv_params* p, const int8_t* image, int32_t oy, const int8_t* filter,
                     const microaot_mve_output_stage* stage, conv_work* work, int8_t* dst) {
  const size_t depth = (size_t)p->output_depth;
  int32_t ox;
  for (ox = 0; ox < p->output_width; ox += 2) {
    const int pair = ox + 1 < p->output_width;
    const int8_t* x0 = pixel_row(p, image, oy, ox, work->windows[0]);
    const int8_t* x1 = pair ? pixel_row(p, image, oy, ox + 1, work->windows[1]) : x0;
    pixel_pair(p, x0, x1, filter, work->folded, stage, work->sums, dst + (size_t)ox * depth,
               pair ? dst + (size_t)(ox + 1) * depth : NULL);
  }
}

/* A layer of one output pixel: its row times the channels, the weight sums in the products' loop (no pass
 * over the weights first, no second pixel). Out of line: inlined, it costs the rows' loop registers. */
static __attribute__((noinline)) void conv_one_pixel(const conv_params* p, const int8_t* input, const int8_t* filter,
                                                     const int32_t* bias, int8_t* output, int8_t* row_scratch) {
  const microaot_mve_output_stage stage = MICROAOT_MVE_OUTPUT_STAGE(p, p->output_depth);
  int8_t window[MVE_CONV_WINDOW_MAX];
  microaot_mve_row_times_units(pixel_row(p, input, 0, 0, window), filter, microaot_conv_window_size(p),
                               p->output_depth, bias, p->input_offset, &stage,
                               row_scratch != NULL ? row_scratch : output);
  if (row_scratch != NULL) memcpy(output, row_scratch, (size_t)p->output_depth);
}

/* Every output row in order, straight into the output or (row_scratch) built there and copied to its place
 * after its last input read. */
static void conv_rows_mve(const conv_params* p, const int8_t* input, const int8_t* filter, const int32_t* bias,
                          int8_t* output, int8_t* row_scratch) {
  const size_t image_size = (size_t)p->input_height * (size_t)p->input_width * (size_t)p->input_depth;
  const size_t row_size = (size_t)p->output_width * (size_t)p->output_depth;
  const microaot_mve_output_stage stage = MICROAOT_MVE_OUTPUT_STAGE(p, p->output_depth);
  conv_work work;
  int32_t b, oy;
  if (p->batches * p->output_height * p->output_width == 1) {
    conv_one_pixel(p, input, filter, bias, output, row_scratch);
    return;
  }
  fold_biases(p, filter, bias, work.folded);
  for (b = 0; b < p->batches; ++b, input += image_size) {
    for (oy = 0; oy < p->output_height; ++oy, output += row_size) {
      conv_row(p, input, oy, filter, &stage, &work, row_scratch != NULL ? row_scratch : output);
      if (row_scratch != NULL) memcpy(output, row_scratch, row_size);
    }
  }
}

/* Both variants: the rows through `row_scratch` for the overlap one (its scratch), else straight. */
static void conv_mve(const conv_params* p, const int8_t* input, const int8_t* filter, const int32_t* bias,
                     int8_t* output, void* row_scratch) {
  if (mve_handles(p)) {
    conv_rows_mve(p, input, filter, bias, output, (int8_t*)row_scratch);
  } else if (row_scratch != NULL) {
    conv_overlap_portable(p, input, filter, bias, output, row_scratch);
  } else {
    conv_portable(p, input, filter, bias, output);
  }
}

void microaot_conv_2d_s8(const microaot_conv_2d_params_q* params, const int8_t* input, const int8_t* filter,
                         const int32_t* bias, int8_t* output) {
  conv_mve(params, input, filter, bias, output, NULL);
}

void microaot_conv_2d_s8_overlap(const microaot_conv_2d_params_q* params, const int8_t* input, const int8_t* filter,
                                 const int32_t* bias, int8_t* output, void* scratch) {
  conv_mve(params, input, filter, bias, output, scratch);
}
#endif /* MICROAOT_MVE */
