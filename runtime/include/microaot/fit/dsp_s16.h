/* Which 16x8 layers (int16 activations, int8 weights) the DSP CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED
 * kernels compute on their fast path, written once: the kernels (runtime/kernels/dsp/conv_2d_s16.c,
 * depthwise_conv_2d_s16.c, fully_connected_s16.c) take the portable code for any other layer, and the compiler says
 * why in network_info.txt (compiler/kernels/isa_fallbacks.cpp). Convolution windows and FULLY_CONNECTED rows of any
 * length run on the fast path (in pieces where they are long: microaot/internal/dsp_dot_s16.h); the FULLY_CONNECTED
 * kernel takes every layer, zero-point offsets included. */
#ifndef MICROAOT_FIT_DSP_S16_H
#define MICROAOT_FIT_DSP_S16_H

#include "microaot/kernels/conv.h"

/* Ungrouped filters. */
static inline int microaot_fit_conv_2d_s16_dsp(const microaot_conv_2d_params_q* p) {
  return p->filter_depth == p->input_depth;
}

/* A depthwise filter's taps (filter_height * filter_width), each channel pair's widened on the stack (512 B). Below
 * 512, so that a channel's sum of products (each at most 2^22 in magnitude) stays exact in int32. */
#define MICROAOT_DEPTHWISE_S16_DSP_TAPS_MAX 128
/* The output shifts of the depthwise kernel's one-SMLAL output step (microaot_dsp_s16_high_of): a right shift of
 * 16 to 32 bits in TFLite's 16x8 requantization, 15 - shift (multipliers from 2^-18 to 1/2). */
#define MICROAOT_DEPTHWISE_S16_DSP_SHIFT_MIN (-17)
#define MICROAOT_DEPTHWISE_S16_DSP_SHIFT_MAX (-1)

/* Channel c's shift takes the one-SMLAL output step. */
static inline int microaot_fit_depthwise_s16_dsp_shift(int32_t shift) {
  return shift >= MICROAOT_DEPTHWISE_S16_DSP_SHIFT_MIN && shift <= MICROAOT_DEPTHWISE_S16_DSP_SHIFT_MAX;
}

/* Filters whose taps fit the buffer, a clamp inside int16 (the two outputs of a pixel are clamped as one word's
 * lanes) and every channel's shift in range (output_shift NULL: not yet known, the compiler's structural view). */
static inline int microaot_fit_depthwise_conv_2d_s16_dsp(const microaot_depthwise_conv_2d_params_q* p) {
  int32_t c;
  if (p->filter_height * p->filter_width > MICROAOT_DEPTHWISE_S16_DSP_TAPS_MAX || p->activation_min < -32768 ||
      p->activation_max > 32767) {
    return 0;
  }
  for (c = 0; p->output_shift != NULL && c < p->output_depth; ++c) {
    if (!microaot_fit_depthwise_s16_dsp_shift(p->output_shift[c])) return 0;
  }
  return 1;
}

#endif /* MICROAOT_FIT_DSP_S16_H */
