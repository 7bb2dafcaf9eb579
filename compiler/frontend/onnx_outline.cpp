// `inspect` for an ONNX model: its nodes and named values as the file has them, compilable or not.
#include <cctype>
#include <cstdint>
#include <map>

#include "frontend/onnx_internal.h"
#include "frontend/onnx_reader.h"
#include "support/diagnostics.h"

namespace microaot {

namespace {
using namespace onnx_detail;

int value_index(ModelOutline& m, std::map<std::string, int>& index, const std::string& name) {
  if (name.empty()) return -1;
  const auto [it, added] = index.emplace(name, static_cast<int>(m.tensors.size()));
  if (added) {
    ModelOutline::Tensor t;
    t.name = name;
    t.type = "?";
    m.tensors.push_back(t);
  }
  return it->second;
}
// A graph input or output with its element type and shape (a symbolic dimension shows as -1).
int describe_value(ModelOutline& m, std::map<std::string, int>& index, const onnx::ValueInfoProto& v) {
  const int i = value_index(m, index, v.name());
  ModelOutline::Tensor& t = m.tensors[static_cast<size_t>(i)];
  const onnx::TypeProto::Tensor& type = v.type().tensor_type();
  t.type = onnx::TensorProto::DataType_IsValid(type.elem_type())
               ? onnx::TensorProto::DataType_Name(static_cast<onnx::TensorProto::DataType>(type.elem_type()))
               : "?";
  for (char& ch : t.type) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  for (const auto& d : type.shape().dim()) {
    t.shape.push_back(d.has_dim_value() && d.dim_value() <= INT32_MAX ? static_cast<int32_t>(d.dim_value()) : -1);
  }
  return i;
}
}  // namespace

ModelOutline outline_onnx(const std::vector<uint8_t>& bytes) {
  onnx::ModelProto model;
  if (bytes.size() > (size_t{1} << 31) || !model.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())) ||
      !model.has_graph()) {
    throw CompileError("malformed ONNX model: the file is not a valid ModelProto (truncated or corrupt protobuf)");
  }
  int opset = 0;
  for (const onnx::OperatorSetIdProto& id : model.opset_import()) {
    if (id.domain().empty() || id.domain() == "ai.onnx") opset = static_cast<int>(std::min<int64_t>(id.version(), 1000));
  }
  ModelOutline m;
  m.description = "ONNX, opset " + std::to_string(opset) + (model.producer_name().empty() ? "" : ", from " + model.producer_name());
  std::map<std::string, int> index;
  const onnx::GraphProto& g = model.graph();
  for (const onnx::TensorProto& t : g.initializer()) {
    const int i = value_index(m, index, t.name());
    m.tensors[static_cast<size_t>(i)].type = "initializer";
    for (int64_t d : t.dims()) m.tensors[static_cast<size_t>(i)].shape.push_back(static_cast<int32_t>(d));
    m.tensors[static_cast<size_t>(i)].constant_bytes = t.raw_data().size() + 4u * static_cast<uint64_t>(t.float_data_size());
  }
  for (const onnx::ValueInfoProto& v : g.input()) {
    if (index.count(v.name()) == 0) m.inputs.push_back(describe_value(m, index, v));
  }
  for (const onnx::ValueInfoProto& v : g.output()) m.outputs.push_back(describe_value(m, index, v));
  for (const onnx::NodeProto& node : g.node()) {
    ModelOutline::Operator op;
    op.name = node.op_type();
    const OnnxOpEntry* entry = find_onnx_op(node.domain(), node.op_type());
    if (entry != nullptr) {
      for (int v : entry->versions) {
        if (v <= opset) op.version = v;
      }
      for (int v : entry->implemented) op.compilable = op.compilable || v == op.version;
    }
    for (const std::string& in : node.input()) op.inputs.push_back(value_index(m, index, in));
    for (const std::string& out : node.output()) op.outputs.push_back(value_index(m, index, out));
    m.ops.push_back(op);
  }
  return m;
}

}  // namespace microaot
