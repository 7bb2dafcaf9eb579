/* Which 16x8 layers (int16 activations, int8 weights) the DSP CONV_2D and FULLY_CONNECTED kernels compute on
 * their fast path, written once: the convolution kernel (runtime/kernels/dsp/conv_2d_s16.c) takes the portable
 * code for any other layer, and the compiler says why in network_info.txt (compiler/kernels/isa_fallbacks.cpp).
 * Windows and rows of any length run on the fast path (in pieces where they are long: microaot/internal/
 * dsp_dot_s16.h); the FULLY_CONNECTED kernel takes every layer, zero-point offsets included. */
#ifndef MICROAOT_FIT_DSP_S16_H
#define MICROAOT_FIT_DSP_S16_H

#include "microaot/kernels/conv.h"

/* Ungrouped filters. */
static inline int microaot_fit_conv_2d_s16_dsp(const microaot_conv_2d_params_q* p) {
  return p->filter_depth == p->input_depth;
}

#endif /* MICROAOT_FIT_DSP_S16_H */
