// One runtime call of the generated run(): `microaot_<symbol>(&params, args..., [scratch])`. An operator
// handler fills the stem, the params by name and the tensor arguments; lowering binds the params to the
// kernel's struct and checks the arguments against its signature; select_kernels (after memory planning)
// picks the variant and the implementation for the target.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/graph.h"
#include "kernels/kernel_registry.h"
#include "kernels/param_values.h"

namespace microaot {

// The argument that names the call's derived constant `index` (KernelCall::derived); lowering turns it into
// the id of a new constant tensor of the graph.
constexpr int derived_arg(int index) { return -2 - index; }

struct KernelCall {
  // Set by the operator handler.
  std::string stem;             // a stem of kernel_list.def, e.g. "conv_2d_s8"
  ParamValues params;           // every field of the kernel's params struct, by name
  std::vector<int> args;        // tensor ids in signature order, scratch excluded; kNoTensor: absent optional
  std::vector<Tensor> derived;  // constants computed at lowering (e.g. re-laid-out weights), to weights.c, or
                                // state of the call alone (is_persistent: its data is the reset value)
  int64_t scratch_bytes = 0;    // scratch the plain variant itself needs (an overlap variant's row follows it)
  // A call of a user's function (--custom-op, ops/custom.cpp) instead of a registry kernel: `stem` is the
  // function, `args` the op's inputs then outputs; params, kernel and source stay empty.
  bool custom = false;
  // How the handler or its family's chooser (compile/choose_variants.h) specialised the call for this layer and
  // target, or why it did not (network_info.txt).
  std::string specialisation;

  // Set by lowering (the plain variant) and by select_kernels.
  KernelVariant variant = KernelVariant::kPlain;
  int kernel = -1;     // id in kernel_registry()
  std::string source;  // the implementation built for the target, below runtime/

  const KernelInfo& info() const { return kernel_registry().by_id(kernel); }
  // The C function the generated code calls: the kernel's symbol, or the user's function.
  std::string function() const { return custom ? stem : info().function(); }
};

}  // namespace microaot
