/* Which int8 CONV_2D and FULLY_CONNECTED layers the Helium (MVE) rows compute, written once: the compiler's
 * choosers (compiler/ops/mve_weights.cpp) send only these to the folded-bias kernels
 * (microaot/kernels/mve_folded.h), and the Helium kernels' guards (microaot/internal/mve_conv.h, the Helium conv
 * and FULLY_CONNECTED sources) take other code for any other. Pure functions of the params. */
#ifndef MICROAOT_FIT_MVE_MATMUL_H
#define MICROAOT_FIT_MVE_MATMUL_H

#include <stdint.h>

#include "microaot/kernels/conv.h"
#include "microaot/kernels/fully_connected.h"

/* One output pixel's window (two on the stack) and the channels whose folded biases and sums the stack holds. */
#define MICROAOT_MVE_CONV_WINDOW_MAX 1152
#define MICROAOT_MVE_CONV_CHANNELS_MAX 256

/* A CONV_2D's shape: ungrouped, the window and the channels within the stack's buffers. */
static inline int microaot_fit_mve_conv(const microaot_conv_2d_params_q* p) {
  return p->filter_depth == p->input_depth &&
         (int64_t)p->filter_height * p->filter_width * p->input_depth <= MICROAOT_MVE_CONV_WINDOW_MAX &&
         p->output_depth >= 1 && p->output_depth <= MICROAOT_MVE_CONV_CHANNELS_MAX;
}

/* A FULLY_CONNECTED: symmetric weights (the folded bias holds the input offset's products alone). */
static inline int microaot_fit_mve_fully_connected(const microaot_fully_connected_params_q* p) {
  return p->filter_offset == 0;
}

/* Every channel's shift one the vector output step computes: a left shift below 31 or a right shift of at most
 * 31 (VRSHL's range; the compiler's are far inside it). */
static inline int microaot_fit_mve_shifts(const int32_t* shift, int32_t channels) {
  int32_t c;
  for (c = 0; c < channels; ++c) {
    if (shift[c] > 30 || shift[c] < -31) return 0;
  }
  return 1;
}

#endif
