#include "kernels/bind_call.h"

#include "support/diagnostics.h"

namespace microaot {

namespace {
std::string count_problem(const KernelInfo& kernel, size_t given) {
  const size_t fixed = kernel.fixed_arg_count();
  if (kernel.has_list() && given == fixed) return "the list of " + kernel.function() + " is empty";
  if (given < fixed) return "too few arguments for " + kernel.function();
  if (given > fixed && !kernel.has_list()) return "too many arguments for " + kernel.function();
  return "";
}

std::string argument_problem(const Graph& graph, const KernelInfo& kernel, const KernelCall& call) {
  const std::string count = count_problem(kernel, call.args.size());
  if (!count.empty()) return count;
  const std::vector<KernelArgSpec> specs = kernel.tensor_args();
  const std::vector<std::vector<int>> groups = split_arguments(kernel, call.args);
  size_t position = 0;
  for (size_t g = 0; g < groups.size(); ++g) {
    for (const int id : groups[g]) {
      const std::string where = "argument " + std::to_string(position++);
      if (id == kNoTensor) {
        if (specs[g].role != KernelArgSpec::Role::kOptionalIn) return where + " is absent";
        continue;
      }
      if (id < 0 || static_cast<size_t>(id) >= graph.tensors.size()) return where + " names no tensor";
      const DType type = graph.tensor(id).dtype;
      if (!specs[g].accepts(type)) {
        return where + " is " + dtype_short_name(type) + ", the kernel takes " + dtype_short_name(specs[g].dtype);
      }
    }
  }
  return "";
}

// Appends the call's derived tensors to the graph and points the arguments at them: constants, or state the
// call keeps for itself (is_persistent, e.g. SVDF's ring position), which the planner puts in the persistent
// region and init and reset set to its data.
void add_derived_constants(Graph& graph, KernelCall& call) {
  for (int& id : call.args) {
    if (id >= kNoTensor) continue;  // a tensor of the graph, or absent
    const size_t index = static_cast<size_t>(-2 - id);
    MICROAOT_CHECK(index < call.derived.size(), "argument names a derived constant that does not exist");
    Tensor t = call.derived[index];
    t.is_constant = !t.is_persistent;
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
