#include "ops/op_handler.h"
#include "passes/pass.h"

namespace microaot {

bool check_operators(Graph& graph, PassContext& /*ctx*/) {
  for (const Op& op : graph.ops) op_handler(op.kind).check(graph, op);
  return false;
}

}  // namespace microaot
