/* int8 CONV_2D (1x1 and k x k) with Helium (MVE) over the compiler's folded bias (microaot/kernels/mve_folded.h):
 * the rows of microaot/internal/mve_conv.h (two pixels x two channels per block, or one pixel's row against
 * four channels per step), without the pass over the weights per call that folds the bias. A layer the vector
 * code does not take (the compiler does not send one: microaot_mve_conv_fits below) and a build without MVE
 * take the plain C loop over the same arguments. */
#include <stddef.h>
#include <string.h>

#include "microaot/internal/mve_conv.h"
#include "microaot/internal/mve_units.h"
#include "microaot/kernels/mve_folded.h"

/* Output channel c at output pixel (oy, ox) of one image over its folded bias: every tap of the window, those
 * outside the image as the input zero point (the folded bias cancels their offset products). */
static int32_t folded_sum(const microaot_conv_2d_params_q* p, const int8_t* image, const int8_t* filter,
                          int32_t c, int32_t oy, int32_t ox, int32_t folded) {
  const int32_t depth = p->filter_depth, group = c / (p->output_depth / (p->input_depth / depth));
  const int8_t* w = filter + (size_t)c * (size_t)p->filter_height * (size_t)p->filter_width * (size_t)depth;
  uint32_t acc = (uint32_t)folded;
  int32_t fy, fx, k;
  for (fy = 0; fy < p->filter_height; ++fy) {
    const int32_t in_y = oy * p->stride_height - p->pad_height + fy * p->dilation_height;
    for (fx = 0; fx < p->filter_width; ++fx, w += depth) {
      const int32_t in_x = ox * p->stride_width - p->pad_width + fx * p->dilation_width;
      const int inside = in_y >= 0 && in_y < p->input_height && in_x >= 0 && in_x < p->input_width;
      const int8_t* x = image + ((size_t)in_y * (size_t)p->input_width + (size_t)in_x) * (size_t)p->input_depth +
                        (size_t)group * (size_t)depth;
      for (k = 0; k < depth; ++k) {
        const int32_t value = inside ? x[k] : -p->input_offset;
        acc += (uint32_t)(value * (int32_t)w[k]);
      }
    }
  }
  return (int32_t)acc;
}

/* Every output row, straight or (row_scratch: the overlap variant) through the row scratch. */
static void conv_folded_c(const microaot_conv_2d_params_q* p, const int8_t* input, const int8_t* filter,
                          const int32_t* folded_bias, int8_t* output, int8_t* row_scratch) {
  const size_t image = (size_t)p->input_height * (size_t)p->input_width * (size_t)p->input_depth;
  const size_t row_size = (size_t)p->output_width * (size_t)p->output_depth;
  int32_t b, oy, ox, c;
  for (b = 0; b < p->batches; ++b) {
    const int8_t* in = input + (size_t)b * image;
    for (oy = 0; oy < p->output_height; ++oy) {
      int8_t* row = output + ((size_t)b * (size_t)p->output_height + (size_t)oy) * row_size;
      int8_t* dst = row_scratch != NULL ? row_scratch : row;
      for (ox = 0; ox < p->output_width; ++ox) {
        for (c = 0; c < p->output_depth; ++c) {
          const int32_t acc = folded_sum(p, in, filter, c, oy, ox, folded_bias[c]);
          dst[(size_t)ox * (size_t)p->output_depth + (size_t)c] = MICROAOT_FOLDED_OUTPUT(p, acc, c);
        }
      }
      if (row_scratch != NULL) memcpy(row, row_scratch, row_size);
    }
  }
}

static void conv_folded(const microaot_conv_2d_params_q* p, const int8_t* input, const int8_t* filter,
                        const int32_t* folded_bias, int8_t* output, void* row_scratch) {
#if MICROAOT_MVE
  if (mve_handles(p)) {
    conv_rows_mve(p, input, filter, NULL, folded_bias, output, (int8_t*)row_scratch);
    return;
  }
#endif
  conv_folded_c(p, input, filter, folded_bias, output, (int8_t*)row_scratch);
}

void microaot_conv_2d_s8_mve(const microaot_conv_2d_params_q* params, const int8_t* input, const int8_t* filter,
                             const int32_t* folded_bias, int8_t* output) {
  conv_folded(params, input, filter, folded_bias, output, NULL);
}

void microaot_conv_2d_s8_mve_overlap(const microaot_conv_2d_params_q* params, const int8_t* input,
                                     const int8_t* filter, const int32_t* folded_bias, int8_t* output,
                                     void* scratch) {
  conv_folded(params, input, filter, folded_bias, output, scratch);
}
