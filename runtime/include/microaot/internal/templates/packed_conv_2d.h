/* The int8 1x1 CONV_2D over packed weights (microaot/kernels/packed.h): output pixels two at a time, each input
 * pixel (the image at the stride) widened once, against every output channel pair. The including file defines
 * MICROAOT_PACKED_WIDE_WEIGHTS (0: int8 weight words, 1: int16, microaot/internal/packed_dot.h) and the two function
 * names MICROAOT_FN and MICROAOT_FN_OVERLAP. */
#include <stddef.h>
#include <string.h>

#include "microaot/packed_matmul.h"

typedef microaot_conv_2d_params_q conv_params;

/* Output rows [row_begin, row_end) (rows counted over all batches) into `dst` rows, or through `row_scratch`
 * (not NULL: the overlap flavor) copied to their place once the row's input is read; `rows` receives the
 * widened input pixels. */
static void packed_row_range(const conv_params* p, const int8_t* input, const int32_t* filter,
                             const int32_t* requant, int8_t* output, uint32_t* rows, int8_t* row_scratch,
                             int32_t row_begin, int32_t row_end) {
  const size_t depth = (size_t)p->input_depth, out_depth = (size_t)p->output_depth;
  const size_t image_size = (size_t)p->input_height * (size_t)p->input_width * depth;
  const size_t pixel_step = (size_t)p->stride_width * depth, row_size = (size_t)p->output_width * out_depth;
  const microaot_dsp_output_stage stage = MICROAOT_DSP_OUTPUT_STAGE(p, NULL);
  int32_t row, ox;
  for (row = row_begin; row < row_end; ++row) {
    const size_t in_y = (size_t)(row % p->output_height) * (size_t)p->stride_height;
    const int8_t* in = input + (size_t)(row / p->output_height) * image_size + in_y * (size_t)p->input_width * depth;
    int8_t* out = output + (size_t)row * row_size;
    int8_t* dst = row_scratch != NULL ? row_scratch : out;
    for (ox = 0; ox < p->output_width; ox += 2, in += 2 * pixel_step, dst += 2 * out_depth) {
      const int pair = ox + 1 < p->output_width;
      microaot_packed_row_pair(in, pair ? in + pixel_step : NULL, p->input_depth, filter, p->output_depth, &stage,
                               requant, rows, dst, dst + out_depth);
    }
    if (row_scratch != NULL) memcpy(out, row_scratch, row_size);
  }
}

microaot_status MICROAOT_FN(const microaot_conv_2d_params_q* params, const int8_t* input, const int32_t* filter,
                            const int32_t* requant, int8_t* output, void* scratch) {
  if (requant == NULL) return MICROAOT_STATUS_NULL_POINTER;
  packed_row_range(params, input, filter, requant, output, (uint32_t*)scratch, NULL, 0,
                   params->batches * params->output_height);
  return MICROAOT_STATUS_OK;
}

microaot_status MICROAOT_FN_OVERLAP(const microaot_conv_2d_params_q* params, const int8_t* input,
                                    const int32_t* filter, const int32_t* requant, int8_t* output, void* scratch) {
  if (requant == NULL) return MICROAOT_STATUS_NULL_POINTER;
  /* The output row follows the widened rows in the scratch. */
  packed_row_range(params, input, filter, requant, output, (uint32_t*)scratch,
                   (int8_t*)scratch + MICROAOT_PACKED_ROWS_BYTES(params->input_depth, params->output_depth), 0,
                   params->batches * params->output_height);
  return MICROAOT_STATUS_OK;
}
