#include <algorithm>

#include "ops/op_handler.h"
#include "passes/pass.h"
#include "support/diagnostics.h"

namespace microaot {

// A view op (RESHAPE, SQUEEZE) only reinterprets a row-major buffer: its output becomes a view of the input's storage and the
// op leaves the schedule. The memory planner extends the owner's lifetime over the alias's readers.
bool alias_views(Graph& graph, PassContext& /*ctx*/) {
  const auto aliased = [&graph](const Op& op) {
    if (!op_handler(op.kind).is_view) return false;
    if (graph.tensor(op.outputs[0]).is_persistent) {  // state has bytes of its own, in the persistent region
      throw CompileError(describe_op(graph, op) + " writes the variable tensor " +
                         describe_tensor(graph, op.outputs[0]) + ", which microaot does not support for a view");
    }
    graph.tensor(op.outputs[0]).alias_of = graph.storage_of(op.inputs[0]);
    return true;
  };
  const auto end = std::remove_if(graph.ops.begin(), graph.ops.end(), aliased);
  const bool changed = end != graph.ops.end();
  graph.ops.erase(end, graph.ops.end());
  return changed;
}

}  // namespace microaot
