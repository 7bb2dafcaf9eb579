// Lowering's check of a handler's KernelCall against the kernel list: the stem names a kernel, the params
// bind to its struct (every field set once, of the right kind and range), the arguments match its
// signature in number and element type, and derived constants become constant tensors of the graph.
#pragma once

#include "ir/graph.h"
#include "kernels/kernel_call.h"

namespace microaot {

// Sets call.kernel to the plain variant of call.stem. A mismatch is a handler bug: aborts naming the op,
// the kernel and the problem.
void bind_kernel_call(Graph& graph, const Op& op, KernelCall& call);

// The same checks without aborting: empty when `call` fits `kernel`, else the first problem.
std::string kernel_call_problem(const Graph& graph, const KernelInfo& kernel, KernelCall& call);

}  // namespace microaot
