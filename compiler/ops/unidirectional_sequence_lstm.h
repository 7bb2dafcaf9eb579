// The options of UNIDIRECTIONAL_SEQUENCE_LSTM as its handler reads them (ops/unidirectional_sequence_lstm.cpp).
#pragma once

#include "ops/read_options.h"

namespace microaot {

struct LstmOptions {
  tflite::ActivationFunctionType activation = tflite::ActivationFunctionType::NONE;  // of the cell gate
  float cell_clip = 0.0f;                                                             // > 0: |cell| bound
  bool time_major = false;
  bool diagonal_recurrent = false;
};

}  // namespace microaot
