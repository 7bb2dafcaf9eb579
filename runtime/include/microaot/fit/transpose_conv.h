/* The stride phases of an int8 TRANSPOSE_CONV, written once for the compiler (compiler/ops/transpose_conv_packed.cpp,
 * which lays out each phase's weights) and the packed DSP kernel (microaot/internal/templates/packed_transpose_conv.h,
 * which convolves with them). Along one axis, the outputs o with (o + pad) % stride == r (phase r) take the filter
 * taps r, r + stride, ... alone: phase r is a convolution of unit stride over the original input, its output m
 * being output first + m * stride, its window the phase's taps reversed (phase tap t is filter tap
 * r + stride * (taps - 1 - t)). A phase with no tap (r >= filter) takes one tap of zero weights, so that its
 * outputs are the bias's. Pure functions of the params. */
#ifndef MICROAOT_FIT_TRANSPOSE_CONV_H
#define MICROAOT_FIT_TRANSPOSE_CONV_H

#include <stdint.h>

#include "microaot/kernels/packed.h"
#include "microaot/kernels/transpose_conv.h"

/* The taps of phase r (at least one). */
static inline int32_t microaot_tconv_phase_taps(int32_t filter, int32_t stride, int32_t r) {
  return r < filter ? (filter - r + stride - 1) / stride : 1;
}

/* The filter tap of phase tap t, or -1: none (the zero tap of a phase without taps). */
static inline int32_t microaot_tconv_filter_tap(int32_t filter, int32_t stride, int32_t r, int32_t t) {
  const int32_t tap = r + stride * (microaot_tconv_phase_taps(filter, stride, r) - 1 - t);
  return tap < filter ? tap : -1;
}

/* The first output of phase r (pad >= 0: TFLM's transposed padding never is negative). */
static inline int32_t microaot_tconv_phase_first(int32_t pad, int32_t stride, int32_t r) {
  return ((r - pad) % stride + stride) % stride;
}

/* How many outputs of `out` phase r has. */
static inline int32_t microaot_tconv_phase_outputs(int32_t out, int32_t pad, int32_t stride, int32_t r) {
  const int32_t first = microaot_tconv_phase_first(pad, stride, r);
  return first < out ? (out - first + stride - 1) / stride : 0;
}

/* The padding of phase r's convolution: its output m's window starts at input (first + pad - r) / stride + m -
 * (taps - 1), inputs outside the image reading the zero point (whose products the folded bias cancels). */
static inline int32_t microaot_tconv_phase_pad(int32_t filter, int32_t pad, int32_t stride, int32_t r) {
  return microaot_tconv_phase_taps(filter, stride, r) - 1 -
         (microaot_tconv_phase_first(pad, stride, r) + pad - r) / stride;
}

/* The window of phase (ry, rx): its taps times the input depth. */
static inline int32_t microaot_tconv_phase_window(const microaot_transpose_conv_params_q* p, int32_t ry, int32_t rx) {
  return microaot_tconv_phase_taps(p->filter_height, p->stride_height, ry) *
         microaot_tconv_phase_taps(p->filter_width, p->stride_width, rx) * p->input_depth;
}

/* The longest phase window: phase 0's on both axes. */
static inline int32_t microaot_tconv_max_window(const microaot_transpose_conv_params_q* p) {
  return microaot_tconv_phase_window(p, 0, 0);
}

/* A filter a multiple of the stride on both axes gives every phase the same taps (filter / stride): all phases
 * then run as one convolution whose units are every phase's channels (ry, rx, channel ascending), each window
 * (its last tap at input anchor q) giving the s x s block of outputs q * stride - pad + r, r in [0, stride): the
 * window is gathered and widened once for all phases. (At unit strides the one phase is the same convolution,
 * its outputs stored in place.) */
static inline int microaot_tconv_unified(const microaot_transpose_conv_params_q* p) {
  return p->stride_height * p->stride_width > 1 && p->filter_height % p->stride_height == 0 &&
         p->filter_width % p->stride_width == 0;
}

/* The units of the packed product: the output channels, times the phases when they are unified. */
static inline int32_t microaot_tconv_units(const microaot_transpose_conv_params_q* p) {
  return microaot_tconv_unified(p) ? p->stride_height * p->stride_width * p->output_depth : p->output_depth;
}

/* The first and last input anchors of the unified blocks along an axis: the blocks that hold an output. */
static inline int32_t microaot_tconv_first_anchor(int32_t pad, int32_t stride) { return pad / stride; }
static inline int32_t microaot_tconv_last_anchor(int32_t out, int32_t pad, int32_t stride) {
  return (out - 1 + pad) / stride;
}

/* The packed kernel (transpose_conv_s8_packed): sizes within its int32 arithmetic and every phase's window
 * within one chunk of the packed rows (MICROAOT_PACKED_CHUNK: no reduction in chunks). In 64 bits: a graph blob's
 * params are untrusted. */
static inline int microaot_fit_transpose_conv_packed(const microaot_transpose_conv_params_q* p) {
  return p->batches >= 1 && p->input_height >= 1 && p->input_width >= 1 && p->input_depth >= 1 &&
         p->filter_height >= 1 && p->filter_width >= 1 && p->stride_height >= 1 && p->stride_width >= 1 &&
         p->stride_height <= 64 && p->stride_width <= 64 && p->filter_height <= 64 && p->filter_width <= 64 &&
         p->pad_height >= 0 && p->pad_width >= 0 && p->output_height >= 1 && p->output_width >= 1 &&
         p->output_depth >= 1 && p->output_depth <= 64 * 1024 &&
         (int64_t)p->filter_height * p->filter_width * p->input_depth <= 64 * 1024 &&
         microaot_tconv_max_window(p) <= MICROAOT_PACKED_CHUNK;
}

/* Its scratch: one chunk's widened rows and gathered window (MICROAOT_PACKED_CHUNK_WINDOWS_BYTES of the longest
 * window), then two windows' outputs (microaot_tconv_units each: the phase's pair, stored stride apart, or two
 * unified blocks). */
#define MICROAOT_TRANSPOSE_CONV_PACKED_BYTES(window, units) \
  (MICROAOT_PACKED_CHUNK_WINDOWS_BYTES(window) + 4 * (((units) + 1) / 2))

/* The words of one phase in the packed weights (per unit pair and group of four elements, one chunk) and in the
 * output step's table; the phases follow each other, ry then rx ascending (unified: one set of every unit). */
#define MICROAOT_TRANSPOSE_CONV_PHASE_WORDS(window, units, pair_words) \
  ((((units) + 1) / 2) * (pair_words) * (((window) + 3) / 4))

#endif /* MICROAOT_FIT_TRANSPOSE_CONV_H */
