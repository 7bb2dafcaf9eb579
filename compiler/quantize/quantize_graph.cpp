#include "quantize/quantize_graph.h"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <optional>

#include "support/diagnostics.h"

namespace microaot {

namespace {
enum class Rule { kWeighted, kShared, kFixed256, kFixed128, kOwn };

struct OpRule {
  Rule rule;
  int weight_axis;
  int version;
};

std::optional<OpRule> rule_of(OpKind kind) {
  switch (kind) {
#define MICROAOT_QUANT_OP(kind, rule, axis, version) \
  case OpKind::kind: return OpRule{Rule::rule, axis, version};
#include "quantize/quantizable_ops.def"
#undef MICROAOT_QUANT_OP
    default: return std::nullopt;
  }
}

std::string quantizable_list() {
  std::string list;
#define MICROAOT_QUANT_OP(kind, rule, axis, version) list += std::string(list.empty() ? "" : ", ") + op_kind_name(OpKind::kind);
#include "quantize/quantizable_ops.def"
#undef MICROAOT_QUANT_OP
  return list;
}

bool is_float_activation(const Tensor& t) { return t.dtype == DType::kFloat32 && !t.is_constant; }

// Union-find over tensor ids: the tensors that must share one scale and zero point.
struct Groups {
  std::vector<int> parent;
  explicit Groups(size_t n) : parent(n) { std::iota(parent.begin(), parent.end(), 0); }
  int find(int x) { return parent[static_cast<size_t>(x)] == x ? x : parent[static_cast<size_t>(x)] = find(parent[static_cast<size_t>(x)]); }
  void join(int a, int b) { parent[static_cast<size_t>(find(a))] = find(b); }
};

AffineParams fixed_params(Rule rule) {
  return rule == Rule::kFixed256 ? AffineParams{1.0f / 256.0f, -128} : AffineParams{1.0f / 128.0f, 0};
}

void set_params(Tensor& t, DType type, const std::vector<float>& scales, int axis) {
  t.dtype = type;
  t.quant.scale = scales;
  t.quant.zero_point.assign(scales.size(), 0);
  t.quant.axis = axis;
}

void set_params(Tensor& t, AffineParams p) {
  t.dtype = DType::kInt8;
  t.quant.scale = {p.scale};
  t.quant.zero_point = {p.zero_point};
  t.quant.axis = 0;
}

template <typename T>
std::vector<uint8_t> bytes_of(const std::vector<T>& values) {
  std::vector<uint8_t> out(values.size() * sizeof(T));
  if (!out.empty()) std::memcpy(out.data(), values.data(), out.size());
  return out;
}

// The scale and zero point of every float activation, shared where the operators require it.
std::map<int, AffineParams> activation_params(const Graph& graph, const std::map<int, Range>& ranges) {
  Groups groups(graph.tensors.size());
  std::map<int, AffineParams> fixed;  // group root -> fixed output parameters
  for (const Op& op : graph.ops) {
    const OpRule r = *rule_of(op.kind);
    if (r.rule == Rule::kShared) {
      const size_t data_inputs = op.kind == OpKind::Concatenation ? op.inputs.size() : 1;
      for (size_t i = 0; i < data_inputs; ++i) {
        if (is_float_activation(graph.tensor(op.inputs[i]))) groups.join(op.inputs[i], op.outputs[0]);
      }
    }
  }
  for (const Op& op : graph.ops) {
    const OpRule r = *rule_of(op.kind);
    if (r.rule == Rule::kFixed256 || r.rule == Rule::kFixed128) fixed.emplace(groups.find(op.outputs[0]), fixed_params(r.rule));
  }
  std::map<int, Range> group_range;
  for (int id : calibrated_tensors(graph)) {
    const auto it = ranges.find(id);
    if (it == ranges.end()) {
      throw CompileError("no calibration values for " + describe_tensor(graph, id) +
                         " (the float run kept no copy of it)");
    }
    const int root = groups.find(id);
    auto [at, fresh] = group_range.emplace(root, it->second);
    if (!fresh) at->second = {std::min(at->second.min, it->second.min), std::max(at->second.max, it->second.max)};
  }
  std::map<int, AffineParams> params;
  for (int id : calibrated_tensors(graph)) {
    const int root = groups.find(id);
    const auto f = fixed.find(root);
    const Range r = group_range.at(root);
    params[id] = f != fixed.end() ? f->second : int8_activation_params(r.min, r.max);
  }
  return params;
}

// Weights int8 (symmetric, per channel or per tensor) and the bias int32 of one weighted op.
void quantize_weighted(const Graph& source, Graph& out, const Op& op, int axis, const QuantizeSettings& s) {
  const Tensor& w = source.tensor(op.inputs[1]);
  if (!w.is_constant || w.dtype != DType::kFloat32) {
    throw CompileError(describe_op(source, op) + ": its weights " + describe_tensor(source, op.inputs[1]) +
                       " are not a float32 constant; microaot quantize needs constant weights");
  }
  const std::vector<float> values = constant_values<float>(w);
  std::vector<float> scales = int8_weight_scales(values, w.shape, axis, s.per_channel);
  const bool has_bias = op.inputs.size() > 2 && op.inputs[2] != kNoTensor;
  if (has_bias) {
    const Tensor& b = source.tensor(op.inputs[2]);
    if (!b.is_constant || b.dtype != DType::kFloat32) {
      throw CompileError(describe_op(source, op) + ": its bias " + describe_tensor(source, op.inputs[2]) +
                         " is not a float32 constant");
    }
    const std::vector<float> bias = constant_values<float>(b);
    const float input_scale = out.tensor(op.inputs[0]).quant.scale.at(0);
    fit_bias_in_weight_scales(scales, bias, input_scale);
    Tensor& qb = out.tensor(op.inputs[2]);
    qb.data = bytes_of(quantize_int32_bias(bias, input_scale, scales));
    std::vector<float> bias_scales;
    for (float ws : scales) bias_scales.push_back(input_scale * ws);
    set_params(qb, DType::kInt32, bias_scales, 0);
  }
  Tensor& qw = out.tensor(op.inputs[1]);
  qw.data = bytes_of(quantize_int8_weights(values, w.shape, axis, scales));
  set_params(qw, DType::kInt8, scales, s.per_channel ? axis : 0);
}

// A float constant read as data (ADD's second operand, ...): int8 with its own range.
void quantize_constant(Tensor& t) {
  std::vector<float> values = constant_values<float>(t);
  const Range r = values.empty() ? Range{} : estimate_range(values, RangeMethod::kMinMax);
  const AffineParams p = int8_activation_params(r.min, r.max);
  std::vector<int8_t> q;
  for (float v : values) q.push_back(quantize_int8(v, p));
  t.data = bytes_of(q);
  set_params(t, p);
}

int add_float_tensor(Graph& g, const Tensor& like) {
  Tensor t;
  t.name = like.name;
  t.dtype = DType::kFloat32;
  t.shape = like.shape;
  t.source_index = static_cast<int>(g.tensors.size());
  g.tensors.push_back(t);
  return t.source_index;
}

// --input-type/--output-type float32: QUANTIZE in front, DEQUANTIZE behind; the int8 tensors are renamed
// NAME_int8 and the float ones keep the model's names.
void add_float_io(Graph& g, const QuantizeSettings& s) {
  std::vector<Op> front;
  for (int& id : g.inputs) {
    if (!s.float_input) break;
    const int f = add_float_tensor(g, g.tensor(id));
    g.tensor(id).name += "_int8";
    front.push_back(Op{OpKind::Quantize, -1, 1, {f}, {id}, NoOptions{}});
    id = f;
  }
  g.ops.insert(g.ops.begin(), front.begin(), front.end());
  for (int& id : g.outputs) {
    if (!s.float_output) break;
    const int f = add_float_tensor(g, g.tensor(id));
    g.tensor(id).name += "_int8";
    g.ops.push_back(Op{OpKind::Dequantize, -1, 2, {id}, {f}, NoOptions{}});
    id = f;
  }
}
}  // namespace

void check_quantizable(const Graph& graph) {
  for (size_t id = 0; id < graph.tensors.size(); ++id) {
    const Tensor& t = graph.tensors[id];
    const bool quantized = t.dtype == DType::kInt8 || t.dtype == DType::kUInt8 || t.dtype == DType::kInt16 ||
                           !t.quant.empty();
    if (quantized) {
      throw CompileError("the model is already quantized (" + describe_tensor(graph, static_cast<int>(id)) +
                         " is " + dtype_name(t.dtype) +
                         (t.quant.empty() ? "" : " with quantization parameters") +
                         "); microaot quantize takes a float32 model");
    }
  }
  for (const Op& op : graph.ops) {
    if (!rule_of(op.kind)) {
      throw CompileError(describe_op(graph, op) + " has no int8 form in microaot quantize yet (it quantizes " +
                         quantizable_list() + "); the model cannot be quantized");
    }
  }
}

std::vector<int> calibrated_tensors(const Graph& graph) {
  std::vector<bool> used(graph.tensors.size(), false);
  for (const Op& op : graph.ops) {
    const OpRule r = *rule_of(op.kind);
    for (size_t i = 0; i < op.inputs.size(); ++i) {
      if (op.inputs[i] == kNoTensor || (r.rule == Rule::kWeighted && i > 0)) continue;
      used[static_cast<size_t>(op.inputs[i])] = true;
    }
    for (int id : op.outputs) used[static_cast<size_t>(id)] = true;
  }
  std::vector<int> ids;
  for (size_t id = 0; id < used.size(); ++id) {
    if (used[id] && is_float_activation(graph.tensors[id])) ids.push_back(static_cast<int>(id));
  }
  return ids;
}

Graph quantize_graph(const Graph& graph, const std::map<int, Range>& ranges, const QuantizeSettings& settings) {
  check_quantizable(graph);
  Graph out = graph;
  for (const auto& [id, p] : activation_params(graph, ranges)) set_params(out.tensor(id), p);
  for (const Op& op : graph.ops) {
    const OpRule r = *rule_of(op.kind);
    if (r.rule == Rule::kWeighted) quantize_weighted(graph, out, op, r.weight_axis, settings);
  }
  for (const Op& op : graph.ops) {
    for (int id : op.inputs) {
      if (id != kNoTensor && out.tensor(id).is_constant && out.tensor(id).dtype == DType::kFloat32) {
        quantize_constant(out.tensor(id));
      }
    }
  }
  for (Op& op : out.ops) op.version = rule_of(op.kind)->version;
  add_float_io(out, settings);
  return out;
}

}  // namespace microaot
