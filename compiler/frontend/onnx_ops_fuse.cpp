// An ONNX Relu after a Conv, ConvTranspose, Gemm/MatMul or Add/Sub/Mul that alone reads it becomes that op's
// fused activation, as TFLite's converter fuses it: float32 kernels clamp the same sums, and the ONNX build
// then runs the schedule of its .tflite twin (no RELU step, no tensor between). Elsewhere Relu is a RELU op.
#include <any>

#include "frontend/onnx_internal.h"
#include "ops/conv_common.h"
#include "ops/op_options.h"

namespace microaot::onnx_detail {

namespace {

template <typename Options>
Activation* field(Op& op) {
  Options* options = std::any_cast<Options>(&op.options);
  return options != nullptr ? &options->activation : nullptr;
}

// The fused-activation field of an op that takes one, else nullptr.
Activation* activation_of(Op& op) {
  switch (op.kind) {
    case OpKind::Conv2D: return field<Conv2DOptions>(op);
    case OpKind::DepthwiseConv2D: return field<DepthwiseConv2DOptions>(op);
    case OpKind::FullyConnected: return field<FullyConnectedOptions>(op);
    case OpKind::Add:
    case OpKind::Sub:
    case OpKind::Mul: return field<FusedActivationOptions>(op);
    case OpKind::TransposeConv: {
      TransposeConvOptions* options = std::any_cast<TransposeConvOptions>(&op.options);
      return options != nullptr ? &options->window.activation : nullptr;
    }
    default: return nullptr;
  }
}

// Float only: an int8 fused activation clamps in the output's quantized domain, which a QDQ graph decides.
bool fuse_activation(Converter& c, Value x, Activation activation) {
  if (c.tensor(x).dtype != DType::kFloat32 || c.consumers[c.node().input(0)] != 1) return false;
  const int p = c.producer(x.id);
  if (p < 0) return false;
  Op& op = c.graph().ops[static_cast<size_t>(p)];
  if (op.outputs.size() != 1 || op.outputs[0] != x.id) return false;
  Activation* slot = activation_of(op);
  if (slot == nullptr || *slot != Activation::kNone) return false;
  *slot = activation;
  c.define(0, x);
  return true;
}

}  // namespace

void convert_relu(Converter& c) {
  if (!fuse_activation(c, c.input(0), Activation::kRelu)) convert_unary(c, OpKind::Relu);
}

}  // namespace microaot::onnx_detail
