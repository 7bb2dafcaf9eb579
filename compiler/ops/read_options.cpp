#include "ops/read_options.h"

#include "support/diagnostics.h"

namespace microaot {

void refuse_options(const Graph& graph, const Op& op, const std::string& what) {
  throw CompileError(describe_op(graph, op) + ": " + what);
}

Activation read_activation(const Graph& graph, const Op& op, tflite::ActivationFunctionType fn) {
  using tflite::ActivationFunctionType;
  switch (fn) {
    case ActivationFunctionType::NONE: return Activation::kNone;
    case ActivationFunctionType::RELU: return Activation::kRelu;
    case ActivationFunctionType::RELU_N1_TO_1: return Activation::kReluN1To1;
    case ActivationFunctionType::RELU6: return Activation::kRelu6;
    default: break;
  }
  const char* name = tflite::EnumNameActivationFunctionType(fn);
  refuse_options(graph, op,
                 std::string("fused activation ") + (*name ? name : std::to_string(static_cast<int>(fn))) +
                     " is not supported (only NONE, RELU, RELU_N1_TO_1 and RELU6)");
}

Padding read_padding(const Graph& graph, const Op& op, tflite::Padding value) {
  if (value == tflite::Padding::SAME) return Padding::kSame;
  if (value == tflite::Padding::VALID) return Padding::kValid;
  refuse_options(graph, op, "unknown padding " + std::to_string(static_cast<int>(value)));
}

int read_positive(const Graph& graph, const Op& op, const char* field, int value) {
  if (value < 1) refuse_options(graph, op, std::string(field) + " is " + std::to_string(value) + ", must be at least 1");
  return value;
}

}  // namespace microaot
