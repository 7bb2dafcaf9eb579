/* int8 UNIDIRECTIONAL_SEQUENCE_LSTM with Helium (MVE), bit-exact with the portable kernel
 * (microaot/internal/templates/lstm_q.h). Per step and row: each side (the input row, then the hidden state)
 * against its stacked weights [4][state][depth] as they are (unit rows contiguous: 16 products per VMLADAVA,
 * the row's end tail-predicated), four units per product loop and one sweep over the four gates; the four
 * sums requantized to Q3.12 per vector (the recurrent side's saturated onto the input side's); then the
 * element-wise work four units per vector (sigmoid and tanh by gather loads from the int16 table, the cell and
 * hidden products requantized as TFLM's MulElementwise). Scratch: the row's 4 * state gate values. A layer
 * outside microaot_fit_lstm_packed (microaot/fit/lstm.h: no left shift in the element-wise products, the cell's
 * tanh rescale within 32 bits) takes the portable code; so does a build without MVE. */
#include <stddef.h>
#include <string.h>

#include "microaot/fit/lstm.h"
#include "microaot/internal/mve_recurrent.h"
#include "microaot/kernels/lstm.h"

#if MICROAOT_MVE
void microaot_unidirectional_sequence_lstm_s8_portable(const microaot_lstm_params_q* params, const int8_t* input,
                                                       const int8_t* input_weights, const int8_t* recurrent_weights,
                                                       const int32_t* bias, int8_t* output_state, int16_t* cell_state,
                                                       int8_t* output, void* scratch);
#define MICROAOT_FN microaot_unidirectional_sequence_lstm_s8_portable
#else
#define MICROAOT_FN microaot_unidirectional_sequence_lstm_s8
#endif
#define MICROAOT_DTYPE s8
#define MICROAOT_CELL int16_t
#include "microaot/internal/templates/lstm.h"
#include "microaot/internal/templates/lstm_q.h"

#if MICROAOT_MVE
/* One gate of one side: row x (depth int8) against the gate's `state` weight rows, plus bias, requantized to
 * Q3.12 and clamped to int16; with `add` (the input side's values) their saturating sum. Four units per step,
 * the last one to three predicated (their spare weight pointers repeat the last row). add may be out. */
static void gate_side(const int8_t* x, const int8_t* weights, const int32_t* bias, int32_t depth, int32_t state,
                      const microaot_mve_requant q, const int16_t* add, int16_t* out) {
  int32_t acc[4];
  int32_t u;
  for (u = 0; u < state; u += 4) {
    const mve_pred16_t p = vctp32q((uint32_t)(state - u));
    const int32_t last = state - 1 - u;
    const int8_t* w0 = weights + (size_t)u * (size_t)depth;
    int32x4_t v;
    microaot_mve_set4(acc, 0, 0, 0, 0);
    microaot_mve_dot_1x4(x, w0, w0 + (size_t)(last < 1 ? last : 1) * (size_t)depth,
                         w0 + (size_t)(last < 2 ? last : 2) * (size_t)depth,
                         w0 + (size_t)(last < 3 ? last : 3) * (size_t)depth, depth, acc);
    v = vaddq_s32(vldrwq_s32(acc), vldrwq_z_s32(bias + u, p));
    v = microaot_mve_clamp4(microaot_mve_requant4(q, v), INT16_MIN, INT16_MAX);
    if (add != NULL) v = microaot_mve_clamp4(vaddq_s32(v, vldrhq_z_s32(add + u, p)), INT16_MIN, INT16_MAX);
    vstrhq_p_s32(out + u, v, p);
  }
}

/* The layer's constants of the element-wise work. */
typedef struct {
  microaot_mve_requant gate[2 * MICROAOT_LSTM_GATES], forget, input, hidden;
  int32_t lo, hi, tanh_round;
} lstm_constants;

/* An element-wise product of two int16 values requantized as MulElementwise (|a * b| <= 2^30, no left shift). */
static inline __attribute__((always_inline)) int32x4_t product4(const microaot_mve_requant q, int32x4_t a,
                                                                int32x4_t b) {
  return microaot_mve_requant4(q, vmulq_s32(a, b));
}

/* The element-wise work of one row, four units per vector: the activations (gates are Q3.12: table units are
 * three times the value), the cell (both products, their saturating sum, the clip), then the hidden state. */
