// Why a layer keeps the portable code inside the instruction-set implementation of its stem that the target runs
// (an implementation that checks its own fit rule, runtime/include/microaot/fit/, and otherwise runs the portable
// loop): for network_info.txt's specialisation lines, beside the choosers' words for specialised stems.
#pragma once

#include <string>

#include "kernels/kernel_call.h"
#include "target/target.h"

namespace microaot {

// The reason, or "" when the layer takes the fast path, the target runs no such implementation of the call's
// stem, or the stem's implementation takes every layer.
std::string isa_fallback(const KernelCall& call, const Target& target);

}  // namespace microaot
