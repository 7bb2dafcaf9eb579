/* int8 k x k CONV_2D over packed weights (microaot/kernels/packed.h): a matrix product over the pixels'
 * windows. Output pixels two at a time: each one's window gathered (microaot/conv_window.h, padding taps as
 * the input zero point, which the folded bias makes exact), then both widened and multiplied by every output
 * channel pair as the 1x1 kernel's input pixels are. */
#include <stddef.h>
#include <string.h>

#include "microaot/conv_window.h"
#include "microaot/packed_matmul.h"

typedef microaot_conv_2d_params_q conv_params;

/* Where the scratch's parts start: the widened rows, then the two gathered windows. */
typedef struct {
  uint32_t* rows;
  int8_t* windows[2];
} window_scratch;

static window_scratch split_scratch(const conv_params* p, void* scratch) {
  const int32_t n = microaot_conv_window_size(p);
  window_scratch s;
  s.rows = (uint32_t*)scratch;
  s.windows[0] = (int8_t*)scratch + MICROAOT_PACKED_ROWS_BYTES(n);
  s.windows[1] = s.windows[0] + 4 * microaot_packed_groups(n);
  return s;
}

/* Output row `oy` of one image into `dst` (output_width pixels). */
static void window_row(const conv_params* p, const int8_t* image, int32_t oy, const int32_t* filter,
                       const microaot_dsp_output_stage* stage, const int32_t* requant, const window_scratch* s,
                       int8_t* dst) {
  const int32_t n = microaot_conv_window_size(p);
  const size_t pixel_bytes = (size_t)p->output_depth;
  int32_t ox;
  for (ox = 0; ox < p->output_width; ox += 2, dst += 2 * pixel_bytes) {
    const int pair = ox + 1 < p->output_width;
    microaot_conv_window(p, image, oy, ox, s->windows[0]);
    if (pair) microaot_conv_window(p, image, oy, ox + 1, s->windows[1]);
    microaot_packed_row_pair(s->windows[0], pair ? s->windows[1] : NULL, n, filter, p->output_depth, stage, requant,
                             s->rows, dst, dst + pixel_bytes);
  }
}

/* Output rows [row_begin, row_end) (counted over all batches) into place, or through `row_scratch` (not NULL:
 * the overlap flavor), copied to their place once the row's windows are read. */
static void window_row_range(const conv_params* p, const int8_t* input, const int32_t* filter, const int32_t* bias,
                             const int32_t* requant, int8_t* output, void* scratch, int8_t* row_scratch,
                             int32_t row_begin, int32_t row_end) {
  const size_t image_bytes = (size_t)p->input_height * (size_t)p->input_width * (size_t)p->input_depth;
  const size_t row_bytes = (size_t)p->output_width * (size_t)p->output_depth;
  const microaot_dsp_output_stage stage = MICROAOT_DSP_OUTPUT_STAGE(p, bias);
  const window_scratch s = split_scratch(p, scratch);
  int32_t row;
  for (row = row_begin; row < row_end; ++row) {
    const int8_t* image = input + (size_t)(row / p->output_height) * image_bytes;
    int8_t* out = output + (size_t)row * row_bytes;
    window_row(p, image, row % p->output_height, filter, &stage, requant, &s, row_scratch != NULL ? row_scratch : out);
    if (row_scratch != NULL) memcpy(out, row_scratch, row_bytes);
  }
}

void microaot_conv_2d_s8_packed_kxk(const microaot_conv_2d_params_q* params, const int8_t* input,
                                    const int32_t* filter, const int32_t* bias, const int32_t* requant,
                                    int8_t* output, void* scratch) {
  window_row_range(params, input, filter, bias, requant, output, scratch, NULL, 0,
                   params->batches * params->output_height);
}

void microaot_conv_2d_s8_packed_kxk_overlap(const microaot_conv_2d_params_q* params, const int8_t* input,
                                            const int32_t* filter, const int32_t* bias, const int32_t* requant,
                                            int8_t* output, void* scratch) {
  int8_t* const output_row = (int8_t*)scratch + MICROAOT_PACKED_WINDOWS_BYTES(microaot_conv_window_size(params));
  window_row_range(params, input, filter, bias, requant, output, scratch, output_row, 0,
                   params->batches * params->output_height);
}
