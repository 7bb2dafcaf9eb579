#include <algorithm>
#include <vector>

#include "passes/pass.h"

namespace microaot {

namespace {
// Tensors read by an op or exposed as a graph output, following aliases to their storage.
std::vector<bool> needed_tensors(const Graph& graph) {
  std::vector<bool> needed(graph.tensors.size(), false);
  const auto mark = [&](int id) {
    if (id == kNoTensor) return;
    needed[id] = true;
    needed[graph.storage_of(id)] = true;
  };
  for (int id : graph.outputs) mark(id);
  // A variable's value is read by the next run: the ops that assign it are never dead.
  for (size_t id = 0; id < graph.tensors.size(); ++id) {
    if (graph.tensors[id].is_persistent) mark(static_cast<int>(id));
  }
  for (const Op& op : graph.ops) {
    for (int id : op.inputs) mark(id);
  }
  return needed;
}

bool is_graph_input(const Graph& graph, int id) {
  return std::find(graph.inputs.begin(), graph.inputs.end(), id) != graph.inputs.end();
}

bool any_output_needed(const Op& op, const std::vector<bool>& needed) {
  return std::any_of(op.outputs.begin(), op.outputs.end(), [&](int id) { return needed[id]; });
}
}  // namespace

// Drops ops whose results nobody reads (repeating until stable, since removing one op can orphan its
// producers), then marks tensors nothing uses as dead, releasing constant bytes so they never reach flash.
bool remove_dead_code(Graph& graph, PassContext& /*ctx*/) {
  bool changed = false;
  for (bool removed = true; removed;) {
    const std::vector<bool> needed = needed_tensors(graph);
    const auto end = std::remove_if(graph.ops.begin(), graph.ops.end(),
                                    [&](const Op& op) { return !any_output_needed(op, needed); });
    removed = end != graph.ops.end();
    graph.ops.erase(end, graph.ops.end());
    changed = changed || removed;
  }
  const std::vector<bool> needed = needed_tensors(graph);
  for (size_t id = 0; id < graph.tensors.size(); ++id) {
    Tensor& t = graph.tensors[id];
    if (needed[id] || t.is_dead || is_graph_input(graph, static_cast<int>(id))) continue;
    t.data.clear();
    t.data.shrink_to_fit();
    t.is_dead = true;
    changed = true;
  }
  return changed;
}

}  // namespace microaot
