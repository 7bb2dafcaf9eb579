/* The TRANSPOSE_CONV template for one element type: the including file defines MICROAOT_DTYPE (s8, s16, f32)
 * and MICROAOT_FN (declared in microaot/kernels/transpose_conv.h). The per-type arithmetic (products,
 * accumulator, requantization) is the convolutions' (microaot/internal/kernel_dtype.h). */
#include <stddef.h>

#include "microaot/internal/kernel_dtype.h"
#include "microaot/kernels/transpose_conv.h"
#include "microaot/internal/window.h"

#define MICROAOT_TRANSPOSE_CONV_PARAMS MICROAOT_PARAMS_Q(transpose_conv)

/* One output value before bias: the products of every input pixel of the windows y and x, rows, columns, then
 * channels ascending (the order TFLM's scatter adds them to this output). filter_oc: the channel's filter. */
static MICROAOT_BIAS transpose_conv_accumulate(const MICROAOT_TRANSPOSE_CONV_PARAMS* p, const MICROAOT_T* input_batch,
                                               const MICROAOT_W* filter_oc, const microaot_window* y,
                                               const microaot_window* x) {
  const size_t depth = (size_t)p->input_depth;
  MICROAOT_BIAS acc = 0;
  int32_t iy, ix;
  size_t c;
  for (iy = y->begin; iy < y->end; ++iy) {
    const int32_t fy = y->origin - iy * p->stride_height;
    for (ix = x->begin; ix < x->end; ++ix) {
      const int32_t fx = x->origin - ix * p->stride_width;
      const MICROAOT_T* in = input_batch + (size_t)(iy * p->input_width + ix) * depth;
      const MICROAOT_W* w = filter_oc + (size_t)(fy * p->filter_width + fx) * depth;
      for (c = 0; c < depth; ++c) acc += MICROAOT_MAC(p, in[c], w[c]);
    }
  }
  return acc;
}

/* All output channels of one output position. The bias is added only when there is one, as TFLM does. */
static void transpose_conv_pixel(const MICROAOT_TRANSPOSE_CONV_PARAMS* p, const MICROAOT_T* input_batch,
                                 const MICROAOT_W* filter, const MICROAOT_BIAS* bias, const microaot_window* y,
                                 const microaot_window* x, MICROAOT_T* out) {
  const size_t filter_step = (size_t)p->filter_height * (size_t)p->filter_width * (size_t)p->input_depth;
  int32_t oc;
  for (oc = 0; oc < p->output_depth; ++oc) {
    MICROAOT_BIAS acc = transpose_conv_accumulate(p, input_batch, filter + (size_t)oc * filter_step, y, x);
    if (bias != NULL) acc += bias[oc];
    out[oc] = MICROAOT_OUTPUT(p, acc, oc);
  }
}

void MICROAOT_FN(const MICROAOT_TRANSPOSE_CONV_PARAMS* params, const MICROAOT_T* input, const MICROAOT_W* filter,
                 const MICROAOT_BIAS* bias, MICROAOT_T* output) {
  const MICROAOT_TRANSPOSE_CONV_PARAMS* p = params;
  const size_t input_batch_size = (size_t)p->input_height * (size_t)p->input_width * (size_t)p->input_depth;
  int32_t b, oy, ox;
  for (b = 0; b < p->batches; ++b) {
    const MICROAOT_T* input_batch = input + (size_t)b * input_batch_size;
    for (oy = 0; oy < p->output_height; ++oy) {
      const microaot_window y =
          microaot_transposed_window_of(oy, p->stride_height, p->pad_height, p->filter_height, p->input_height);
      for (ox = 0; ox < p->output_width; ++ox) {
        const microaot_window x =
            microaot_transposed_window_of(ox, p->stride_width, p->pad_width, p->filter_width, p->input_width);
        transpose_conv_pixel(p, input_batch, filter, bias, &y, &x, output);
        output += p->output_depth;
      }
    }
  }
}
