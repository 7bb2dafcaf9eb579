// Names of the TFLite builtin operators by code, for diagnostics about operators microaot does not compile.
#pragma once

namespace microaot {

// The BuiltinOperator name for `code` (e.g. 16 -> "LSTM"), or nullptr when the code is not one the
// format defines.
const char* tflite_builtin_name(int code);

// The builtin code that marks a custom operator (its name is then the operator code's custom_code).
constexpr int kTfliteCustomCode = 32;

}  // namespace microaot
