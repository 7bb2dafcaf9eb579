// QDQ groups into int8 layers: DEQUANTIZE -> float op [-> RELU/RELU6] -> QUANTIZE becomes the op on int8
// tensors (onnx_qdq_ops.def), with the weights and bias the folded DequantizeLinears remember, checked by the
// op's handler; the int8 kernels requantize with TFLM's fixed-point multipliers. A group that does not fit
// stays as it is: ONNX's own float arithmetic between a DEQUANTIZE and a QUANTIZE.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>

#include "frontend/onnx_internal.h"
#include "ops/op_handler.h"
#include "ops/op_options.h"
#include "support/diagnostics.h"

namespace microaot::onnx_detail {

namespace {

enum class QdqRule { kWeighted, kShared, kOwn };
struct QdqOp {
  OpKind kind;
  QdqRule rule;
  int weight_axis;
};
constexpr QdqOp kQdqOps[] = {
#define QDQ_OP(kind, rule, weight_axis) {OpKind::kind, QdqRule::rule, weight_axis},
#include "frontend/onnx_qdq_ops.def"
#undef QDQ_OP
};

const QdqOp* find_qdq_op(OpKind kind) {
  for (const QdqOp& q : kQdqOps) {
    if (q.kind == kind) return &q;
  }
  return nullptr;
}

bool same_params(const Quantization& a, const Quantization& b) {
  return a.scale == b.scale && a.zero_point == b.zero_point;
}

int64_t inner_size(const std::vector<int32_t>& shape, int axis) {
  int64_t inner = 1;
  for (size_t d = static_cast<size_t>(axis) + 1; d < shape.size(); ++d) inner *= shape[d];
  return inner;
}

// The int8 values of folded float weights, by the parameters they remember along `axis` (one scale or one
// per slice); nothing when they are not symmetric int8 values exactly (alpha-scaled, BN-folded, ...).
std::optional<std::vector<uint8_t>> int8_values(const Tensor& w, int axis) {
  const Quantization& q = w.quant;
  if (q.empty() || w.shape.empty()) return std::nullopt;
  if (std::any_of(q.zero_point.begin(), q.zero_point.end(), [](int64_t z) { return z != 0; })) return std::nullopt;
  const int a = axis < 0 ? 0 : axis;
  const int64_t channels = w.shape[static_cast<size_t>(a)], inner = inner_size(w.shape, a);
  if (q.scale.size() != 1 && (axis < 0 || static_cast<int64_t>(q.scale.size()) != channels)) return std::nullopt;
  const std::vector<float> v = constant_values<float>(w);
  std::vector<uint8_t> out(v.size());
  for (size_t i = 0; i < v.size(); ++i) {
    const size_t ch = q.scale.size() == 1 ? 0 : static_cast<size_t>((static_cast<int64_t>(i) / inner) % channels);
    const double r = static_cast<double>(v[i]) / q.scale[ch], n = std::nearbyint(r);
    if (!(std::fabs(r - n) <= 1e-3) || n < -128.0 || n > 127.0) return std::nullopt;  // NaN too
    out[i] = static_cast<uint8_t>(static_cast<int8_t>(n));
  }
  return out;
}

// The float bias as int32 in units of input scale x weight scale of its channel.
std::optional<std::vector<int32_t>> int32_bias(const Tensor& b, float input_scale, const std::vector<float>& scales) {
  const std::vector<float> v = constant_values<float>(b);
  if (scales.size() != 1 && scales.size() != v.size()) return std::nullopt;
  std::vector<int32_t> out(v.size());
  for (size_t o = 0; o < v.size(); ++o) {
    const double r = std::nearbyint(static_cast<double>(v[o]) / (static_cast<double>(input_scale) * scales[scales.size() == 1 ? 0 : o]));
    if (!(std::fabs(r) < 2147483647.0)) return std::nullopt;
    out[o] = static_cast<int32_t>(r);
  }
  return out;
}

bool set_activation(OpOptions& options, Activation a) {
  if (a == Activation::kNone) return true;
  if (auto* o = std::any_cast<Conv2DOptions>(&options)) return o->activation = a, true;
  if (auto* o = std::any_cast<DepthwiseConv2DOptions>(&options)) return o->activation = a, true;
  if (auto* o = std::any_cast<FullyConnectedOptions>(&options)) return o->activation = a, true;
  if (auto* o = std::any_cast<FusedActivationOptions>(&options)) return o->activation = a, true;
  return false;
}

// Where ONNX's rounding is not TFLite Micro's and an int8 kernel can follow it: QuantizeLinear rounds an
// AveragePool's average half to even (so does the kernel, on its integer sums), and a LeakyRelu is a function of
// one int8 value (a table of ONNX's float32 results).
void follow_onnx_rounding(Op& op) {
  if (auto* o = std::any_cast<Pool2DOptions>(&op.options); o != nullptr && op.kind == OpKind::AveragePool2D) {
    o->ties_to_even = true;
  }
  if (auto* o = std::any_cast<LeakyReluOptions>(&op.options)) o->onnx_table = true;
}

class Fuser {
 public:
  explicit Fuser(Converter& c) : c_(c), g_(c.graph()), uses_(g_.tensors.size(), 0), producer_(g_.tensors.size(), -1) {
    const Graph& g = g_;
    for (size_t i = 0; i < g.ops.size(); ++i) {
      for (int id : g.ops[i].inputs) {
        if (id != kNoTensor) ++uses_[static_cast<size_t>(id)];
      }
      for (int id : g.ops[i].outputs) producer_[static_cast<size_t>(id)] = static_cast<int>(i);
    }
    for (int id : g.outputs) ++uses_[static_cast<size_t>(id)];
  }

