/* The convolution template: CONV_2D and DEPTHWISE_CONV_2D for one element type, plain and overlap variant.
 * The including file defines MICROAOT_DTYPE (s8, s16, f32), MICROAOT_CONV (conv_2d, depthwise_conv_2d), the
 * two function names MICROAOT_FN and MICROAOT_FN_OVERLAP (declared in microaot/kernels/conv.h) and, to
 * accumulate in another type than the dtype's, MICROAOT_BIAS_DTYPE, or for int8 weights with float
 * activations, MICROAOT_WEIGHT_DTYPE (microaot/internal/kernel_dtype.h). Products accumulate in the bias type.
 * MICROAOT_CONV_LINKAGE (say static) makes the two functions internal, for a source that wraps them. */
#include <stddef.h>
#include <string.h>

#include "microaot/internal/fpu_dot.h"
#include "microaot/internal/kernel_dtype.h"
#include "microaot/kernels/conv.h"
#include "microaot/internal/window.h"

/* What the two operators differ in. Output channel oc reads TAP_DEPTH consecutive input channels from
 * (oc / GROUP) * TAP_DEPTH on; its filter starts FILTER_STEP * oc elements in and its taps lie TAP_STRIDE
 * elements apart. Conv: OHWI filters, groups of output_depth / (input_depth / filter_depth) channels.
 * Depthwise: a 1HWC filter whose column oc reads input channel oc / depth_multiplier. */
#define MICROAOT_CONV_TAP_DEPTH_conv_2d(p) ((p)->filter_depth)
#define MICROAOT_CONV_TAP_STRIDE_conv_2d(p) ((size_t)(p)->filter_depth)
#define MICROAOT_CONV_GROUP_conv_2d(p) ((p)->output_depth / ((p)->input_depth / (p)->filter_depth))
#define MICROAOT_CONV_FILTER_STEP_conv_2d(p) \
  ((size_t)(p)->filter_height * (size_t)(p)->filter_width * (size_t)(p)->filter_depth)
#define MICROAOT_CONV_TAP_DEPTH_depthwise_conv_2d(p) 1
#define MICROAOT_CONV_TAP_STRIDE_depthwise_conv_2d(p) ((size_t)(p)->output_depth)
#define MICROAOT_CONV_GROUP_depthwise_conv_2d(p) ((p)->depth_multiplier)
#define MICROAOT_CONV_FILTER_STEP_depthwise_conv_2d(p) ((size_t)1)
#define MICROAOT_CONV_OP(trait, p) MICROAOT_CAT(MICROAOT_CAT(MICROAOT_CONV_, trait), MICROAOT_CAT(_, MICROAOT_CONV))(p)

#define MICROAOT_CONV_PARAMS MICROAOT_PARAMS_Q(MICROAOT_CONV)

/* Float32 activations and weights: conv_accumulate's rows as dot products (microaot/internal/fpu_dot.h). */
#if !defined(MICROAOT_CONV_FLOAT_ROWS)
#define MICROAOT_CONV_FLOAT_ROWS_f32 1
#define MICROAOT_CONV_FLOAT_ROWS_s8 0
#define MICROAOT_CONV_FLOAT_ROWS_s16 0
#if defined(MICROAOT_WEIGHT_DTYPE) /* hybrid: int8 weights */
#define MICROAOT_CONV_FLOAT_ROWS 0
#else
#define MICROAOT_CONV_FLOAT_ROWS MICROAOT_CAT(MICROAOT_CONV_FLOAT_ROWS_, MICROAOT_DTYPE)
#endif
#endif

/* The elements between a filter's taps as conv_accumulate reads them: the operator's, unless the including file
 * reads decoded filters of its own layout (templates/palette_conv.h). */
#ifndef MICROAOT_CONV_FILTER_TAP_STRIDE
#define MICROAOT_CONV_FILTER_TAP_STRIDE(p) MICROAOT_CONV_OP(TAP_STRIDE, p)
#endif

