// READ_VARIABLE copies a variable into an activation (TFLM's kernel does). When that copy is no graph
// output and all its readers run before the variable is next written, they may read the variable's own
// bytes instead: the copy becomes a view of the variable and leaves the schedule. Results do not change;
// a streaming model's step then moves fewer bytes of state (report.json `state_copy_bytes_per_step`).
// Runs before schedule_for_memory, which orders every reader of a storage before its next writer.
#include <algorithm>

#include "passes/pass.h"

namespace microaot {
namespace {

bool reads_storage(const Graph& graph, const Op& op, int storage) {
  return std::any_of(op.inputs.begin(), op.inputs.end(),
                     [&](int id) { return id != kNoTensor && graph.storage_of(id) == storage; });
}

bool writes_storage(const Graph& graph, const Op& op, int storage) {
  return std::any_of(op.outputs.begin(), op.outputs.end(),
                     [&](int id) { return id != kNoTensor && graph.storage_of(id) == storage; });
}

bool is_graph_output(const Graph& graph, int storage) {
  return std::any_of(graph.outputs.begin(), graph.outputs.end(),
                     [&](int id) { return graph.storage_of(id) == storage; });
}

// Whether the copy made by ops[read] (of a variable) may be replaced by the variable itself.
bool may_alias(const Graph& graph, size_t read) {
  const int copy = graph.ops[read].outputs[0];
  const int variable = graph.storage_of(graph.ops[read].inputs[0]);
  if (is_graph_output(graph, copy) || graph.tensor(copy).byte_size() != graph.tensor(variable).byte_size()) {
    return false;
  }
  size_t next_write = graph.ops.size();
  for (size_t i = read + 1; i < graph.ops.size(); ++i) {
    if (writes_storage(graph, graph.ops[i], variable)) {
      next_write = i;
      break;
    }
  }
  // A reader at or after the next write would see the new value (and an ASSIGN of the copy to its own
  // variable would copy a buffer onto itself).
  for (size_t i = next_write; i < graph.ops.size(); ++i) {
    if (reads_storage(graph, graph.ops[i], copy)) return false;
  }
  return true;
}

}  // namespace

bool alias_variable_reads(Graph& graph, PassContext& /*ctx*/) {
  std::vector<bool> aliased(graph.ops.size(), false);
  for (size_t i = 0; i < graph.ops.size(); ++i) {
    const Op& op = graph.ops[i];
    if (op.kind != OpKind::ReadVariable || op.inputs.size() != 1 || op.outputs.size() != 1) continue;
    if (!graph.tensor(graph.storage_of(op.inputs[0])).is_persistent || !may_alias(graph, i)) continue;
    graph.tensor(op.outputs[0]).alias_of = graph.storage_of(op.inputs[0]);
    aliased[i] = true;
  }
  size_t kept = 0;
  for (size_t i = 0; i < graph.ops.size(); ++i) {
    if (!aliased[i]) graph.ops[kept++] = graph.ops[i];
  }
  const bool changed = kept != graph.ops.size();
  graph.ops.resize(kept);
  return changed;
}

}  // namespace microaot
