/* UNIDIRECTIONAL_SEQUENCE_LSTM int16 activations, int8 weights, int16 cell state, int64 bias (TFLM's 16x8->16). */
#define MICROAOT_DTYPE s16
#define MICROAOT_FN microaot_unidirectional_sequence_lstm_s16
#define MICROAOT_CELL int16_t
#include "microaot/internal/templates/lstm.h"
#include "microaot/internal/templates/lstm_q.h"