/* One output value before bias: the products over the in-image taps of the window (y, x), filter rows, then
 * columns, then channels (the reference's summation order). input_c0: the batch's image from the output
 * channel's first input channel on. */
static MICROAOT_BIAS conv_accumulate(const MICROAOT_CONV_PARAMS* p, const MICROAOT_T* input_c0,
                                    const MICROAOT_W* filter_oc, const microaot_window* y, const microaot_window* x) {
  MICROAOT_BIAS acc = 0;
  int32_t fy, fx, c;
#if MICROAOT_CONV_FLOAT_ROWS
  /* float32 taps whose channels are the whole input depth, columns adjacent: a filter row's taps inside the
   * image are one run in the input and in the filter, one dot product in the same order */
  if (MICROAOT_CONV_OP(TAP_DEPTH, p) == p->input_depth && p->dilation_width == 1 &&
      MICROAOT_CONV_FILTER_TAP_STRIDE(p) == (size_t)p->input_depth) {
    const int32_t in_x = x->origin + x->begin, run = (x->end - x->begin) * p->input_depth;
    for (fy = y->begin; fy < y->end && run > 0; ++fy) {
      const int32_t in_y = y->origin + fy * p->dilation_height;
      acc = microaot_dot_f32(input_c0 + (size_t)(in_y * p->input_width + in_x) * (size_t)p->input_depth,
                             filter_oc + (size_t)(fy * p->filter_width + x->begin) * (size_t)p->input_depth, run, acc);
    }
    return acc;
  }
#endif
  for (fy = y->begin; fy < y->end; ++fy) {
    const int32_t in_y = y->origin + fy * p->dilation_height;
    for (fx = x->begin; fx < x->end; ++fx) {
      const int32_t in_x = x->origin + fx * p->dilation_width;
      const MICROAOT_T* in = input_c0 + (size_t)(in_y * p->input_width + in_x) * (size_t)p->input_depth;
      const MICROAOT_W* w = filter_oc + (size_t)(fy * p->filter_width + fx) * MICROAOT_CONV_FILTER_TAP_STRIDE(p);
      for (c = 0; c < MICROAOT_CONV_OP(TAP_DEPTH, p); ++c) acc += MICROAOT_MAC(p, in[c], w[c]);
    }
  }
  return acc;
}

/* MICROAOT_CONV_ACCUMULATE_ONLY: the including file takes conv_accumulate alone and loops itself. */
#ifndef MICROAOT_CONV_ACCUMULATE_ONLY
#if MICROAOT_CONV_FLOAT_ROWS
/* The sums of float32 output channels that each read their own input channel (a depthwise layer of multiplier 1)
 * in `sums`, tap by tap across the channels: each channel's products added in conv_accumulate's order. */
static void conv_float_channel_sums(const MICROAOT_CONV_PARAMS* p, const float* input_batch, const float* filter,
                                    const microaot_window* y, const microaot_window* x, float* sums) {
  const int32_t depth = p->output_depth;
  int32_t fy, fx, c;
  for (c = 0; c < depth; ++c) sums[c] = 0.0f;
  for (fy = y->begin; fy < y->end; ++fy) {
    const int32_t in_y = y->origin + fy * p->dilation_height;
    for (fx = x->begin; fx < x->end; ++fx) {
      const int32_t in_x = x->origin + fx * p->dilation_width;
      microaot_madd_f32(sums, input_batch + (size_t)(in_y * p->input_width + in_x) * (size_t)depth,
                        filter + (size_t)(fy * p->filter_width + fx) * (size_t)depth, depth);
    }
  }
}
#endif

