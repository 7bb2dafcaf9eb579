/* Which int8 UNIDIRECTIONAL_SEQUENCE_LSTM layers the packed DSP kernels compute, written once: the compiler's
 * chooser (compiler/ops/unidirectional_sequence_lstm.cpp) evaluates it on the params the kernel will receive,
 * and the kernels' guard refuses any other layer with a status (a graph blob is untrusted). Pure function of
 * the params. */
#ifndef MICROAOT_FIT_LSTM_H
#define MICROAOT_FIT_LSTM_H

#include <stddef.h>
#include <stdint.h>

#include "microaot/kernels/lstm.h"

/* A gate's requantization (the packed kernels' branch-free step, microaot/internal/templates/lstm_s8_packed.h): a
 * multiplier other than INT32_MIN (the compiler's are 0 or in [2^30, 2^31)) and a right shift of at most 15, so
 * that a product beyond 2^30 gives a value beyond int16 whatever its low bits (it is clamped to int16). */
static inline int microaot_fit_lstm_gate_multiplier(int32_t multiplier, int32_t shift) {
  return multiplier >= 0 && shift >= -15 && shift <= 31;
}

/* An element-wise product's (two int16 values, |a * b| <= 2^30): no left shift, so the rounding stays in 32 bits. */
static inline int microaot_fit_lstm_product_multiplier(int32_t multiplier, int32_t shift) {
  return multiplier >= 0 && shift >= -31 && shift <= 0;
}

/* Sizes of at least one, the arrays there, every requantization within the rules above, and the cell's tanh
 * rescale within 32 bits: |cell * multiplier| < 2^30 and a right shift below 32. */
static inline int microaot_fit_lstm_packed(const microaot_lstm_params_q* p) {
  int k;
  if (p->batches < 1 || p->time_steps < 1 || p->input_size < 1 || p->state_size < 1 ||
      (p->time_major != 0 && p->time_major != 1) || p->gate_multiplier == NULL || p->gate_shift == NULL ||
      p->sigmoid_table == NULL) {
    return 0;
  }
  for (k = 0; k < 2 * MICROAOT_LSTM_GATES; ++k) {
    if (!microaot_fit_lstm_gate_multiplier(p->gate_multiplier[k], p->gate_shift[k])) return 0;
  }
  return microaot_fit_lstm_product_multiplier(p->forget_multiplier, p->forget_shift) &&
         microaot_fit_lstm_product_multiplier(p->input_multiplier, p->input_shift) &&
         microaot_fit_lstm_product_multiplier(p->hidden_multiplier, p->hidden_shift) && p->cell_tanh_multiplier >= 0 &&
         p->cell_tanh_multiplier < (1 << 15) && p->cell_tanh_shift >= 0 && p->cell_tanh_shift <= 31;
}

#endif
