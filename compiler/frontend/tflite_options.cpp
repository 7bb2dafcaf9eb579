// Builtin options of an operator -> IR OpOptions. Values the kernels cannot honour (unknown padding,
// activations other than the clamping ones, non-positive strides) are refused here, naming the op.
#include <cmath>
#include <string>

#include "frontend/tflite_internal.h"
#include "support/diagnostics.h"

namespace microaot {
namespace tflite_detail {

namespace {
using tflite::ActivationFunctionType;

[[noreturn]] void fail(const Graph& graph, const Op& op, const std::string& what) {
  throw CompileError(describe_op(graph, op) + ": " + what);
}

Activation activation(const Graph& graph, const Op& op, ActivationFunctionType fn) {
  switch (fn) {
    case ActivationFunctionType::NONE: return Activation::kNone;
    case ActivationFunctionType::RELU: return Activation::kRelu;
    case ActivationFunctionType::RELU_N1_TO_1: return Activation::kReluN1To1;
    case ActivationFunctionType::RELU6: return Activation::kRelu6;
    default: break;
  }
  const char* name = tflite::EnumNameActivationFunctionType(fn);
  fail(graph, op, std::string("fused activation ") + (*name ? name : std::to_string(static_cast<int>(fn))) +
                      " is not supported (only NONE, RELU, RELU_N1_TO_1 and RELU6)");
}

Padding padding(const Graph& graph, const Op& op, tflite::Padding value) {
  if (value == tflite::Padding::SAME) return Padding::kSame;
  if (value == tflite::Padding::VALID) return Padding::kValid;
  fail(graph, op, "unknown padding " + std::to_string(static_cast<int>(value)));
}

int positive(const Graph& graph, const Op& op, const char* field, int value) {
  if (value < 1) fail(graph, op, std::string(field) + " is " + std::to_string(value) + ", must be at least 1");
  return value;
}

// The options table of type T, which these operators cannot do without.
template <typename T>
const T& required(const Graph& graph, const Op& op, const tflite::Operator& source, const char* table) {
  const T* options = source.builtin_options_as<T>();
  if (options == nullptr) fail(graph, op, std::string("missing ") + table);
  return *options;
}

OpOptions conv(const Graph& g, const Op& op, const tflite::Operator& src) {
  const auto& o = required<tflite::Conv2DOptions>(g, op, src, "Conv2DOptions");
  Conv2DOptions r;
  r.padding = padding(g, op, o.padding());
  r.stride_w = positive(g, op, "stride_w", o.stride_w());
  r.stride_h = positive(g, op, "stride_h", o.stride_h());
  r.dilation_w = positive(g, op, "dilation_w_factor", o.dilation_w_factor());
  r.dilation_h = positive(g, op, "dilation_h_factor", o.dilation_h_factor());
  r.activation = activation(g, op, o.fused_activation_function());
  return r;
}

OpOptions depthwise(const Graph& g, const Op& op, const tflite::Operator& src) {
  const auto& o = required<tflite::DepthwiseConv2DOptions>(g, op, src, "DepthwiseConv2DOptions");
  DepthwiseConv2DOptions r;
  r.padding = padding(g, op, o.padding());
  r.stride_w = positive(g, op, "stride_w", o.stride_w());
  r.stride_h = positive(g, op, "stride_h", o.stride_h());
  r.dilation_w = positive(g, op, "dilation_w_factor", o.dilation_w_factor());
  r.dilation_h = positive(g, op, "dilation_h_factor", o.dilation_h_factor());
  r.depth_multiplier = o.depth_multiplier();  // redundant with the shapes; the handler decides
  r.activation = activation(g, op, o.fused_activation_function());
  return r;
}

OpOptions pool(const Graph& g, const Op& op, const tflite::Operator& src) {
  const auto& o = required<tflite::Pool2DOptions>(g, op, src, "Pool2DOptions");
  Pool2DOptions r;
  r.padding = padding(g, op, o.padding());
  r.stride_w = positive(g, op, "stride_w", o.stride_w());
  r.stride_h = positive(g, op, "stride_h", o.stride_h());
  r.filter_w = positive(g, op, "filter_width", o.filter_width());
  r.filter_h = positive(g, op, "filter_height", o.filter_height());
  r.activation = activation(g, op, o.fused_activation_function());
  return r;
}

// Without a table, FULLY_CONNECTED and ADD take the format's defaults (no activation).
OpOptions fully_connected(const Graph& g, const Op& op, const tflite::Operator& src) {
  FullyConnectedOptions r;
  if (const auto* o = src.builtin_options_as_FullyConnectedOptions()) {
    if (o->weights_format() != tflite::FullyConnectedOptionsWeightsFormat::DEFAULT) {
      fail(g, op, "shuffled weights format is not supported");
    }
    r.activation = activation(g, op, o->fused_activation_function());
    r.keep_num_dims = o->keep_num_dims();
  }
  return r;
}

OpOptions add(const Graph& g, const Op& op, const tflite::Operator& src) {
  AddOptions r;
  if (const auto* o = src.builtin_options_as_AddOptions()) {
    r.activation = activation(g, op, o->fused_activation_function());
  }
  return r;
}

OpOptions softmax(const Graph& g, const Op& op, const tflite::Operator& src) {
  const auto& o = required<tflite::SoftmaxOptions>(g, op, src, "SoftmaxOptions");
  if (!std::isfinite(o.beta())) fail(g, op, "beta is not finite");
  SoftmaxOptions r;
  r.beta = o.beta();
  return r;
}

// RESHAPE may carry its target shape here, in its second input, or both.
OpOptions reshape(const Graph&, const Op&, const tflite::Operator& src) {
  ReshapeOptions r;
  if (const auto* o = src.builtin_options_as_ReshapeOptions()) {
    if (o->new_shape() != nullptr) r.new_shape.assign(o->new_shape()->begin(), o->new_shape()->end());
  }
  return r;
}
}  // namespace

OpOptions convert_options(const Graph& graph, const Op& op, const tflite::Operator& source) {
  // No default on purpose: -Wswitch flags an op added to op_list.def until its options are read here.
  switch (op.kind) {
    case OpKind::Conv2D: return conv(graph, op, source);
    case OpKind::DepthwiseConv2D: return depthwise(graph, op, source);
    case OpKind::AveragePool2D:
    case OpKind::MaxPool2D: return pool(graph, op, source);
    case OpKind::FullyConnected: return fully_connected(graph, op, source);
    case OpKind::Add: return add(graph, op, source);
    case OpKind::Softmax: return softmax(graph, op, source);
    case OpKind::Reshape: return reshape(graph, op, source);
    case OpKind::Squeeze:  // squeeze_dims only restate the output shape, which is authoritative
    case OpKind::Dequantize:
    case OpKind::Quantize: return NoOptions{};
  }
  MICROAOT_CHECK(false, "operator kind without an options conversion");
  return NoOptions{};
}

}  // namespace tflite_detail
}  // namespace microaot