/* All output channels of one output position. */
static void conv_pixel(const MICROAOT_CONV_PARAMS* p, const MICROAOT_T* input_batch, const MICROAOT_W* filter,
                       const MICROAOT_BIAS* bias, const microaot_window* y, const microaot_window* x, MICROAOT_T* out) {
  const int32_t group = MICROAOT_CONV_OP(GROUP, p);
  const size_t filter_step = MICROAOT_CONV_OP(FILTER_STEP, p);
  int32_t oc;
#if MICROAOT_CONV_FLOAT_ROWS
  /* The sums in `out` itself: a plain variant's output does not overlap its input, the overlap variant's rows go
   * to its scratch row. */
  if (MICROAOT_CONV_OP(TAP_DEPTH, p) == 1 && group == 1 && p->input_depth == p->output_depth &&
      MICROAOT_CONV_FILTER_TAP_STRIDE(p) == (size_t)p->output_depth) {
    conv_float_channel_sums(p, input_batch, filter, y, x, out);
    for (oc = 0; oc < p->output_depth; ++oc) {
      const MICROAOT_BIAS acc = MICROAOT_SCALE_SUM(p, out[oc], oc) + (bias != NULL ? bias[oc] : 0);
      out[oc] = MICROAOT_OUTPUT(p, acc, oc);
    }
    return;
  }
#endif
  for (oc = 0; oc < p->output_depth; ++oc) {
    const int32_t in_c0 = (oc / group) * MICROAOT_CONV_OP(TAP_DEPTH, p);
    MICROAOT_BIAS acc = MICROAOT_SCALE_SUM(
        p, conv_accumulate(p, input_batch + in_c0, filter + (size_t)oc * filter_step, y, x), oc);
    /* Also without a bias a 0 is added, as the reference does (for floats it turns -0.0f into +0.0f). */
    acc += bias != NULL ? bias[oc] : 0;
    out[oc] = MICROAOT_OUTPUT(p, acc, oc);
  }
}

/* Every output row in order, straight into the output, or (overlap variant) into row_scratch and then copied
 * to its place, so that no output byte is stored before the last input read of its row. */
static void conv_rows(const MICROAOT_CONV_PARAMS* p, const MICROAOT_T* input, const MICROAOT_W* filter,
                      const MICROAOT_BIAS* bias, MICROAOT_T* output, MICROAOT_T* row_scratch) {
  const size_t input_batch_size = (size_t)p->input_height * (size_t)p->input_width * (size_t)p->input_depth;
  const size_t row_size = (size_t)p->output_width * (size_t)p->output_depth;
  int32_t b, oy, ox;
  for (b = 0; b < p->batches; ++b) {
    const MICROAOT_T* input_batch = input + (size_t)b * input_batch_size;
    for (oy = 0; oy < p->output_height; ++oy) {
      const microaot_window y = microaot_window_of(oy, p->stride_height, p->pad_height, p->filter_height,
                                                   p->dilation_height, p->input_height);
      MICROAOT_T* row = output + (size_t)(b * p->output_height + oy) * row_size;
      MICROAOT_T* dst = row_scratch != NULL ? row_scratch : row;
      for (ox = 0; ox < p->output_width; ++ox) {
        const microaot_window x =
            microaot_window_of(ox, p->stride_width, p->pad_width, p->filter_width, p->dilation_width, p->input_width);
        conv_pixel(p, input_batch, filter, bias, &y, &x, dst + (size_t)ox * (size_t)p->output_depth);
      }
      if (row_scratch != NULL) memcpy(row, row_scratch, row_size * sizeof(MICROAOT_T));
    }
  }
}

#ifndef MICROAOT_CONV_LINKAGE
#define MICROAOT_CONV_LINKAGE
#endif

MICROAOT_CONV_LINKAGE void MICROAOT_FN(const MICROAOT_CONV_PARAMS* params, const MICROAOT_T* input,
                                       const MICROAOT_W* filter, const MICROAOT_BIAS* bias, MICROAOT_T* output) {
  conv_rows(params, input, filter, bias, output, NULL);
}

MICROAOT_CONV_LINKAGE void MICROAOT_FN_OVERLAP(const MICROAOT_CONV_PARAMS* params, const MICROAOT_T* input,
                                               const MICROAOT_W* filter, const MICROAOT_BIAS* bias, MICROAOT_T* output,
                                               void* scratch) {
  conv_rows(params, input, filter, bias, output, (MICROAOT_T*)scratch);
}
#endif /* MICROAOT_CONV_ACCUMULATE_ONLY */
