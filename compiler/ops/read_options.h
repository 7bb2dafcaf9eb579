// Reading an operator's builtin options table of the .tflite file into IR options (OpHandler::read_options).
// Values the kernels cannot honour (unknown padding, activations other than the clamping ones,
// non-positive strides) are refused here, naming the op.
#pragma once

#include <string>

#include "ir/graph.h"
#include "ops/op_options.h"
#include "tflite_schema_generated.h"

namespace microaot {

Activation read_activation(const Graph& graph, const Op& op, tflite::ActivationFunctionType fn);
Padding read_padding(const Graph& graph, const Op& op, tflite::Padding value);
// `value` of the option `field`, refused below 1.
int read_positive(const Graph& graph, const Op& op, const char* field, int value);
[[noreturn]] void refuse_options(const Graph& graph, const Op& op, const std::string& what);

// The options table of type T, which the operator cannot do without; `table` names it in the error.
template <typename T>
const T& required_options(const Graph& graph, const Op& op, const tflite::Operator& source, const char* table) {
  const T* options = source.builtin_options_as<T>();
  if (options == nullptr) refuse_options(graph, op, std::string("missing ") + table);
  return *options;
}

// FusedActivationOptions from a table with a fused_activation_function field (AddOptions, MulOptions, ...),
// or no activation when the table is absent, as the format's defaults say.
template <typename Table>
OpOptions read_fused_activation(const Graph& graph, const Op& op, const tflite::Operator& source) {
  FusedActivationOptions options;
  if (const Table* table = source.builtin_options_as<Table>()) {
    options.activation = read_activation(graph, op, table->fused_activation_function());
  }
  return options;
}

}  // namespace microaot
