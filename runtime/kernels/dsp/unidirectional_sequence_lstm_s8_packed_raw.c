/* int8 UNIDIRECTIONAL_SEQUENCE_LSTM over raw-form int8 gate weight words (microaot/kernels/lstm.h): one SXTB16 per
 * word, sums 256 times the others'. */
#define MICROAOT_PACKED_RAW_WEIGHTS 1
#define MICROAOT_FN microaot_unidirectional_sequence_lstm_s8_packed_raw
#include "microaot/internal/templates/lstm_s8_packed.h"
