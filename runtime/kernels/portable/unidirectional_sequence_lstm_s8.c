/* UNIDIRECTIONAL_SEQUENCE_LSTM int8 activations, int8 weights, int16 cell state, int32 bias (TFLM's 8x8->16). */
#define MICROAOT_DTYPE s8
#define MICROAOT_FN microaot_unidirectional_sequence_lstm_s8
#define MICROAOT_CELL int16_t
#include "microaot/internal/templates/lstm.h"
#include "microaot/internal/templates/lstm_q.h"
