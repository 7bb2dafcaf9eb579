/* Which DSP int8 AVERAGE_POOL_2D kernel may compute a layer, written once: the compiler's chooser
 * (compiler/ops/average_pool_2d.cpp) picks the stem by these, over the params the kernel will receive, and the
 * kernels' guards (microaot/internal/templates/pool_2d_s8_lanes.h, dsp/average_pool_2d_s8_global.c) refuse any other
 * layer with a status (a graph blob is untrusted). Pure functions of the params. */
#ifndef MICROAOT_FIT_AVERAGE_POOL_2D_H
#define MICROAOT_FIT_AVERAGE_POOL_2D_H

#include <stdint.h>

#include "microaot/kernels/pooling.h"

/* The 16-bit lanes (average_pool_2d_s8_lanes, and the full DSP kernel's lane path): at least four channels (a
 * count that is not a multiple of four ends with the word of its last four), and windows of at most 256 elements,
 * whose int8 sums lie in [-32768, 32512], within a lane, so the lanes never wrap. The product in 64 bits: a graph
 * blob's params are untrusted. */
static inline int microaot_fit_pool_lanes(const microaot_pool_2d_params_q* p) {
  return p->channels >= 4 && p->filter_height >= 1 && p->filter_width >= 1 &&
         (int64_t)p->filter_height * p->filter_width <= 256;
}

/* The global pool (average_pool_2d_s8_global): within the lanes, whole groups of four channels (its means the
 * smaller per-channel code, without the last word of the lanes'), and one window over the whole input plane (no
 * leading padding, a 1x1 output). */
static inline int microaot_fit_pool_global(const microaot_pool_2d_params_q* p) {
  return microaot_fit_pool_lanes(p) && p->channels % 4 == 0 && p->filter_height == p->input_height &&
         p->filter_width == p->input_width && p->padding_height == 0 && p->padding_width == 0 &&
         p->output_height == 1 && p->output_width == 1;
}

#endif