static void update_row(const microaot_lstm_params_q* p, const lstm_constants* k, const int16_t* gates, int8_t* hidden,
                       int16_t* cell) {
  const int32_t state = p->state_size;
  const int16_t* table = p->sigmoid_table;
  int32_t j;
  for (j = 0; j < state; j += 4) {
    const mve_pred16_t pred = vctp32q((uint32_t)(state - j));
    const int32x4_t i = microaot_mve_logistic4(table, vmulq_n_s32(vldrhq_z_s32(gates + j, pred), 3));
    const int32x4_t f = microaot_mve_logistic4(table, vmulq_n_s32(vldrhq_z_s32(gates + state + j, pred), 3));
    const int32x4_t g = microaot_mve_tanh4(table, vmulq_n_s32(vldrhq_z_s32(gates + 2 * state + j, pred), 3));
    const int32x4_t o = microaot_mve_logistic4(table, vmulq_n_s32(vldrhq_z_s32(gates + 3 * state + j, pred), 3));
    const int32x4_t kept = microaot_mve_clamp4(product4(k->forget, f, vldrhq_z_s32(cell + j, pred)), INT16_MIN,
                                               INT16_MAX);
    const int32x4_t added = microaot_mve_clamp4(product4(k->input, i, g), INT16_MIN, INT16_MAX);
    const int32x4_t c = microaot_mve_clamp4(microaot_mve_clamp4(vaddq_s32(kept, added), INT16_MIN, INT16_MAX),
                                            k->lo, k->hi);
    /* |c * multiplier| < 2^30 (the fit rule): the rescale is exact in 32 bits */
    const int32x4_t units =
        vshlq_r_s32(vaddq_n_s32(vmulq_n_s32(c, p->cell_tanh_multiplier), k->tanh_round), -p->cell_tanh_shift);
    const int32x4_t h = vaddq_n_s32(product4(k->hidden, microaot_mve_tanh4(table, units), o), p->hidden_zero_point);
    vstrhq_p_s32(cell + j, c, pred);
    vstrbq_p_s32(hidden + j, microaot_mve_clamp4(h, p->hidden_min, p->hidden_max), pred);
  }
}

static void constants_of(const microaot_lstm_params_q* p, lstm_constants* k) {
  int32_t g;
  for (g = 0; g < 2 * MICROAOT_LSTM_GATES; ++g) {
    k->gate[g] = microaot_mve_requant_of(p->gate_multiplier[g], p->gate_shift[g]);
  }
  k->forget = microaot_mve_requant_of(p->forget_multiplier, p->forget_shift);
  k->input = microaot_mve_requant_of(p->input_multiplier, p->input_shift);
  k->hidden = microaot_mve_requant_of(p->hidden_multiplier, p->hidden_shift);
  k->lo = p->cell_clip >= 0 ? -p->cell_clip : INT16_MIN;
  k->hi = p->cell_clip >= 0 ? p->cell_clip : INT16_MAX;
  k->tanh_round = p->cell_tanh_shift > 0 ? (int32_t)1 << (p->cell_tanh_shift - 1) : 0;
}

/* One step of one row: both sides' gates into `gates`, then the row's cell and hidden state. */
static void step_row(const microaot_lstm_params_q* p, const lstm_constants* k, const int8_t* x,
                     const int8_t* input_weights, const int8_t* recurrent_weights, const int32_t* bias, int8_t* hidden,
                     int16_t* cell, int16_t* gates) {
  const int32_t state = p->state_size, depth = p->input_size;
  const size_t in_gate = (size_t)state * (size_t)depth, rec_gate = (size_t)state * (size_t)state;
  int32_t g;
  for (g = 0; g < MICROAOT_LSTM_GATES; ++g) {
    gate_side(x, input_weights + (size_t)g * in_gate, bias + (size_t)g * (size_t)state, depth, state, k->gate[g], NULL,
              gates + (size_t)g * (size_t)state);
  }
  for (g = 0; g < MICROAOT_LSTM_GATES; ++g) {
    const int32_t side = MICROAOT_LSTM_GATES + g;
    int16_t* out = gates + (size_t)g * (size_t)state;
    gate_side(hidden, recurrent_weights + (size_t)g * rec_gate, bias + (size_t)side * (size_t)state, state, state,
              k->gate[side], out, out);
  }
  update_row(p, k, gates, hidden, cell);
}

void microaot_unidirectional_sequence_lstm_s8(const microaot_lstm_params_q* params, const int8_t* input,
                                              const int8_t* input_weights, const int8_t* recurrent_weights,
                                              const int32_t* bias, int8_t* output_state, int16_t* cell_state,
                                              int8_t* output, void* scratch) {
  const int32_t rows = params->time_major ? params->batches : 1;
  const int32_t sequences = params->time_major ? 1 : params->batches;
  const int32_t state = params->state_size, depth = params->input_size;
  const size_t in_step = (size_t)rows * (size_t)depth, out_step = (size_t)rows * (size_t)state;
  lstm_constants k;
  int32_t s, t, r;
  if (!microaot_fit_lstm_packed(params)) {
    microaot_unidirectional_sequence_lstm_s8_portable(params, input, input_weights, recurrent_weights, bias,
                                                      output_state, cell_state, output, scratch);
    return;
  }
  constants_of(params, &k);
  for (s = 0; s < sequences; ++s) {
    for (t = 0; t < params->time_steps; ++t) {
      const size_t step = (size_t)s * (size_t)params->time_steps + (size_t)t;
      for (r = 0; r < rows; ++r) {
        const size_t row = (size_t)s * out_step + (size_t)r * (size_t)state;
        step_row(params, &k, input + step * in_step + (size_t)r * (size_t)depth, input_weights, recurrent_weights,
                 bias, output_state + row, cell_state + row, (int16_t*)scratch);
      }
      memcpy(output + step * out_step, output_state + (size_t)s * out_step, out_step);
    }
  }
}
#endif /* MICROAOT_MVE */
