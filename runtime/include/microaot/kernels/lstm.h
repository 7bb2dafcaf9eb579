/* UNIDIRECTIONAL_SEQUENCE_LSTM kernels, as TFLite Micro's kernel computes them (unidirectional_sequence_lstm.cc,
 * lstm_eval.h): no peephole, projection, layer norm or CIFG (TFLM accepts none). Each step computes four gates
 * (input i, forget f, cell g, output o), each the sum of a fully connected layer over the step's input and one
 * over the hidden state, then sigmoid (tanh for g); then cell = f * cell + i * g (clipped), and
 * hidden = o * tanh(cell), which is also the step's output row.
 *
 * Weights come stacked by the compiler, gates in the order i, f, g, o: input weights [4][state][input],
 * recurrent weights [4][state][state] and biases [8][state] (the four input-side biases, then four for the
 * recurrent side). Integer biases have the zero points folded in: bias - input zero point * row sum of the
 * weights, so the kernels multiply raw values. output_state (the hidden state) and cell_state are variable
 * tensors: read and updated in place, kept from one run to the next. Scratch: four buffers of
 * rows * state elements of the cell type, rows = batches (time-major) or 1 (batch-major).
 *
 * Integer (8x8->16 with int32 bias, 16x8->16 with int64 bias): the gates' fully connected layers requantize to
 * int16 Q3.12, their sum saturates; sigmoid and tanh give Q0.15 through the int16 table of LOGISTIC/TANH; the
 * cell state is int16 at a power-of-two scale. */
#ifndef MICROAOT_KERNELS_LSTM_H
#define MICROAOT_KERNELS_LSTM_H

#include <stdint.h>

#include "microaot/params.h"
#include "microaot/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MICROAOT_LSTM_GATES 4

/* Time-major: input [time_steps][batches][input_size]; batch-major: [batches][time_steps][input_size]. */
#define MICROAOT_LSTM_SHAPE_FIELDS(X) \
  X(I32, batches)                     \
  X(I32, time_steps)                  \
  X(I32, input_size)                  \
  X(I32, state_size)                  \
  X(I32, time_major) /* 1 or 0 */

/* Multipliers are Q31 mantissas with their exponents (> 0 shifts left). */
#define MICROAOT_FIELDS_lstm_params_q(X)                                                              \
  MICROAOT_LSTM_SHAPE_FIELDS(X)                                                                       \
  X(I32_ARRAY, gate_multiplier) /* [8] input-side FC of i, f, g, o, then recurrent-side: to Q3.12 */  \
  X(I32_ARRAY, gate_shift)      /* [8] */                                                             \
  X(I32, forget_multiplier)     /* f (Q0.15) * cell -> cell */                                        \
  X(I32, forget_shift)                                                                                \
  X(I32, input_multiplier)      /* i * g (both Q0.15) -> cell */                                      \
  X(I32, input_shift)                                                                                 \
  X(I32, hidden_multiplier)     /* o * tanh(cell) (both Q0.15) -> hidden state */                     \
  X(I32, hidden_shift)                                                                                \
  X(I32, hidden_zero_point)                                                                           \
  X(I32, hidden_min)            /* the hidden state type's range */                                   \
  X(I32, hidden_max)                                                                                  \
  X(I32, cell_clip)             /* |cell| bound in cell units; negative: no clipping */               \
  X(I32, cell_tanh_multiplier)  /* cell -> the table's input units, as sigmoid_params_s16 */          \
  X(I32, cell_tanh_shift)                                                                             \
  X(I16_ARRAY, sigmoid_table)   /* [256] the LOGISTIC/TANH int16 table */
MICROAOT_DEFINE_PARAMS(lstm_params_q)

#define MICROAOT_FIELDS_lstm_params_f32(X) \
  MICROAOT_LSTM_SHAPE_FIELDS(X)            \
  X(F32, cell_clip) /* 0: no clipping */
MICROAOT_DEFINE_PARAMS(lstm_params_f32)

