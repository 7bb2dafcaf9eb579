#include "ir/graph.h"

#include <algorithm>
#include <string>

#include "ir/custom_op.h"
#include "support/diagnostics.h"

namespace microaot {

namespace {
struct OpKindInfo {
  const char* name;
  int code;
  const char* family;
  int data_input;
  const char* types;  // "float32|int8", or "any"
};
constexpr OpKindInfo kOpKindInfo[] = {
#define MICROAOT_OP(kind, tflite_name, code, handler, options, family, data_input, types) \
  {#tflite_name, code, #family, data_input, #types},
#include "ir/op_list.def"
#undef MICROAOT_OP
};

DType dtype_named(const std::string& name) {
  for (DType type : {DType::kFloat32, DType::kInt8, DType::kUInt8, DType::kInt16, DType::kInt32, DType::kInt64,
                     DType::kBool}) {
    if (name == dtype_name(type)) return type;
  }
  MICROAOT_CHECK(false, "op_list.def names an unknown type: " + name);
}

std::vector<DType> parse_types(const std::string& list) {
  std::vector<DType> types;
  if (list == "any") return types;
  for (size_t start = 0; start <= list.size();) {
    const size_t end = std::min(list.find('|', start), list.size());
    types.push_back(dtype_named(list.substr(start, end - start)));
    start = end + 1;
  }
  return types;
}

// OpKind::Custom: builtin code 32 (CUSTOM), any type.
constexpr OpKindInfo kCustomInfo = {"CUSTOM", 32, "custom", 0, "any"};

const OpKindInfo& info_of(OpKind kind) {
  return kind == OpKind::Custom ? kCustomInfo : kOpKindInfo[static_cast<int>(kind)];
}
}  // namespace

const char* op_kind_name(OpKind kind) { return info_of(kind).name; }
int op_kind_builtin_code(OpKind kind) { return info_of(kind).code; }
const char* op_kind_family(OpKind kind) { return info_of(kind).family; }
int op_kind_data_input(OpKind kind) { return info_of(kind).data_input; }

const std::vector<DType>& op_kind_types(OpKind kind) {
  static const std::vector<std::vector<DType>> types = [] {
    std::vector<std::vector<DType>> all;
    for (const OpKindInfo& info : kOpKindInfo) all.push_back(parse_types(info.types));
    all.emplace_back();  // OpKind::Custom: any
    return all;
  }();
  return types[static_cast<size_t>(kind)];
}

int64_t Tensor::num_elements() const {
  int64_t count = 1;
  for (int32_t dim : shape) count *= dim;
  return count;
}

int64_t Tensor::byte_size() const { return num_elements() * static_cast<int64_t>(dtype_size(dtype)); }

Tensor ring_position_tensor(const std::string& owner) {
  Tensor position;
  position.name = owner + "_ring_position";
  position.dtype = DType::kInt32;
  position.shape = {1};
  position.is_persistent = true;
  position.data.assign(4, 0);
  return position;
}

const Tensor& Graph::tensor(int id) const {
  MICROAOT_CHECK(id >= 0 && id < static_cast<int>(tensors.size()), "tensor id out of range");
  return tensors[id];
}

Tensor& Graph::tensor(int id) {
  MICROAOT_CHECK(id >= 0 && id < static_cast<int>(tensors.size()), "tensor id out of range");
  return tensors[id];
}

int Graph::storage_of(int id) const {
  for (size_t hops = 0; tensor(id).alias_of >= 0; ++hops) {
    MICROAOT_CHECK(hops < tensors.size(), "alias cycle");
    id = tensor(id).alias_of;
  }
  return id;
}

std::string describe_op(const Graph& graph, const Op& op) {
  (void)graph;
  if (const auto* custom = std::any_cast<CustomOpOptions>(&op.options)) {
    const std::string bound = custom->replaced_builtin.empty() ? "custom operator '" + custom->binding.name + "'"
                                                               : custom->replaced_builtin;
    return bound + " (op " + std::to_string(op.source_index) + ", bound to " + custom->binding.function + ")";
  }
  return std::string(op_kind_name(op.kind)) + " (op " + std::to_string(op.source_index) + ")";
}

std::string describe_tensor(const Graph& graph, int id) {
  const Tensor& t = graph.tensor(id);
  int index = t.source_index >= 0 ? t.source_index : id;
  return "'" + t.name + "' (tensor " + std::to_string(index) + ")";
}

}  // namespace microaot
