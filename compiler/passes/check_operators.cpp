// Checks every op before anything is rewritten: first the type of each op's data input against its line
// of op_list.def, naming every unsupported op at once, then each op against its handler's check().
#include <algorithm>
#include <string>

#include "ops/op_handler.h"
#include "passes/pass.h"
#include "support/diagnostics.h"

namespace microaot {

namespace {
std::string type_list(const std::vector<DType>& types) {
  std::string names;
  for (DType type : types) names += (names.empty() ? "" : ", ") + std::string(dtype_name(type));
  return names;
}
}  // namespace

// An absent data input is left to the handler's arity check.
std::string unsupported_type(const Graph& graph, const Op& op) {
  const std::vector<DType>& types = op_kind_types(op.kind);
  const size_t input = static_cast<size_t>(op_kind_data_input(op.kind));
  if (types.empty() || input >= op.inputs.size() || op.inputs[input] == kNoTensor) return "";
  const DType type = graph.tensor(op.inputs[input]).dtype;
  if (std::find(types.begin(), types.end(), type) != types.end()) return "";
  return "\n  op " + std::to_string(op.source_index) + ": " + op_kind_name(op.kind) + " version " +
         std::to_string(op.version) + " with " + dtype_name(type) + " input " + std::to_string(input) + " " +
         describe_tensor(graph, op.inputs[input]) + " is not supported (it takes " + type_list(types) + ")";
}

bool check_operators(Graph& graph, PassContext& /*ctx*/) {
  std::string unsupported;
  for (const Op& op : graph.ops) unsupported += unsupported_type(graph, op);
  if (!unsupported.empty()) throw CompileError("unsupported operator types:" + unsupported);
  for (const Op& op : graph.ops) op_handler(op.kind).check(graph, op);
  return false;
}

}  // namespace microaot
