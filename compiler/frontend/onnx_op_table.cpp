// The table of ONNX converters, from onnx_op_list.def.
#include <sstream>

#include "frontend/onnx_internal.h"

namespace microaot::onnx_detail {

#define ONNX_OP(op_type, versions, implemented, converter) void converter(Converter& c);
#define ONNX_UNARY(op_type, versions, implemented, kind)
#define ONNX_CONTRIB_OP(op_type, converter) void converter(Converter& c);
#include "frontend/onnx_op_list.def"
#undef ONNX_CONTRIB_OP
#undef ONNX_UNARY
#undef ONNX_OP

namespace {
std::vector<int> version_list(const char* text) {
  std::vector<int> versions;
  std::istringstream in(text);
  for (int v = 0; in >> v;) versions.push_back(v);
  return versions;
}
}  // namespace

const std::vector<OnnxOpEntry>& onnx_op_table() {
  static const std::vector<OnnxOpEntry> table = {
#define ONNX_OP(op_type, versions, implemented, converter) \
  {#op_type, version_list(versions), version_list(implemented), converter},
#define ONNX_UNARY(op_type, versions, implemented, kind) \
  {#op_type, version_list(versions), version_list(implemented), [](Converter& c) { convert_unary(c, OpKind::kind); }},
#define ONNX_CONTRIB_OP(op_type, converter) {#op_type, {1}, {1}, converter, "com.microsoft"},
#include "frontend/onnx_op_list.def"
#undef ONNX_CONTRIB_OP
#undef ONNX_UNARY
#undef ONNX_OP
  };
  return table;
}

const OnnxOpEntry* find_onnx_op(const std::string& domain, const std::string& op_type) {
  const std::string d = domain == "ai.onnx" ? "" : domain;
  for (const OnnxOpEntry& entry : onnx_op_table()) {
    if (op_type == entry.op_type && d == entry.domain) return &entry;
  }
  return nullptr;
}

}  // namespace microaot::onnx_detail
