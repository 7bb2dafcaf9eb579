// A whole-model kernel choice: a call whose work another kernel of the model also does, as fast, takes that
// kernel, so that the library links one kernel less (issue 13: code size). Runs after every op is lowered and
// before the calls are bound to their kernels.
#pragma once

#include <string>
#include <vector>

#include "kernels/kernel_call.h"

namespace microaot {

// The kernels a call may move to (the MICROAOT_KERNEL_FOLD lines of kernel_list.def, in their order): the stem
// `from` runs as `to` when some call of the model already takes `to`; both stems take the same arguments for such
// a call, and its params and scratch as they are (adapt nullptr) or as `adapt` rewrites them for `to`.
struct SharedKernel {
  std::string from;
  std::string to;
  void (*adapt)(KernelCall& call);
  std::string why;  // appended to the moved call's specialisation (network_info.txt)
};
const std::vector<SharedKernel>& shared_kernels();

// Moves each call of a `from` stem to its `to` stem when another call of `calls` takes `to`.
void share_kernels(std::vector<KernelCall>& calls);

}  // namespace microaot
