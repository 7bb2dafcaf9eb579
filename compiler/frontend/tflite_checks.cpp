// Whole-graph checks of the main subgraph once its tensors and ops are converted: graph inputs and
// outputs, and the order of reads and writes that the memory planner and codegen rely on.
#include <algorithm>
#include <string>
#include <vector>

#include "frontend/tflite_internal.h"
#include "support/diagnostics.h"

namespace microaot {
namespace tflite_detail {

namespace {
// A tensor an op or the caller touches must have a type microaot can store.
void check_usable(const Graph& graph, const tflite::SubGraph& subgraph, int id, const std::string& user) {
  const tflite::Tensor& src = *subgraph.tensors()->Get(static_cast<uint32_t>(id));
  if (graph.tensor(id).dtype == DType::kUnsupported) {
    throw CompileError("tensor " + describe_tensor(graph, id) + " used by " + user + " has element type " +
                       tensor_type_name(src.type()) + ", which microaot does not support");
  }
}

// The caller's tensors live in the reused arena or in buffers bound per context; a variable (state kept
// from run to run in the persistent region) cannot be one of them.
void check_interface(const Graph& graph, const tflite::SubGraph& subgraph, int id, const std::string& user) {
  check_usable(graph, subgraph, id, user);
  if (subgraph.tensors()->Get(static_cast<uint32_t>(id))->is_variable()) {
    throw CompileError("tensor " + describe_tensor(graph, id) + " of " + user +
                       " is a variable (stateful) tensor, which microaot keeps inside the model");
  }
}

void check_graph_inputs(const Graph& graph, const tflite::SubGraph& subgraph) {
  std::vector<bool> seen(graph.tensors.size(), false);
  for (int id : graph.inputs) {
    check_interface(graph, subgraph, id, "the graph inputs");
    if (graph.tensor(id).is_constant) {
      throw CompileError("graph input " + describe_tensor(graph, id) + " is a constant");
    }
    if (seen[id]) throw CompileError("graph input " + describe_tensor(graph, id) + " is listed twice");
    seen[id] = true;
  }
}

// Why a tensor read by `reader` is not yet written: a later op writes it (the operators are out of
// order, or form a cycle, which no order can fix) or no op does.
std::string later_writer(const Graph& graph, const Op& reader, int id) {
  for (const Op& op : graph.ops) {
    if (&op < &reader || std::find(op.outputs.begin(), op.outputs.end(), id) == op.outputs.end()) continue;
    const bool cycle = &op == &reader;
    return std::string(" (") + (cycle ? "it is also its output" : "by " + describe_op(graph, op)) +
           "; operators must be listed in execution order and may not form a cycle)";
  }
  return " (no operator writes it and it is not a graph input or constant)";
}

// The op that writes each tensor (-1: none), checking reads come after writes.
std::vector<int> check_op_order(const Graph& graph, const tflite::SubGraph& subgraph) {
  std::vector<int> writer(graph.tensors.size(), -1);
  std::vector<bool> is_input(graph.tensors.size(), false);
  for (int id : graph.inputs) is_input[id] = true;
  for (const Op& op : graph.ops) {
    const std::string user = describe_op(graph, op);
    for (int id : op.inputs) {
      if (id == kNoTensor) continue;
      check_usable(graph, subgraph, id, user);
      const Tensor& t = graph.tensor(id);
      if (!is_input[id] && !t.is_constant && !t.is_persistent && writer[id] < 0) {
        throw CompileError("tensor " + describe_tensor(graph, id) + " is read by " + user +
                           " before it is written" + later_writer(graph, op, id));
      }
    }
    for (int id : op.outputs) {
      check_usable(graph, subgraph, id, user);
      const Tensor& t = graph.tensor(id);
      if (t.is_constant || is_input[id]) {
        throw CompileError(user + " writes " + (t.is_constant ? "constant " : "graph input ") +
                           describe_tensor(graph, id));
      }
      if (writer[id] >= 0 && !t.is_persistent) {  // state may be written several times
        throw CompileError("tensor " + describe_tensor(graph, id) + " is written twice, by " +
                           describe_op(graph, graph.ops[writer[id]]) + " and by " + user);
      }
      writer[id] = static_cast<int>(&op - graph.ops.data());
    }
  }
  return writer;
}

void check_graph_outputs(const Graph& graph, const tflite::SubGraph& subgraph, const std::vector<int>& writer) {
  std::vector<bool> is_input(graph.tensors.size(), false);
  for (int id : graph.inputs) is_input[id] = true;
  std::vector<bool> seen(graph.tensors.size(), false);
  for (int id : graph.outputs) {
    check_interface(graph, subgraph, id, "the graph outputs");
    if (writer[id] < 0 && !is_input[id] && !graph.tensor(id).is_constant) {
      throw CompileError("graph output " + describe_tensor(graph, id) + " is never written by any operator");
    }
    if (seen[id]) throw CompileError("graph output " + describe_tensor(graph, id) + " is listed twice");
    seen[id] = true;
  }
}
}  // namespace

void check_dataflow(const Graph& graph, const tflite::SubGraph& subgraph) {
  check_graph_inputs(graph, subgraph);
  const std::vector<int> writer = check_op_order(graph, subgraph);
  check_graph_outputs(graph, subgraph, writer);
}

}  // namespace tflite_detail
}  // namespace microaot
