// fold_constants: an op whose inputs are all constant (SHAPE: whatever its input) is computed now, by its
// evaluator (constant_evaluators.h); its output becomes a constant tensor and the op disappears. Runs before
// check_operators, so a CONV_2D whose weights come from a DEQUANTIZE or TRANSPOSE of constants sees them
// constant. An op its handler refuses is left in place for check_operators to refuse, naming the problem.
#include <algorithm>
#include <string>

#include "ops/op_handler.h"
#include "passes/constant_evaluators.h"
#include "passes/pass.h"
#include "support/diagnostics.h"

namespace microaot {

namespace {
bool is_graph_output(const Graph& graph, int id) {
  return std::find(graph.outputs.begin(), graph.outputs.end(), id) != graph.outputs.end();
}

bool holds_its_bytes(const Graph& graph, int id) {
  if (id == kNoTensor) return false;
  const Tensor& t = graph.tensor(id);
  return t.is_constant && static_cast<int64_t>(t.data.size()) == t.byte_size();
}

// Total elements of the op's inputs: a fold may change the element type, never multiply the elements (a
// BROADCAST_TO or PAD of a small constant stays a kernel call rather than a large constant in flash).
int64_t input_elements(const Graph& graph, const Op& op) {
  int64_t total = 0;
  for (int id : op.inputs) total += id == kNoTensor ? 0 : std::max<int64_t>(graph.tensor(id).num_elements(), 0);
  return total;
}

// The conditions that need no evaluation: a rule, one output that is not a graph output (the generated
// code writes graph outputs), and inputs whose bytes are all there when the rule reads them.
bool may_fold(const Graph& graph, const Op& op, const ConstantFoldRule& rule) {
  if (op.outputs.size() != 1 || is_graph_output(graph, op.outputs[0])) return false;
  if (!rule.reads_input_values) return true;
  const bool constant = !op.inputs.empty() && std::all_of(op.inputs.begin(), op.inputs.end(), [&](int id) {
    return holds_its_bytes(graph, id);
  });
  return constant && graph.tensor(op.outputs[0]).num_elements() <= input_elements(graph, op);
}

// What check_operators will ask of the op: its data input's type on its op_list.def line, then the
// handler's check. Evaluators rely on both, as kernels do.
bool accepted(const Graph& graph, const Op& op) {
  if (!unsupported_type(graph, op).empty()) return false;
  try {
    op_handler(op.kind).check(graph, op);
  } catch (const CompileError&) {
    return false;
  }
  return true;
}

// Folds `op` when it can; true when it did.
bool fold(Graph& graph, const Op& op) {
  const ConstantFoldRule* rule = constant_fold_rule(op.kind);
  if (rule == nullptr || !may_fold(graph, op, *rule) || !accepted(graph, op)) return false;
  std::optional<std::vector<uint8_t>> bytes = rule->evaluate(graph, op);
  if (!bytes) return false;
  Tensor& out = graph.tensor(op.outputs[0]);
  MICROAOT_CHECK(static_cast<int64_t>(bytes->size()) == out.byte_size(),
                 "the evaluator of " + describe_op(graph, op) + " made " + std::to_string(bytes->size()) +
                     " bytes for " + std::to_string(out.byte_size()));
  out.is_constant = true;
  out.data = std::move(*bytes);
  return true;
}
}  // namespace

// In execution order, so a fold's output can make the next op's inputs constant.
bool fold_constants(Graph& graph, PassContext& /*ctx*/) {
  std::vector<Op> kept;
  for (const Op& op : graph.ops) {
    if (!fold(graph, op)) kept.push_back(op);
  }
  const bool changed = kept.size() != graph.ops.size();
  graph.ops = std::move(kept);
  return changed;
}

}  // namespace microaot