  // The group ending in QUANTIZE op `qi`: the ops it replaces (besides the core), or nothing.
  void fuse_at(size_t qi) {
    const Op& q = g_.ops[qi];
    const int f = q.inputs[0];
    if (g_.tensor(f).dtype != DType::kFloat32 || g_.tensor(f).is_constant || single_producer(f) < 0) return;
    if (g_.tensor(q.outputs[0]).dtype != DType::kInt8) return;
    const int p = single_producer(f);
    const OpKind pk = g_.ops[static_cast<size_t>(p)].kind;
    if (pk == OpKind::Relu || pk == OpKind::Relu6) {  // an activation the core op can fuse
      const int core = single_producer(g_.ops[static_cast<size_t>(p)].inputs[0]);
      const Activation act = pk == OpKind::Relu ? Activation::kRelu : Activation::kRelu6;
      if (core >= 0 && try_fuse(static_cast<size_t>(core), act, q.outputs[0])) {
        dead_.push_back(qi), dead_.push_back(static_cast<size_t>(p));
        return;
      }
    }
    if (try_fuse(static_cast<size_t>(p), Activation::kNone, q.outputs[0])) dead_.push_back(qi);
  }

  // Drops the QUANTIZEs and RELUs fused away, then the DEQUANTIZEs and layout changes no op reads any more.
  void finish() {
    std::vector<int> reads(g_.tensors.size(), 0);
    for (int id : g_.outputs) ++reads[static_cast<size_t>(id)];
    for (size_t i = 0; i < g_.ops.size(); ++i) {
      if (std::find(dead_.begin(), dead_.end(), i) != dead_.end()) continue;
      for (int id : g_.ops[i].inputs) {
        if (id != kNoTensor) ++reads[static_cast<size_t>(id)];
      }
    }
    for (size_t i = g_.ops.size(); i-- > 0;) {  // consumers after producers: one backward sweep
      const Op& op = g_.ops[i];
      const bool fused_away = std::find(dead_.begin(), dead_.end(), i) != dead_.end();
      const bool unread = (op.kind == OpKind::Dequantize || op.kind == OpKind::Transpose || op.kind == OpKind::Reshape) &&
                          reads[static_cast<size_t>(op.outputs[0])] == 0;
      if (!fused_away && !unread) continue;
      if (unread) {
        for (int id : op.inputs) {
          if (id != kNoTensor) --reads[static_cast<size_t>(id)];
        }
      }
      g_.ops.erase(g_.ops.begin() + static_cast<std::ptrdiff_t>(i));
    }
  }

 private:
  // The op writing `id` when `id` is a float result read once: -1 otherwise.
  int single_producer(int id) const {
    if (id == kNoTensor || uses_[static_cast<size_t>(id)] != 1) return -1;
    return producer_[static_cast<size_t>(id)];
  }

  // The int8 tensor a DEQUANTIZE turned into `id`, or -1. A layout change (TRANSPOSE, RESHAPE) read only
  // here between the DEQUANTIZE and the op moves before it: it is rewritten to int8 when the fusion holds.
  int dequantized_source(int id) {
    const int p = producer_[static_cast<size_t>(id)];
    if (p < 0) return -1;
    const Op& op = g_.ops[static_cast<size_t>(p)];
    if (op.kind == OpKind::Dequantize) return op.inputs[0];
    if ((op.kind != OpKind::Transpose && op.kind != OpKind::Reshape) || uses_[static_cast<size_t>(id)] != 1) return -1;
    const int src = dequantized_source(op.inputs[0]);
    if (src < 0) return -1;
    const int out = static_cast<int>(g_.tensors.size());
    Tensor t = header_of(g_.tensor(id));
    t.dtype = DType::kInt8;
    t.quant = g_.tensor(src).quant;
    g_.tensors.push_back(std::move(t));
    Op view = op;
    view.inputs[0] = src;
    view.outputs = {out};
    views_.push_back({static_cast<size_t>(p), std::move(view)});
    return out;
  }

  int add_constant(DType dtype, const std::vector<int32_t>& shape, std::vector<uint8_t> bytes, Quantization quant,
                   const std::string& name) {
    const int id = c_.constant(dtype, shape, std::move(bytes), name).id;
    g_.tensor(id).quant = std::move(quant);
    return id;
  }

