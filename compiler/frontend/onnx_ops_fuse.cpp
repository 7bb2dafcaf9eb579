// Rewrites that give an exported ONNX graph the schedule of its .tflite twin.
// - A Relu (or a Clip to [0, 6]) after a Conv, ConvTranspose, Gemm/MatMul or Add/Sub/Mul that alone reads it
//   becomes that op's fused activation, as TFLite's converter fuses it: float32 kernels clamp the same sums
//   (no RELU step, no tensor between). Elsewhere Relu is a RELU op.
// - A Gemm reading the flattening of an NHWC value (Flatten or Reshape of a [N, C, H, W] conv output) takes
//   its weights' columns re-laid from (c, h, w) to (h, w, c) order and reads the NHWC value flattened as it
//   lies: no run-time TRANSPOSE (the one the flatten made is left unread, and dead-code removal drops it).
#include <any>
#include <utility>
#include <vector>

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


// The permutation a TRANSPOSE op applies, when its second input is a constant.
std::vector<int32_t> permutation_of(const Graph& g, const Op& op) {
  if (op.inputs.size() < 2 || !g.tensor(op.inputs[1]).is_constant) return {};
  return constant_values<int32_t>(g.tensor(op.inputs[1]));
}

}  // namespace

// Float only: an int8 fused activation clamps in the output's quantized domain, which a QDQ graph decides.
bool fuse_activation(Converter& c, Value x, Activation activation) {
  if (x.id != c.input(0).id || c.tensor(x).dtype != DType::kFloat32 || c.consumers[c.node().input(0)] != 1) {
    return false;
  }
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

int flattened_nhwc(Converter& c, int a, std::vector<float>& w, int n, int k) {
  const Graph& g = c.graph();
  const int r = c.producer(a);
  if (r < 0 || g.ops[static_cast<size_t>(r)].kind != OpKind::Reshape) return a;
  const int nchw = g.ops[static_cast<size_t>(r)].inputs[0];
  const int t = c.producer(nchw);
  if (t < 0 || g.ops[static_cast<size_t>(t)].kind != OpKind::Transpose) return a;
  const Op& transpose = g.ops[static_cast<size_t>(t)];
  if (permutation_of(g, transpose) != std::vector<int32_t>{kToNchw, kToNchw + 4}) return a;
  const int source = transpose.inputs[0];
  const std::vector<int32_t> s = g.tensor(source).shape;  // N H W C; a copy: reshape() adds tensors
  if (s.size() != 4 || g.tensor(a).shape != std::vector<int32_t>{s[0], k} || int64_t{s[1]} * s[2] * s[3] != k) {
    return a;
  }
  const size_t hs = static_cast<size_t>(s[1]), ws = static_cast<size_t>(s[2]), cs = static_cast<size_t>(s[3]);
  std::vector<float> relaid(w.size());
  for (size_t o = 0; o < static_cast<size_t>(n); ++o) {
    const float* row = &w[o * static_cast<size_t>(k)];
    float* out = &relaid[o * static_cast<size_t>(k)];
    for (size_t h = 0; h < hs; ++h) {
      for (size_t x = 0; x < ws; ++x) {
        for (size_t ch = 0; ch < cs; ++ch) out[(h * ws + x) * cs + ch] = row[(ch * hs + h) * ws + x];
      }
    }
  }
  w = std::move(relaid);
  return c.reshape(source, {s[0], k});
}

void convert_relu(Converter& c) {
  if (!fuse_activation(c, c.input(0), Activation::kRelu)) convert_unary(c, OpKind::Relu);
}

}  // namespace microaot::onnx_detail
