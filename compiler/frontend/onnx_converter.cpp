// The converter state's helpers: attributes, constants, new tensors and ops, layout changes.
#include <algorithm>
#include <cstring>
#include <limits>

#include "frontend/onnx_internal.h"
#include "ops/op_handler.h"
#include "ops/op_options.h"
#include "support/diagnostics.h"

namespace microaot::onnx_detail {

void Converter::start_node(const onnx::NodeProto& node, int index, int version) {
  node_ = &node;
  index_ = index;
  version_ = version;
}

std::string Converter::where() const {
  if (node_ == nullptr) return "ONNX graph";  // before the first node: its inputs
  const std::string name = node_->name().empty() ? "#" + std::to_string(index_) : "'" + node_->name() + "'";
  return "ONNX node " + name + " (" + node_->op_type() + ", version " + std::to_string(version_) + ")";
}

void Converter::refuse(const std::string& what) const { throw CompileError(where() + ": " + what); }

size_t Converter::num_inputs() const { return static_cast<size_t>(node_->input_size()); }

bool Converter::has_input(size_t i) const { return i < num_inputs() && !node_->input(static_cast<int>(i)).empty(); }

Value Converter::input(size_t i) const {
  if (!has_input(i)) refuse("input " + std::to_string(i) + " is missing");
  return value(node_->input(static_cast<int>(i)));
}

Value Converter::value(const std::string& name) const {
  const auto found = values_.find(name);
  if (found == values_.end()) throw CompileError("ONNX value '" + name + "' is used but never defined");
  return found->second;
}

std::vector<int64_t> Converter::onnx_shape(Value v) const {
  const std::vector<int32_t>& s = tensor(v).shape;
  std::vector<int64_t> shape(s.begin(), s.end());
  if (v.nhwc) {
    for (int d = 0; d < 4; ++d) shape[static_cast<size_t>(kToNhwc[d])] = s[static_cast<size_t>(d)];
  }
  return shape;
}

size_t Converter::num_outputs() const {
  size_t n = static_cast<size_t>(node_->output_size());
  while (n > 0 && node_->output(static_cast<int>(n - 1)).empty()) --n;
  return n;
}

std::string Converter::output_name(size_t i) const {
  return i < static_cast<size_t>(node_->output_size()) ? node_->output(static_cast<int>(i)) : "";
}

void Converter::define(size_t output, Value v) {
  if (output >= static_cast<size_t>(node_->output_size())) refuse("has too few outputs");
  define_value(node_->output(static_cast<int>(output)), v);
}

void Converter::define_value(const std::string& name, Value v) {
  if (name.empty()) return;
  if (!values_.emplace(name, v).second) throw CompileError("ONNX value '" + name + "' is defined twice");
  Tensor& t = graph_.tensor(v.id);
  if (t.name.empty()) t.name = v.nhwc ? name + " (NHWC)" : name;
}

const onnx::AttributeProto* Converter::attr(const char* name) const {
  for (const onnx::AttributeProto& a : node_->attribute()) {
    if (a.name() == name) return &a;
  }
  return nullptr;
}

bool Converter::has_attr(const char* name) const { return attr(name) != nullptr; }

int64_t Converter::attr_int(const char* name, int64_t fallback) const {
  const onnx::AttributeProto* a = attr(name);
  if (a == nullptr) return fallback;
  if (a->type() != onnx::AttributeProto::INT) refuse(std::string("attribute ") + name + " is not an int");
  return a->i();
}

float Converter::attr_float(const char* name, float fallback) const {
  const onnx::AttributeProto* a = attr(name);
  if (a == nullptr) return fallback;
  if (a->type() != onnx::AttributeProto::FLOAT) refuse(std::string("attribute ") + name + " is not a float");
  return a->f();
}

std::string Converter::attr_string(const char* name, const std::string& fallback) const {
  const onnx::AttributeProto* a = attr(name);
  if (a == nullptr) return fallback;
  if (a->type() != onnx::AttributeProto::STRING) refuse(std::string("attribute ") + name + " is not a string");
  return a->s();
}

std::vector<int64_t> Converter::attr_ints(const char* name) const {
  const onnx::AttributeProto* a = attr(name);
  if (a == nullptr) return {};
  if (a->type() != onnx::AttributeProto::INTS) refuse(std::string("attribute ") + name + " is not a list of ints");
  return {a->ints().begin(), a->ints().end()};
}

std::vector<int64_t> Converter::constant_ints(Value v, const char* what) const {
  const Tensor& t = tensor(v);
  if (!t.is_constant) refuse(std::string(what) + " must be a constant (an initializer or folded shape arithmetic)");
  if (t.dtype == DType::kInt64) return constant_values<int64_t>(t);
  if (t.dtype == DType::kInt32) {
    const std::vector<int32_t> v32 = constant_values<int32_t>(t);
    return {v32.begin(), v32.end()};
  }
  refuse(std::string(what) + " must be int64 or int32");
}

std::vector<float> Converter::constant_floats(Value v, const char* what) const {
  const Tensor& t = tensor(v);
  if (!t.is_constant || t.dtype != DType::kFloat32) refuse(std::string(what) + " must be a float32 constant");
  if (v.nhwc) refuse(std::string(what) + " must be a plain constant");
  return constant_values<float>(t);
}

Value Converter::constant(DType dtype, const std::vector<int32_t>& shape, std::vector<uint8_t> bytes,
                          const std::string& name) {
  Tensor t;
  t.name = name;
  t.dtype = dtype;
  t.shape = shape;
  t.is_constant = true;
  t.data = std::move(bytes);
  MICROAOT_CHECK(static_cast<int64_t>(t.data.size()) == t.byte_size(), "constant '" + name + "' size");
  graph_.tensors.push_back(std::move(t));
  return {static_cast<int>(graph_.tensors.size()) - 1, false};
}

template <typename T>
static std::vector<uint8_t> bytes_of(const std::vector<T>& values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(T));
  if (!values.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

Value Converter::int32_constant(const std::vector<int32_t>& shape, const std::vector<int32_t>& values,
                                const std::string& name) {
  return constant(DType::kInt32, shape, bytes_of(values), name);
}

Value Converter::float_constant(const std::vector<int32_t>& shape, const std::vector<float>& values,
                                const std::string& name) {
  return constant(DType::kFloat32, shape, bytes_of(values), name);
}

Value Converter::int64_constant(const std::vector<int64_t>& values) {
  return constant(DType::kInt64, {static_cast<int32_t>(values.size())}, bytes_of(values), "");
}

int Converter::add_tensor(DType dtype, const std::vector<int32_t>& shape, const std::string& name) {
  for (int32_t d : shape) {
    if (d < 1) refuse("an empty or negative dimension is not supported");
  }
  if (element_count(shape) > (int64_t{1} << 31)) refuse("a result has more than 2^31 elements");
  Tensor t;
  t.name = name;
  t.dtype = dtype;
  t.shape = shape;
  graph_.tensors.push_back(std::move(t));
  return static_cast<int>(graph_.tensors.size()) - 1;
}

int Converter::emit(OpKind kind, std::vector<int> inputs, std::vector<int> outputs, OpOptions options) {
  Op op;
  op.kind = kind;
  op.source_index = index_;
  op.inputs = std::move(inputs);
  op.outputs = std::move(outputs);
  op.options = std::move(options);
  graph_.ops.push_back(std::move(op));
  inherit_shared_quant(*this, graph_.ops.back());
  try {  // checked here, so that a refusal names the ONNX node
    op_handler(kind).check(graph_, graph_.ops.back());
  } catch (const CompileError& e) {
    refuse(e.what());
  }
  return static_cast<int>(graph_.ops.size()) - 1;
}

int Converter::emit1(OpKind kind, std::vector<int> inputs, DType dtype, const std::vector<int32_t>& shape,
                     OpOptions options) {
  const int out = add_tensor(dtype, shape, "");
  emit(kind, std::move(inputs), {out}, std::move(options));
  return out;
}

int Converter::producer(int tensor_id) const {
  for (size_t i = graph_.ops.size(); i-- > 0;) {
    const std::vector<int>& outs = graph_.ops[i].outputs;
    if (std::find(outs.begin(), outs.end(), tensor_id) != outs.end()) return static_cast<int>(i);
  }
  return -1;
}

int Converter::reshape(int id, const std::vector<int32_t>& shape) {
  if (graph_.tensor(id).shape == shape) return id;
  const DType dtype = graph_.tensor(id).dtype;
  if (graph_.tensor(id).is_constant) {
    return constant(dtype, shape, graph_.tensor(id).data, graph_.tensor(id).name).id;
  }
  ReshapeOptions options;
  options.new_shape = shape;
  return emit1(OpKind::Reshape, {id}, dtype, shape, options);
}

// A permutation that keeps the order of the dimensions larger than 1 moves no byte: a reshape does it.
static bool moves_bytes(const std::vector<int32_t>& shape, const std::vector<int>& perm) {
  int last = -1;
  for (int p : perm) {
    if (shape[static_cast<size_t>(p)] == 1) continue;
    if (p < last) return true;
    last = p;
  }
  return false;
}

int Converter::transpose(int id, const std::vector<int>& perm) {
  const Tensor& t = graph_.tensor(id);
  std::vector<int32_t> shape;
  for (int p : perm) shape.push_back(t.shape[static_cast<size_t>(p)]);
  if (!moves_bytes(t.shape, perm)) return reshape(id, shape);
  if (t.is_constant) {
    return constant(t.dtype, shape, permute_data(t.data, t.shape, perm, dtype_size(t.dtype)), t.name).id;
  }
  const DType dtype = t.dtype;  // `t` dies when the permutation's constant is added
  const std::vector<int32_t> perm32(perm.begin(), perm.end());
  const int perm_id = int32_constant({static_cast<int32_t>(perm.size())}, perm32, "").id;
  return emit1(OpKind::Transpose, {id, perm_id}, dtype, shape);
}

int Converter::nhwc(Value v) {
  if (v.nhwc) return v.id;
  if (tensor(v).shape.size() != 4) refuse("needs a rank-4 (NCHW) input");
  const auto found = nhwc_of_.find(v.id);
  if (found != nhwc_of_.end()) return found->second;
  const int id = transpose(v.id, {kToNhwc, kToNhwc + 4});
  nhwc_of_[v.id] = id;
  return id;
}

int Converter::plain(Value v) {
  if (!v.nhwc) return v.id;
  const auto found = plain_of_.find(v.id);
  if (found != plain_of_.end()) return found->second;
  const int id = transpose(v.id, {kToNchw, kToNchw + 4});
  plain_of_[v.id] = id;
  return id;
}

const Op* Converter::layout_change_of(int id) const {
  for (const std::map<int, int>* copies : {&nhwc_of_, &plain_of_}) {
    const auto found = copies->find(id);
    const int op = found == copies->end() || found->second == id ? -1 : producer(found->second);
    if (op >= 0) return &graph_.ops[static_cast<size_t>(op)];
  }
  return nullptr;
}

std::vector<int32_t> to_ir_shape(const std::vector<int64_t>& shape, const std::string& where) {
  std::vector<int32_t> out;
  int64_t elements = 1;
  for (int64_t d : shape) {
    if (d < 0 || d > std::numeric_limits<int32_t>::max()) {
      throw CompileError(where + ": dimension " + std::to_string(d) + " is out of range");
    }
    elements *= std::max<int64_t>(d, 1);
    if (elements > (int64_t{1} << 31)) throw CompileError(where + ": the shape has more than 2^31 elements");
    out.push_back(static_cast<int32_t>(d));
  }
  return out;
}

int64_t element_count(const std::vector<int32_t>& shape) {
  int64_t n = 1;
  for (int32_t d : shape) n = std::min<int64_t>(n * std::max(d, 0), int64_t{1} << 40);  // saturates: no overflow
  return n;
}

std::vector<int32_t> permuted(const std::vector<int32_t>& shape, const int* perm) {
  std::vector<int32_t> out;
  for (size_t d = 0; d < shape.size(); ++d) out.push_back(shape[static_cast<size_t>(perm[d])]);
  return out;
}

std::vector<uint8_t> permute_data(const std::vector<uint8_t>& data, const std::vector<int32_t>& shape,
                                  const std::vector<int>& perm, size_t bytes) {
  const size_t rank = shape.size();
  std::vector<int64_t> stride(rank, 1);
  for (size_t d = rank; d-- > 1;) stride[d - 1] = stride[d] * shape[d];
  std::vector<int32_t> out_shape;
  for (int p : perm) out_shape.push_back(shape[static_cast<size_t>(p)]);
  std::vector<uint8_t> out(data.size());
  std::vector<int32_t> index(rank, 0);
  const int64_t n = element_count(out_shape);
  for (int64_t i = 0; i < n; ++i) {
    int64_t src = 0;
    for (size_t d = 0; d < rank; ++d) src += index[d] * stride[static_cast<size_t>(perm[d])];
    std::memcpy(&out[static_cast<size_t>(i) * bytes], &data[static_cast<size_t>(src) * bytes], bytes);
    for (size_t d = rank; d-- > 0;) {
      if (++index[d] < out_shape[d]) break;
      index[d] = 0;
    }
  }
  return out;
}

int normalize_axis(const Converter& c, int64_t axis, size_t rank) {
  const int64_t r = static_cast<int64_t>(rank);
  if (axis < -r || axis >= r) c.refuse("axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(r));
  return static_cast<int>(axis < 0 ? axis + r : axis);
}

}  // namespace microaot::onnx_detail
