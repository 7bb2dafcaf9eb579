/* The UNIDIRECTIONAL_SEQUENCE_LSTM template for one element type: the sequence walk and the step, in TFLM's
 * order (lstm_eval.h). The including file defines MICROAOT_DTYPE (s8, s16, f32), MICROAOT_FN and MICROAOT_CELL
 * (the cell state's element type) before it, and the type's arithmetic as static functions:
 *   lstm_fc(params, fc, x, rows, depth, weights, bias, out)   one gate's fully connected layer; fc is 0-3 for
 *                                                             the input side of gate i, f, g, o, 4-7 for the
 *                                                             recurrent side
 *   lstm_add(a, b, n)                                         a += b (saturating for integers)
 *   lstm_activate(params, is_tanh, data, n)                   sigmoid, or tanh for the cell gate, in place
 *   lstm_update_cell(params, f, i, g, cell, n)                cell = f * cell + i * g, clipped; i is overwritten
 *   lstm_update_hidden(params, o, cell, tmp, hidden, n)       hidden = o * tanh(cell); tmp is a buffer */
#include <stddef.h>
#include <string.h>

#include "microaot/internal/kernel_dtype.h"
#include "microaot/kernels/lstm.h"

/* The type's arithmetic, defined by the including file before or after this template. */
static void lstm_fc(const MICROAOT_PARAMS_Q(lstm) * p, int fc, const MICROAOT_T* x, int32_t rows, int32_t depth,
                    const MICROAOT_W* weights, const MICROAOT_BIAS* bias, MICROAOT_CELL* out);
static void lstm_add(MICROAOT_CELL* a, const MICROAOT_CELL* b, size_t n);
static void lstm_activate(const MICROAOT_PARAMS_Q(lstm) * p, int is_tanh, MICROAOT_CELL* data, size_t n);
static void lstm_update_cell(const MICROAOT_PARAMS_Q(lstm) * p, const MICROAOT_CELL* f, MICROAOT_CELL* i,
                             const MICROAOT_CELL* g, MICROAOT_CELL* cell, size_t n);
static void lstm_update_hidden(const MICROAOT_PARAMS_Q(lstm) * p, const MICROAOT_CELL* o, const MICROAOT_CELL* cell,
                               MICROAOT_CELL* tmp, MICROAOT_T* hidden, size_t n);

enum { LSTM_GATE_I = 0, LSTM_GATE_F = 1, LSTM_GATE_G = 2, LSTM_GATE_O = 3 };

/* One gate for `rows` rows: the input-side FC into out, the recurrent-side FC into tmp, their sum, then the
 * gate's activation. */
static void lstm_gate(const MICROAOT_PARAMS_Q(lstm) * p, int gate, const MICROAOT_T* x, const MICROAOT_T* hidden,
                      const MICROAOT_W* input_weights, const MICROAOT_W* recurrent_weights, const MICROAOT_BIAS* bias,
                      int32_t rows, MICROAOT_CELL* out, MICROAOT_CELL* tmp) {
  const size_t state = (size_t)p->state_size;
  const size_t n = (size_t)rows * state;
  lstm_fc(p, gate, x, rows, p->input_size, input_weights + (size_t)gate * state * (size_t)p->input_size,
          bias + (size_t)gate * state, out);
  lstm_fc(p, MICROAOT_LSTM_GATES + gate, hidden, rows, p->state_size, recurrent_weights + (size_t)gate * state * state,
          bias + (size_t)(MICROAOT_LSTM_GATES + gate) * state, tmp);
  lstm_add(out, tmp, n);
  lstm_activate(p, gate == LSTM_GATE_G, out, n);
}

/* One time step over `rows` rows of input x; updates hidden and cell (rows x state) and writes the output rows.
 * Buffers as TFLM uses them: f, i, g in 0-2 and the recurrent sums in 3; then o in 1 and tanh(cell) in 0. */
static void lstm_step(const MICROAOT_PARAMS_Q(lstm) * p, const MICROAOT_T* x, const MICROAOT_W* input_weights,
                      const MICROAOT_W* recurrent_weights, const MICROAOT_BIAS* bias, int32_t rows,
                      MICROAOT_T* hidden, MICROAOT_CELL* cell, MICROAOT_T* output, MICROAOT_CELL* buffer) {
  const size_t n = (size_t)rows * (size_t)p->state_size;
  MICROAOT_CELL* forget = buffer;
  MICROAOT_CELL* input_gate = buffer + n;
  MICROAOT_CELL* cell_gate = buffer + 2 * n;
  MICROAOT_CELL* tmp = buffer + 3 * n;
  lstm_gate(p, LSTM_GATE_F, x, hidden, input_weights, recurrent_weights, bias, rows, forget, tmp);
  lstm_gate(p, LSTM_GATE_I, x, hidden, input_weights, recurrent_weights, bias, rows, input_gate, tmp);
  lstm_gate(p, LSTM_GATE_G, x, hidden, input_weights, recurrent_weights, bias, rows, cell_gate, tmp);
  lstm_update_cell(p, forget, input_gate, cell_gate, cell, n);
  lstm_gate(p, LSTM_GATE_O, x, hidden, input_weights, recurrent_weights, bias, rows, input_gate, tmp);
  lstm_update_hidden(p, input_gate, cell, forget, hidden, n);
  memcpy(output, hidden, n * sizeof(MICROAOT_T));
}

void MICROAOT_FN(const MICROAOT_PARAMS_Q(lstm) * params, const MICROAOT_T* input, const MICROAOT_W* input_weights,
                 const MICROAOT_W* recurrent_weights, const MICROAOT_BIAS* bias, MICROAOT_T* output_state,
                 MICROAOT_CELL* cell_state, MICROAOT_T* output, void* scratch) {
  /* Time-major: each step takes every batch row at once. Batch-major: each batch runs its own sequence on its
   * own state row. Either way the input and output rows of consecutive steps follow each other in memory. */
  const int32_t rows = params->time_major ? params->batches : 1;
  const int32_t sequences = params->time_major ? 1 : params->batches;
  const size_t in_step = (size_t)rows * (size_t)params->input_size;
  const size_t out_step = (size_t)rows * (size_t)params->state_size;
  int32_t s, t;
  for (s = 0; s < sequences; ++s) {
    MICROAOT_T* hidden = output_state + (size_t)s * out_step;
    MICROAOT_CELL* cell = cell_state + (size_t)s * out_step;
    for (t = 0; t < params->time_steps; ++t) {
      const size_t step = (size_t)s * (size_t)params->time_steps + (size_t)t;
      lstm_step(params, input + step * in_step, input_weights, recurrent_weights, bias, rows, hidden, cell,
                output + step * out_step, (MICROAOT_CELL*)scratch);
    }
  }
}