  // The int8 twin of input `i` of the core op, or -1.
  int int8_input(const Op& op, const QdqOp& rule, size_t i, float input_scale) {
    const int id = op.inputs[i];
    const Tensor t = header_of(g_.tensor(id));  // constants are added below
    if (t.dtype != DType::kFloat32) return id;  // shapes, axes, permutations
    if (!t.is_constant) return dequantized_source(id);
    const bool weights = rule.rule == QdqRule::kWeighted && i == 1;
    if (rule.rule == QdqRule::kWeighted && i == 2) {
      const Quantization& wq = g_.tensor(op.inputs[1]).quant;
      const auto bias = int32_bias(g_.tensor(id), input_scale, wq.scale);
      if (!bias) return -1;
      Quantization bq;
      for (size_t o = 0; o < bias->size(); ++o) bq.scale.push_back(input_scale * wq.scale[wq.scale.size() == 1 ? 0 : o]);
      bq.zero_point.assign(bq.scale.size(), 0);
      std::vector<uint8_t> bytes(bias->size() * 4);
      std::memcpy(bytes.data(), bias->data(), bytes.size());
      return add_constant(DType::kInt32, t.shape, std::move(bytes), bq, t.name + " (int32)");
    }
    if (!weights && t.quant.per_channel()) return -1;
    const auto values = int8_values(g_.tensor(id), weights ? rule.weight_axis : -1);
    if (!values) return -1;
    Quantization q = t.quant;
    q.axis = weights ? rule.weight_axis : 0;
    return add_constant(DType::kInt8, t.shape, *values, q, t.name + " (int8)");
  }

  bool try_fuse(size_t core, Activation act, int out) {
    const QdqOp* rule = find_qdq_op(g_.ops[core].kind);
    if (rule == nullptr || g_.ops[core].outputs.size() != 1) return false;
    if (act != Activation::kNone && rule->rule == QdqRule::kShared) return false;
    const size_t tensors_before = g_.tensors.size();
    views_.clear();
    Op fused = g_.ops[core];
    if (!set_activation(fused.options, act)) return false;
    follow_onnx_rounding(fused);
    const int x = dequantized_source(fused.inputs[0]);
    bool ok = x >= 0;
    const float input_scale = ok ? g_.tensor(x).quant.scale[0] : 0.0f;
    for (size_t i = 0; ok && i < fused.inputs.size(); ++i) {
      if (fused.inputs[i] == kNoTensor) continue;
      const int id = int8_input(fused, *rule, i, input_scale);  // the bias reads the int8 weights' scales
      ok = id >= 0 && (rule->rule != QdqRule::kShared || g_.tensor(id).dtype != DType::kInt8 ||
                       same_params(g_.tensor(id).quant, g_.tensor(out).quant));
      fused.inputs[i] = id;
    }
    fused.outputs = {out};
    for (size_t v = 0; ok && v < views_.size(); ++v) ok = checks(views_[v].second);
    ok = ok && checks(fused);
    if (!ok) {
      g_.tensors.resize(tensors_before);
      return false;
    }
    g_.ops[core] = std::move(fused);
    for (auto& [index, view] : views_) g_.ops[index] = std::move(view);
    return true;
  }

  bool checks(const Op& op) const {
    try {
      op_handler(op.kind).check(g_, op);
      return true;
    } catch (const CompileError&) {
      return false;
    }
  }

  Converter& c_;
  Graph& g_;
  std::vector<int> uses_, producer_;
  std::vector<size_t> dead_;
  std::vector<std::pair<size_t, Op>> views_;  // layout changes rewritten to int8 with the group being fused
};
}  // namespace

void inherit_shared_quant(Converter& c, const Op& op) {
  const QdqOp* rule = find_qdq_op(op.kind);
  if (rule == nullptr || rule->rule != QdqRule::kShared || op.inputs.empty() || op.outputs.size() != 1) return;
  const Tensor& in = c.graph().tensor(op.inputs[0]);
  Tensor& out = c.graph().tensor(op.outputs[0]);
  if (in.dtype != DType::kInt8 || out.dtype != DType::kInt8 || !out.quant.empty()) return;
  out.quant = in.quant;
  if (c.uint8_twins.count(op.inputs[0]) != 0) c.uint8_twins.insert(op.outputs[0]);
}

void fuse_qdq_groups(Converter& c) {
  Graph& graph = c.graph();
  Fuser fuser(c);
  for (size_t i = 0; i < graph.ops.size(); ++i) {
    if (graph.ops[i].kind == OpKind::Quantize) fuser.fuse_at(i);
  }
  fuser.finish();
  for (Tensor& t : graph.tensors) {  // the folded DequantizeLinears' parameters served their purpose
    if (t.dtype == DType::kFloat32) t.quant = {};
  }
}

}  // namespace microaot::onnx_detail
