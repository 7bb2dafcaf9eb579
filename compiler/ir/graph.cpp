#include "ir/graph.h"

#include <string>

#include "support/diagnostics.h"

namespace microaot {

namespace {
struct OpKindInfo {
  const char* name;
  int code;
  const char* family;
};
constexpr OpKindInfo kOpKindInfo[] = {
#define MICROAOT_OP(kind, tflite_name, code, handler, options, family) {#tflite_name, code, #family},
#include "ir/op_list.def"
#undef MICROAOT_OP
};
}  // namespace

const char* op_kind_name(OpKind kind) { return kOpKindInfo[static_cast<int>(kind)].name; }
int op_kind_builtin_code(OpKind kind) { return kOpKindInfo[static_cast<int>(kind)].code; }
const char* op_kind_family(OpKind kind) { return kOpKindInfo[static_cast<int>(kind)].family; }

int64_t Tensor::num_elements() const {
  int64_t count = 1;
  for (int32_t dim : shape) count *= dim;
  return count;
}

int64_t Tensor::byte_size() const { return num_elements() * static_cast<int64_t>(dtype_size(dtype)); }

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
  return std::string(op_kind_name(op.kind)) + " (op " + std::to_string(op.source_index) + ")";
}

std::string describe_tensor(const Graph& graph, int id) {
  const Tensor& t = graph.tensor(id);
  int index = t.source_index >= 0 ? t.source_index : id;
  return "'" + t.name + "' (tensor " + std::to_string(index) + ")";
}

}  // namespace microaot
