/* Which 16x8 layers (int16 activations, int8 weights) the DSP CONV_2D and FULLY_CONNECTED kernels compute on
 * their fast path, written once: the kernels (runtime/kernels/dsp/conv_2d_s16.c, fully_connected_s16.c) take
 * the portable code for any other layer, and the compiler says why in network_info.txt
 * (compiler/kernels/isa_fallbacks.cpp). The rows live in stack buffers of these many int16 elements. */
#ifndef MICROAOT_FIT_DSP_S16_H
#define MICROAOT_FIT_DSP_S16_H

#include "microaot/kernels/conv.h"
#include "microaot/kernels/fully_connected.h"

/* A pixel's window (filter_height * filter_width * input_depth); two of them on the stack (2.3 KB). */
#define MICROAOT_CONV_S16_DSP_WINDOW_MAX 576
/* An input row (input_depth), or two where they fit, on the stack (2 KB). */
#define MICROAOT_FC_S16_DSP_DEPTH_MAX 1024

/* Ungrouped filters whose window fits the buffer. */
static inline int microaot_fit_conv_2d_s16_dsp(const microaot_conv_2d_params_q* p) {
  return p->filter_depth == p->input_depth &&
         p->filter_height * p->filter_width * p->input_depth <= MICROAOT_CONV_S16_DSP_WINDOW_MAX;
}

/* Rows that fit the buffer, without zero-point offsets (16x8 is symmetric; the portable kernel takes any). */
static inline int microaot_fit_fully_connected_s16_dsp(const microaot_fully_connected_params_q* p) {
  return p->input_depth <= MICROAOT_FC_S16_DSP_DEPTH_MAX && p->input_offset == 0 && p->filter_offset == 0;
}

#endif /* MICROAOT_FIT_DSP_S16_H */
