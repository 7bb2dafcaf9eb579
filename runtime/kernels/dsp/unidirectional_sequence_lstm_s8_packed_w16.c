/* int8 UNIDIRECTIONAL_SEQUENCE_LSTM over packed int16 gate weight words (microaot/kernels/lstm.h). */
#define MICROAOT_PACKED_WIDE_WEIGHTS 1
#define MICROAOT_FN microaot_unidirectional_sequence_lstm_s8_packed_w16
#include "microaot/internal/templates/lstm_s8_packed.h"
