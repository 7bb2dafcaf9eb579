/* Which integer SVDF layers the packed DSP ring kernels compute, written once: the compiler's chooser
 * (compiler/ops/svdf.cpp) evaluates it on the params the kernel will receive, and the kernels' guard refuses any
 * other layer with a status (a graph blob is untrusted). Pure function of the params. */
#ifndef MICROAOT_FIT_SVDF_H
#define MICROAOT_FIT_SVDF_H

#include <stdint.h>

#include "microaot/kernels/svdf.h"

/* Sizes of at least one, filters = units * rank, and both requantizations within microaot/internal/dsp_requant.h's
 * clamped and narrow steps: a multiplier of 0 or in [2^30, 2^31) (the compiler's, from QuantizeMultiplier), a
 * right shift of at most 15 for the feature value (clamped to the state type, at most int16) and of at most 21
 * for the output (clamped to int8 after the zero point, at most 128 in magnitude). */
static inline int microaot_fit_svdf_multiplier(int32_t multiplier) {
  return multiplier == 0 || multiplier >= ((int32_t)1 << 30);
}

static inline int microaot_fit_svdf_packed(const microaot_svdf_params_q* p) {
  return p->batches >= 1 && p->input_size >= 1 && p->units >= 1 && p->rank >= 1 && p->memory >= 1 &&
         (int64_t)p->units * p->rank == p->filters && microaot_fit_svdf_multiplier(p->feature_multiplier) &&
         p->feature_shift >= -15 && p->feature_shift <= 31 && microaot_fit_svdf_multiplier(p->output_multiplier) &&
         p->output_shift >= -21 && p->output_shift <= 31 &&
         p->output_offset >= -128 && p->output_offset <= 128;
}

#endif
