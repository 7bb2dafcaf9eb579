/* int8 CONV_2D with the DSP extension, bit-exact with the portable kernel. Output pixels two at a time
 * against output channels two at a time (microaot_dsp_dot_2x2_s16): each pixel's window, in filter order,
 * is widened to int16 with the input offset added (microaot_dsp_widen) into a small stack buffer; a 1x1
 * filter without padding widens the input pixel itself (a matrix product), other filters first gather the
 * window (im2col, microaot/internal/conv_window.h), taps outside the image as the input zero point, whose offset
 * product is 0 exactly as the reference's skipped taps. Grouped convolutions and windows larger than the buffer
 * take the portable code. */
#include <stddef.h>
#include <string.h>

#include "microaot/internal/conv_window.h"
#include "microaot/internal/dsp_dot.h"
#include "microaot/kernels/conv.h"

/* The portable kernels, for the shapes handled below, under their own names. */
void microaot_conv_2d_s8_portable(const microaot_conv_2d_params_q* params, const int8_t* input, const int8_t* filter,
                                  const int32_t* bias, int8_t* output);
void microaot_conv_2d_s8_overlap_portable(const microaot_conv_2d_params_q* params, const int8_t* input,
                                          const int8_t* filter, const int32_t* bias, int8_t* output, void* scratch);
#define MICROAOT_DTYPE s8
#define MICROAOT_CONV conv_2d
#define MICROAOT_FN microaot_conv_2d_s8_portable
#define MICROAOT_FN_OVERLAP microaot_conv_2d_s8_overlap_portable
#include "microaot/internal/templates/conv.h"

/* One pixel's window in elements; the stack holds it as int8 once and as int16 twice. */
#define DSP_CONV_WINDOW_MAX 576

typedef microaot_conv_2d_params_q conv_params;

static int is_pointwise(const conv_params* p) {
  return p->filter_height == 1 && p->filter_width == 1 && p->pad_height == 0 && p->pad_width == 0;
}

static int dsp_handles(const conv_params* p) {
  return p->filter_depth == p->input_depth && microaot_conv_window_size(p) <= DSP_CONV_WINDOW_MAX;
}

/* Output pixel (oy, ox)'s window, offset and widened, into `column`: the input pixel itself (1x1), or its
 * window gathered into `window` first. */
static void pixel_column(const conv_params* p, const int8_t* image, int32_t oy, int32_t ox, int8_t* window,
                         int16_t* column) {
  const int8_t* row = window;
  if (is_pointwise(p)) {
    const size_t in_y = (size_t)(oy * p->stride_height), in_x = (size_t)(ox * p->stride_width);
    row = image + (in_y * (size_t)p->input_width + in_x) * (size_t)p->input_depth;
  } else {
    microaot_conv_window(p, image, oy, ox, window);
  }
  microaot_dsp_widen(row, microaot_conv_window_size(p), p->input_offset, column);
}

/* Every output channel of two pixels' columns (out1 NULL: the second is a copy of the first, not stored). */
static void pixel_pair(const conv_params* p, const int16_t* a0, const int16_t* a1, const int8_t* filter,
                       const microaot_dsp_output_stage* stage, int8_t* out0, int8_t* out1) {
  const int32_t n = microaot_conv_window_size(p);
  int32_t oc, acc[4];
  for (oc = 0; oc < p->output_depth; oc += 2) {
    const int32_t second = oc + 1 < p->output_depth ? oc + 1 : oc; /* an odd last channel pairs with itself */
    microaot_dsp_dot_2x2_s16(a0, a1, filter + (size_t)oc * (size_t)n, filter + (size_t)second * (size_t)n, n, acc);
    out0[oc] = microaot_dsp_output(stage, acc[0], oc);
    out0[second] = microaot_dsp_output(stage, acc[1], second);
    if (out1 != NULL) {
      out1[oc] = microaot_dsp_output(stage, acc[2], oc);
      out1[second] = microaot_dsp_output(stage, acc[3], second);
    }
  }
}

/* Output rows [row_begin, row_end) of the output (rows counted over all batches), each written to `dst` and,
 * when dst is a scratch row, copied to its place after its last input read. */
static void conv_row_range(const conv_params* p, const int8_t* input, const int8_t* filter, const int32_t* bias,
                           int8_t* output, int8_t* row_scratch, int32_t row_begin, int32_t row_end) {
  const size_t image_size = (size_t)p->input_height * (size_t)p->input_width * (size_t)p->input_depth;
  const size_t depth = (size_t)p->output_depth, row_size = (size_t)p->output_width * depth;
  const microaot_dsp_output_stage stage = MICROAOT_DSP_OUTPUT_STAGE(p, bias);
  int8_t window[DSP_CONV_WINDOW_MAX];
  int16_t columns[2][DSP_CONV_WINDOW_MAX];
  int32_t row, ox;
  for (row = row_begin; row < row_end; ++row) {
    const int32_t oy = row % p->output_height;
    const int8_t* image = input + (size_t)(row / p->output_height) * image_size;
    int8_t* out = output + (size_t)row * row_size;
    int8_t* dst = row_scratch != NULL ? row_scratch : out;
    for (ox = 0; ox < p->output_width; ox += 2) {
      const int pair = ox + 1 < p->output_width;
      pixel_column(p, image, oy, ox, window, columns[0]);
      if (pair) pixel_column(p, image, oy, ox + 1, window, columns[1]);
      pixel_pair(p, columns[0], columns[pair], filter, &stage, dst + (size_t)ox * depth,
                 pair ? dst + (size_t)(ox + 1) * depth : NULL);
    }
    if (row_scratch != NULL) memcpy(out, row_scratch, row_size);
  }
}

void microaot_conv_2d_s8(const microaot_conv_2d_params_q* params, const int8_t* input, const int8_t* filter,
                         const int32_t* bias, int8_t* output) {
  if (!dsp_handles(params)) {
    microaot_conv_2d_s8_portable(params, input, filter, bias, output);
    return;
  }
  conv_row_range(params, input, filter, bias, output, NULL, 0, params->batches * params->output_height);
}

void microaot_conv_2d_s8_overlap(const microaot_conv_2d_params_q* params, const int8_t* input, const int8_t* filter,
                                 const int32_t* bias, int8_t* output, void* scratch) {
  if (!dsp_handles(params)) {
    microaot_conv_2d_s8_overlap_portable(params, input, filter, bias, output, scratch);
    return;
  }
  conv_row_range(params, input, filter, bias, output, (int8_t*)scratch, 0, params->batches * params->output_height);
}
