/* int8 UNIDIRECTIONAL_SEQUENCE_LSTM over packed int8 gate weight words (microaot/kernels/lstm.h). */
#define MICROAOT_PACKED_WIDE_WEIGHTS 0
#define MICROAOT_FN microaot_unidirectional_sequence_lstm_s8_packed
#include "microaot/internal/templates/lstm_s8_packed.h"