void microaot_unidirectional_sequence_lstm_s8(const microaot_lstm_params_q* params, const int8_t* input,
                                              const int8_t* input_weights, const int8_t* recurrent_weights,
                                              const int32_t* bias, int8_t* output_state, int16_t* cell_state,
                                              int8_t* output, void* scratch);
void microaot_unidirectional_sequence_lstm_s16(const microaot_lstm_params_q* params, const int16_t* input,
                                               const int8_t* input_weights, const int8_t* recurrent_weights,
                                               const int64_t* bias, int16_t* output_state, int16_t* cell_state,
                                               int16_t* output, void* scratch);
void microaot_unidirectional_sequence_lstm_f32(const microaot_lstm_params_f32* params, const float* input,
                                               const float* input_weights, const float* recurrent_weights,
                                               const float* bias, float* output_state, float* cell_state,
                                               float* output, void* scratch);

/* The int8 kernel over packed gate weights, for a target with the DSP extension (compiler/ops/
 * unidirectional_sequence_lstm.cpp picks it): all four gates as one product of 4 * state units, the stacked
 * weights of each side in the packed kernels' layout (microaot/internal/packed_dot.h: int8 words, int16 ones
 * for the _w16 form, the raw form of the int8 words for the _raw one, whose biases are those of the raw form:
 * compiler/ops/packed_weights.h), the biases as above. The input side does not depend on the state, so it runs
 * three time steps' rows at once (three rows against two units per inner step); the recurrent side one row
 * against four units. Bit-exact with microaot_unidirectional_sequence_lstm_s8 over the stacked int8 weights. A
 * layer outside microaot_fit_lstm_packed (microaot/fit/lstm.h) gets MICROAOT_STATUS_VALUE_OUT_OF_RANGE, nothing
 * written.
 * Scratch: MICROAOT_LSTM_PACKED_SCRATCH_BYTES(rows, input_size, state_size), word aligned. */
#define MICROAOT_LSTM_PACKED_GROUPS(depth) (((depth) + 3) / 4)
/* The input side's steps per product (three rows against each weight word), whose gates wait in the scratch. */
#define MICROAOT_LSTM_PACKED_STEPS 3
/* Three widened rows of the longer side, then the steps' input-side gates and one step's gates (int16). */
#define MICROAOT_LSTM_PACKED_SCRATCH_BYTES(rows, input_size, state_size)                                   \
  (8 * MICROAOT_LSTM_PACKED_STEPS *                                                                       \
       ((input_size) > (state_size) ? MICROAOT_LSTM_PACKED_GROUPS(input_size)                             \
                                    : MICROAOT_LSTM_PACKED_GROUPS(state_size)) +                          \
   2 * (MICROAOT_LSTM_PACKED_STEPS + 1) * (rows) * MICROAOT_LSTM_GATES * (state_size))
microaot_status microaot_unidirectional_sequence_lstm_s8_packed(const microaot_lstm_params_q* params,
                                                                const int8_t* input, const int32_t* input_weights,
                                                                const int32_t* recurrent_weights, const int32_t* bias,
                                                                int8_t* output_state, int16_t* cell_state,
                                                                int8_t* output, void* scratch);
microaot_status microaot_unidirectional_sequence_lstm_s8_packed_w16(
    const microaot_lstm_params_q* params, const int8_t* input, const int32_t* input_weights,
    const int32_t* recurrent_weights, const int32_t* bias, int8_t* output_state, int16_t* cell_state, int8_t* output,
    void* scratch);
microaot_status microaot_unidirectional_sequence_lstm_s8_packed_raw(
    const microaot_lstm_params_q* params, const int8_t* input, const int32_t* input_weights,
    const int32_t* recurrent_weights, const int32_t* bias, int8_t* output_state, int16_t* cell_state, int8_t* output,
    void* scratch);

#ifdef __cplusplus
}
#endif

#endif /* MICROAOT_KERNELS_LSTM_H */
