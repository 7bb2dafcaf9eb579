#include "quantize/quantize_graph.h"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <optional>

#include "quantize/quant_tensor.h"
#include "quantize/recurrent_quant.h"
#include "support/diagnostics.h"

namespace microaot {

namespace {
// kFloat: an operator quantizable_ops.def does not list, kept float32 (not with --strict).
enum class Rule { kWeighted, kShared, kFixed256, kFixed128, kOwn, kSvdf, kLstm, kFloat };

struct OpRule {
  Rule rule;
  int weight_axis;
  int int8_version, int16_version;
  int version(DType activations) const { return activations == DType::kInt16 ? int16_version : int8_version; }
  bool has_int16_form() const { return int16_version > 0; }
  // Only input 0 is an activation (the others are weights, bias and state).
  bool one_data_input() const { return rule == Rule::kWeighted || rule == Rule::kSvdf || rule == Rule::kLstm; }
};

std::optional<OpRule> listed_rule(OpKind kind) {
  switch (kind) {
#define MICROAOT_QUANT_OP(kind, rule, axis, v8, v16) \
  case OpKind::kind: return OpRule{Rule::rule, axis, v8, v16};
#include "quantize/quantizable_ops.def"
#undef MICROAOT_QUANT_OP
    default: return std::nullopt;
  }
}

OpRule rule_of(const Op& op) {
  const std::optional<OpRule> listed = listed_rule(op.kind);
  return listed ? *listed : OpRule{Rule::kFloat, -1, op.version, op.version};
}

std::string quantizable_list() {
  std::string list;
#define MICROAOT_QUANT_OP(kind, rule, axis, v8, v16) list += std::string(list.empty() ? "" : ", ") + op_kind_name(OpKind::kind);
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

AffineParams fixed_params(Rule rule, DType activations) {
  if (activations == DType::kInt16) return {1.0f / 32768.0f, 0};
  return rule == Rule::kFixed256 ? AffineParams{1.0f / 256.0f, -128} : AffineParams{1.0f / 128.0f, 0};
}

// The tensors that must share one scale and zero point (and so one type): the data inputs and the output
// of each kShared operator.
Groups shared_groups(const Graph& graph) {
  Groups groups(graph.tensors.size());
  for (const Op& op : graph.ops) {
    if (rule_of(op).rule != Rule::kShared) continue;
    const size_t data_inputs = op.kind == OpKind::Concatenation ? op.inputs.size() : 1;
    for (size_t i = 0; i < data_inputs; ++i) {
      if (is_float_activation(graph.tensor(op.inputs[i]))) groups.join(op.inputs[i], op.outputs[0]);
    }
  }
  return groups;
}

// The type of every float activation: the activations' type; int16 for the outputs of s.int16_ops; float32
// for the outputs of operators kept float; each with the tensors sharing parameters with them.
std::map<int, DType> activation_types(const Graph& graph, Groups& groups, const QuantizeSettings& s) {
  std::map<int, DType> root_type;
  for (int index : s.int16_ops) root_type[groups.find(graph.ops.at(static_cast<size_t>(index)).outputs[0])] = DType::kInt16;
  for (const Op& op : graph.ops) {
    const OpRule r = rule_of(op);
    if (r.rule == Rule::kFloat) {
      for (int id : op.outputs) root_type[groups.find(id)] = DType::kFloat32;
    } else if (!r.has_int16_form()) {
      for (int id : op.outputs) root_type[groups.find(id)] = DType::kInt8;  // int8 in a 16x8 or mixed model too
    }
  }
  std::map<int, DType> types;
  for (int id : calibrated_tensors(graph)) {
    const auto it = root_type.find(groups.find(id));
    types[id] = it != root_type.end() ? it->second : s.activations;
  }
  return types;
}

// The calibrated range of tensor `id` as a tensor of `type` (settings.int16_ranges for int16 when given).
Range range_of(const Graph& graph, int id, DType type, const std::map<int, Range>& ranges, const QuantizeSettings& s) {
  const std::map<int, Range>& from = type == DType::kInt16 && s.int16_ranges != nullptr ? *s.int16_ranges : ranges;
  const auto it = from.find(id);
  if (it == from.end()) {
    throw CompileError("no calibration values for " + describe_tensor(graph, id) + " (the float run kept no copy of it)");
  }
  return it->second;
}

// The scale and zero point of every float activation, shared where the operators require it.
std::map<int, AffineParams> activation_params(const Graph& graph, const std::map<int, Range>& ranges,
                                              Groups& groups, const std::map<int, DType>& types,
                                              const QuantizeSettings& s) {
  std::map<int, AffineParams> fixed;  // group root -> fixed output parameters
  for (const Op& op : graph.ops) {
    const OpRule r = rule_of(op);
    if (r.rule == Rule::kFixed256 || r.rule == Rule::kFixed128) {
      fixed.emplace(groups.find(op.outputs[0]), fixed_params(r.rule, types.at(op.outputs[0])));
    }
  }
  std::map<int, Range> group_range;
  for (int id : calibrated_tensors(graph)) {
    if (types.at(id) == DType::kFloat32) continue;
    const Range r = range_of(graph, id, types.at(id), ranges, s);
    auto [at, fresh] = group_range.emplace(groups.find(id), r);
    if (!fresh) at->second = {std::min(at->second.min, r.min), std::max(at->second.max, r.max)};
  }
  std::map<int, AffineParams> params;
  for (int id : calibrated_tensors(graph)) {
    if (types.at(id) == DType::kFloat32) continue;  // kept float
    const int root = groups.find(id);
    const auto f = fixed.find(root);
    const Range r = group_range.at(root);
    params[id] = f != fixed.end() ? f->second : activation_params(r.min, r.max, types.at(id));
  }
  return params;
}

// Weights int8 (symmetric, per channel or per tensor) and the bias of one weighted op: int32, or int64 with
// int16 activations.
void quantize_weighted(const Graph& source, Graph& out, const Op& op, int axis, const QuantizeSettings& s) {
  const Tensor& w = source.tensor(op.inputs[1]);
  const std::vector<float> values = float_constant(source, op, 1, "weights");
  std::vector<float> scales = int8_weight_scales(values, w.shape, axis, s.per_channel);
  const bool has_bias = op.inputs.size() > 2 && op.inputs[2] != kNoTensor;
  const float input_scale = out.tensor(op.inputs[0]).quant.scale.at(0);
  const DType bias_type = out.tensor(op.inputs[0]).dtype == DType::kInt16 ? DType::kInt64 : DType::kInt32;
  std::vector<float> bias;
  if (has_bias) {
    bias = float_constant(source, op, 2, "bias");
    fit_bias_in_weight_scales(scales, bias, input_scale);
  }
  const std::vector<int8_t> q = quantize_int8_weights(values, w.shape, axis, scales);
  Tensor& qw = out.tensor(op.inputs[1]);
  qw.data = bytes_of(q);
  set_params(qw, DType::kInt8, scales, s.per_channel ? axis : 0);
  if (!has_bias) return;
  const auto means = s.input_means.find(op.inputs[1]);
  if (means != s.input_means.end()) {
    const Tensor& in = out.tensor(op.inputs[0]);  // a mixed graph's conversion is not in `source`
    const int in_channels = in.shape.empty() ? 1 : in.shape.back();
    const int multiplier = op.kind == OpKind::DepthwiseConv2D && in_channels > 0 ? w.shape.back() / in_channels : 1;
    const std::vector<float> shift = weight_error_shift(values, q, w.shape, axis, scales, means->second, multiplier);
    for (size_t c = 0; c < bias.size() && c < shift.size(); ++c) bias[c] -= shift[c];
  }
  Tensor& qb = out.tensor(op.inputs[2]);
  const std::vector<int64_t> qbias = quantize_bias(bias, input_scale, scales, bias_type);
  qb.data = bias_type == DType::kInt64 ? bytes_of(qbias) : bytes_of(std::vector<int32_t>(qbias.begin(), qbias.end()));
  std::vector<float> bias_scales;
  for (float ws : scales) bias_scales.push_back(input_scale * ws);
  set_params(qb, bias_type, bias_scales, 0);
}

// A float constant read as data (ADD's second operand, ...): of the activations' type with its own range.
void quantize_constant(Tensor& t, DType type) {
  std::vector<float> values = constant_values<float>(t);
  const Range r = values.empty() ? Range{} : estimate_range(values, RangeMethod::kMinMax);
  const AffineParams p = activation_params(r.min, r.max, type);
  std::vector<int8_t> q8;
  std::vector<int16_t> q16;
  for (float v : values) {
    const int32_t q = quantize_value(v, p, type);
    q8.push_back(static_cast<int8_t>(q));
    q16.push_back(static_cast<int16_t>(q));
  }
  t.data = type == DType::kInt16 ? bytes_of(q16) : bytes_of(q8);
  set_params(t, p, type);
}

// QUANTIZE's version: 2 when it writes int16 (TFLite's op_version.cc); DEQUANTIZE's: 3 from int16.
int boundary_version(OpKind kind, DType from, DType to) {
  if (kind == OpKind::Dequantize) return from == DType::kInt16 ? 3 : 2;
  return to == DType::kInt16 ? 2 : 1;
}

// The activations an operator reads (not its weights and bias).
std::vector<size_t> data_inputs(const Graph& source, const Op& op) {
  std::vector<size_t> out;
  const bool one = rule_of(op).one_data_input();
  for (size_t i = 0; i < op.inputs.size() && !(one && i > 0); ++i) {
    if (op.inputs[i] != kNoTensor && is_float_activation(source.tensor(op.inputs[i]))) out.push_back(i);
  }
  return out;
}

// The operators in order, each reading its activations in its output's type (--activations mixed, operators
// kept float); an input of another type is converted once, in front of its first reader: a QUANTIZE (its
// own parameters from the calibrated range) or, to float, a DEQUANTIZE.
void convert_mixed_inputs(const Graph& source, Graph& out, const std::map<int, Range>& ranges,
                          const QuantizeSettings& s) {
  std::vector<Op> ops;
  std::map<std::pair<int, DType>, int> converted;
  for (Op op : out.ops) {
    const DType type = out.tensor(op.outputs[0]).dtype;
    for (size_t i : data_inputs(source, op)) {
      const int id = op.inputs[i];
      const DType from = out.tensor(id).dtype;
      if (from == type) continue;
      auto [at, fresh] = converted.emplace(std::make_pair(id, type), static_cast<int>(out.tensors.size()));
      if (fresh) {
        Tensor t = out.tensor(id);
        t.name += std::string("_") + dtype_name(type);
        t.source_index = at->second;
        t.dtype = type;
        t.quant = Quantization{};
        if (type != DType::kFloat32) {
          const Range r = range_of(source, id, type, ranges, s);
          set_params(t, activation_params(r.min, r.max, type), type);
        }
        out.tensors.push_back(t);
        const OpKind kind = type == DType::kFloat32 ? OpKind::Dequantize : OpKind::Quantize;
        ops.push_back(Op{kind, -1, boundary_version(kind, from, type), {id}, {at->second}, NoOptions{}});
      }
      op.inputs[i] = at->second;
    }
    ops.push_back(op);
  }
  out.ops = ops;
}

// The interface tensor beside model tensor `inner`: `type`, named as the model's tensor (which is renamed
// NAME_int8 / NAME_int16). Its parameters: uint8 is int8's with the zero point moved by 128 (TFLite's
// converter); another integer type gets its own from the calibrated range.
int add_interface_tensor(Graph& g, int inner, DType type, const Range& range) {
  Tensor t;
  Tensor& model_tensor = g.tensor(inner);
  t.name = model_tensor.name;
  t.dtype = type;
  t.shape = model_tensor.shape;
  t.source_index = static_cast<int>(g.tensors.size());
  model_tensor.name += std::string("_") + dtype_name(model_tensor.dtype);
  if (type == DType::kUInt8) {
    const AffineParams p = model_tensor.dtype == DType::kInt8
                               ? AffineParams{model_tensor.quant.scale.at(0),
                                              static_cast<int32_t>(model_tensor.quant.zero_point.at(0))}
                               : int8_activation_params(range.min, range.max);
    set_params(t, {p.scale, p.zero_point + 128}, type);
  }
  if (type == DType::kInt8 || type == DType::kInt16) set_params(t, activation_params(range.min, range.max, type), type);
  g.tensors.push_back(t);
  return t.source_index;
}


// --input-type/--output-type other than the activations' type: a QUANTIZE in front, a QUANTIZE (or, to
// float, a DEQUANTIZE) behind.
void add_interface(Graph& g, const std::map<int, Range>& ranges, const QuantizeSettings& s) {
  std::vector<Op> front;
  for (int& id : g.inputs) {
    const DType inner = g.tensor(id).dtype;
    if (s.input_type == inner) continue;
    check_interface_type(s.input_type, inner, "--input-type");
    const int outer = add_interface_tensor(g, id, s.input_type, ranges.at(id));
    const OpKind kind = inner == DType::kFloat32 ? OpKind::Dequantize : OpKind::Quantize;  // kept float
    front.push_back(Op{kind, -1, boundary_version(kind, s.input_type, inner), {outer}, {id}, NoOptions{}});
    id = outer;
  }
  g.ops.insert(g.ops.begin(), front.begin(), front.end());
  for (int& id : g.outputs) {
    const DType inner = g.tensor(id).dtype;
    if (s.output_type == inner) continue;
    check_interface_type(s.output_type, inner, "--output-type");
    const int outer = add_interface_tensor(g, id, s.output_type, ranges.at(id));
    const OpKind kind = s.output_type == DType::kFloat32 ? OpKind::Dequantize : OpKind::Quantize;
    g.ops.push_back(Op{kind, -1, boundary_version(kind, inner, s.output_type), {id}, {outer}, NoOptions{}});
    id = outer;
  }
}
}  // namespace

void set_params(Tensor& t, DType type, const std::vector<float>& scales, int axis) {
  t.dtype = type;
  t.quant.scale = scales;
  t.quant.zero_point.assign(scales.size(), 0);
  t.quant.axis = axis;
}

void set_params(Tensor& t, AffineParams p, DType type) {
  t.dtype = type;
  t.quant.scale = {p.scale};
  t.quant.zero_point = {p.zero_point};
  t.quant.axis = 0;
}

std::vector<float> float_constant(const Graph& g, const Op& op, size_t index, const char* role) {
  const Tensor& t = g.tensor(op.inputs[index]);
  if (!t.is_constant || t.dtype != DType::kFloat32) {
    throw CompileError(describe_op(g, op) + ": its " + role + " " + describe_tensor(g, op.inputs[index]) +
                       " is not a float32 constant; microaot quantize needs constant weights");
  }
  return constant_values<float>(t);
}

void check_interface_type(DType type, DType activations, const std::string& option) {
  if (type == DType::kUInt8 && activations == DType::kInt16) {
    throw CompileError(option + " uint8 with int16 activations: no TFLite kernel converts between uint8 and int16; "
                                "use int16, int8 or float32");
  }
  const bool known = type == DType::kFloat32 || type == DType::kInt8 || type == DType::kUInt8 || type == DType::kInt16;
  if (!known) throw CompileError(option + " " + dtype_name(type) + " is not float32, int8, uint8 or int16");
}

void check_quantizable(const Graph& graph, bool strict) {
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
    if (strict && !listed_rule(op.kind)) {
      throw CompileError(describe_op(graph, op) + " has no int8 form in microaot quantize yet (it quantizes " +
                         quantizable_list() + "); --strict refuses to keep it float");
    }
  }
}

std::vector<int> float_ops(const Graph& graph) {
  std::vector<int> out;
  for (size_t i = 0; i < graph.ops.size(); ++i) {
    if (!listed_rule(graph.ops[i].kind)) out.push_back(static_cast<int>(i));
  }
  return out;
}

bool has_16x8_form(const Op& op) { return rule_of(op).has_int16_form(); }

std::vector<int> calibrated_tensors(const Graph& graph) {
  std::vector<bool> used(graph.tensors.size(), false);
  for (const Op& op : graph.ops) {
    const OpRule r = rule_of(op);
    for (size_t i = 0; i < op.inputs.size(); ++i) {
      if (op.inputs[i] == kNoTensor || (r.one_data_input() && i > 0)) continue;
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

bool has_state(const Graph& graph) {
  return std::any_of(graph.tensors.begin(), graph.tensors.end(), [](const Tensor& t) { return t.is_persistent; });
}

Graph quantize_graph(const Graph& graph, const std::map<int, Range>& ranges, const QuantizeSettings& settings) {
  check_quantizable(graph, settings.strict);
  check_interface_type(settings.input_type, settings.activations, "--input-type");
  check_interface_type(settings.output_type, settings.activations, "--output-type");
  Graph out = graph;
  Groups groups = shared_groups(graph);
  const std::map<int, DType> types = activation_types(graph, groups, settings);
  for (const auto& [id, p] : activation_params(graph, ranges, groups, types, settings)) {  // not the float ones
    set_params(out.tensor(id), p, types.at(id));
  }
  convert_mixed_inputs(graph, out, ranges, settings);
  const size_t first_added = graph.tensors.size();
  for (Op& op : out.ops) {
    // A conversion convert_mixed_inputs added (it writes a new tensor), or an operator kept float.
    if (op.outputs[0] >= static_cast<int>(first_added)) continue;
    const OpRule r = rule_of(op);
    if (r.rule == Rule::kFloat) continue;
    const DType type = out.tensor(op.outputs[0]).dtype;
    if (r.rule == Rule::kWeighted) quantize_weighted(graph, out, op, r.weight_axis, settings);
    if (r.rule == Rule::kSvdf) quantize_svdf(graph, out, op, ranges);
    if (r.rule == Rule::kLstm) quantize_lstm(graph, out, op, ranges);
    for (int id : op.inputs) {
      if (id != kNoTensor && out.tensor(id).is_constant && out.tensor(id).dtype == DType::kFloat32) {
        quantize_constant(out.tensor(id), type);
      }
    }
    if (type != DType::kFloat32) op.version = r.version(type);  // a float RESHAPE after a float op keeps its own
  }
  add_interface(out, ranges, settings);
  return out;
}

}  // namespace microaot
