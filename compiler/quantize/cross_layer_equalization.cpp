#include "quantize/cross_layer_equalization.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "ops/op_options.h"

namespace microaot {

namespace {
std::vector<float> floats(const Tensor& t) { return constant_values<float>(t); }

void store(Tensor& t, const std::vector<float>& values) {
  t.data.resize(values.size() * sizeof(float));
  if (!values.empty()) std::memcpy(t.data.data(), values.data(), t.data.size());
}

bool float_constant(const Graph& g, int id) {
  return id != kNoTensor && g.tensor(id).is_constant && g.tensor(id).dtype == DType::kFloat32;
}

// The one operator reading tensor `id`, or nullptr when none or several do (or it is a model output).
Op* only_reader(Graph& g, int id) {
  if (std::count(g.outputs.begin(), g.outputs.end(), id) > 0) return nullptr;
  Op* reader = nullptr;
  for (Op& op : g.ops) {
    for (int input : op.inputs) {
      if (input != id) continue;
      if (reader != nullptr && reader != &op) return nullptr;
      reader = &op;
    }
  }
  return reader;
}

// A depthwise whose scaled channels the pointwise can take back: multiplier 1, ReLU or no activation,
// constant float weights and bias, its output read only by a CONV_2D (as its input 0) with constant weights.
Op* equalizable_successor(Graph& g, const Op& dw) {
  const auto* o = options_if<DepthwiseConv2DOptions>(dw);
  if (o == nullptr || o->depth_multiplier != 1) return nullptr;
  if (o->activation != Activation::kNone && o->activation != Activation::kRelu) return nullptr;
  if (dw.inputs.size() < 3 || !float_constant(g, dw.inputs[1]) || !float_constant(g, dw.inputs[2])) return nullptr;
  Op* next = only_reader(g, dw.outputs[0]);
  if (next == nullptr || next->kind != OpKind::Conv2D || next->inputs[0] != dw.outputs[0]) return nullptr;
  if (!float_constant(g, next->inputs[1])) return nullptr;
  // Constants another operator reads too would change under it.
  for (int id : {dw.inputs[1], dw.inputs[2], next->inputs[1]}) {
    if (only_reader(g, id) == nullptr) return nullptr;
  }
  return next;
}

void equalize(Graph& g, const Op& dw, const Op& conv) {
  Tensor& dw_w = g.tensor(dw.inputs[1]);
  Tensor& dw_b = g.tensor(dw.inputs[2]);
  Tensor& conv_w = g.tensor(conv.inputs[1]);
  const size_t channels = static_cast<size_t>(dw_w.shape.back());
  if (static_cast<size_t>(conv_w.shape.back()) != channels) return;
  std::vector<float> w1 = floats(dw_w), b1 = floats(dw_b), w2 = floats(conv_w);
  std::vector<float> r1(channels, 0.0f), r2(channels, 0.0f);
  for (size_t i = 0; i < w1.size(); ++i) r1[i % channels] = std::max(r1[i % channels], std::fabs(w1[i]));
  for (size_t i = 0; i < w2.size(); ++i) r2[i % channels] = std::max(r2[i % channels], std::fabs(w2[i]));
  std::vector<float> s(channels, 1.0f);
  for (size_t c = 0; c < channels; ++c) {
    if (r1[c] > 0.0f && r2[c] > 0.0f) s[c] = std::sqrt(r1[c] / r2[c]);
  }
  for (size_t i = 0; i < w1.size(); ++i) w1[i] /= s[i % channels];
  for (size_t c = 0; c < b1.size(); ++c) b1[c] /= s[c];
  for (size_t i = 0; i < w2.size(); ++i) w2[i] *= s[i % channels];
  store(dw_w, w1);
  store(dw_b, b1);
  store(conv_w, w2);
}
}  // namespace

int equalize_depthwise_pairs(Graph& graph) {
  int pairs = 0;
  for (size_t i = 0; i < graph.ops.size(); ++i) {
    if (graph.ops[i].kind != OpKind::DepthwiseConv2D) continue;
    const Op* next = equalizable_successor(graph, graph.ops[i]);
    if (next == nullptr) continue;
    equalize(graph, graph.ops[i], *next);
    ++pairs;
  }
  return pairs;
}

}  // namespace microaot
