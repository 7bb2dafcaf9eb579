#include "kernels/bind_call.h"

#include "support/diagnostics.h"

namespace microaot {

namespace {
// How many tensors the signature's list takes from `given` arguments (0 when it has no list).
size_t list_length(const KernelInfo& kernel, size_t given) {
  size_t fixed = 0;
  bool list = false;
  for (const KernelArgSpec& spec : kernel.args) {
    if (spec.is_list()) list = true;
    if (!spec.is_list() && spec.role != KernelArgSpec::Role::kScratch) ++fixed;
  }
  return list && given > fixed ? given - fixed : 0;
}

std::string argument_problem(const Graph& graph, const KernelInfo& kernel, const KernelCall& call) {
  const size_t in_list = list_length(kernel, call.args.size());
  size_t next = 0;
  for (const KernelArgSpec& spec : kernel.args) {
    if (spec.role == KernelArgSpec::Role::kScratch) continue;
    const size_t count = spec.is_list() ? in_list : 1;
    if (spec.is_list() && count == 0) return "the list of " + kernel.function() + " is empty";
    for (size_t k = 0; k < count; ++k) {
      if (next >= call.args.size()) return "too few arguments for " + kernel.function();
      const int id = call.args[next++];
      const std::string position = "argument " + std::to_string(next - 1);
      if (id == kNoTensor) {
        if (spec.role != KernelArgSpec::Role::kOptionalIn) return position + " is absent";
        continue;
      }
      if (id < 0 || static_cast<size_t>(id) >= graph.tensors.size()) return position + " names no tensor";
      const DType type = graph.tensor(id).dtype;
      if (!spec.accepts(type)) {
        return position + " is " + dtype_short_name(type) + ", the kernel takes " + dtype_short_name(spec.dtype);
      }
    }
  }
  return next == call.args.size() ? "" : "too many arguments for " + kernel.function();
}

// Appends the call's derived constants to the graph and points the arguments at them.
void add_derived_constants(Graph& graph, KernelCall& call) {
  for (int& id : call.args) {
    if (id >= kNoTensor) continue;  // a tensor of the graph, or absent
    const size_t index = static_cast<size_t>(-2 - id);
    MICROAOT_CHECK(index < call.derived.size(), "argument names a derived constant that does not exist");
    Tensor t = call.derived[index];
    t.is_constant = true;
    graph.tensors.push_back(std::move(t));
    id = static_cast<int>(graph.tensors.size() - 1);
  }
  call.derived.clear();
}
}  // namespace

std::string kernel_call_problem(const Graph& graph, const KernelInfo& kernel, KernelCall& call) {
  try {
    call.params.bind(*kernel.params);
  } catch (const ParamBindError& e) {
    return e.what();
  }
  return argument_problem(graph, kernel, call);
}

void bind_kernel_call(Graph& graph, const Op& op, KernelCall& call) {
  const KernelInfo* kernel = kernel_registry().find(call.stem, KernelVariant::kPlain);
  MICROAOT_CHECK(kernel != nullptr, describe_op(graph, op) + " lowered to unknown kernel stem '" + call.stem + "'");
  add_derived_constants(graph, call);
  const std::string problem = kernel_call_problem(graph, *kernel, call);
  MICROAOT_CHECK(problem.empty(), describe_op(graph, op) + ", kernel " + kernel->function() + ": " + problem);
  call.kernel = kernel->id;
  call.source = kernel->source;
}

}  // namespace microaot
