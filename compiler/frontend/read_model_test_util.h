// For the frontend's tests: the CompileError text of reading a built model, or "" when it reads.
#pragma once

#include <string>

#include "frontend/model_reader.h"
#include "frontend/tflite_test_builder.h"
#include "support/diagnostics.h"

namespace microaot::tflite_test {

inline std::string read_error(const ModelSpec& m) {
  try {
    read_model(build_model(m));
  } catch (const CompileError& e) {
    return e.what();
  }
  return "";
}

}  // namespace microaot::tflite_test
