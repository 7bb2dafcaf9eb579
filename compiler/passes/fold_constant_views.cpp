#include <algorithm>

#include "ops/op_handler.h"
#include "passes/pass.h"

namespace microaot {

// A view (RESHAPE, SQUEEZE) of a constant needs no run-time work: the output takes the bytes with its own shape.
bool fold_constant_views(Graph& graph, PassContext& /*ctx*/) {
  const auto folded = [&graph](const Op& op) {
    if (!op_handler(op.kind).is_view) return false;
    const Tensor& in = graph.tensor(op.inputs[0]);
    if (!in.is_constant) return false;
    Tensor& out = graph.tensor(op.outputs[0]);
    out.is_constant = true;
    out.data = in.data;
    return true;
  };
  const auto end = std::remove_if(graph.ops.begin(), graph.ops.end(), folded);
  const bool changed = end != graph.ops.end();
  graph.ops.erase(end, graph.ops.end());
  return changed;
}

}  // namespace microaot
