// The table `microaot inspect --kernels` prints: every runtime kernel (kernel_list.def) with its id, stem,
// type, variant and the instruction sets it has implementations for. It names what --link-kernels takes
// to a user without the source tree.
#pragma once

#include <string>

namespace microaot {

std::string kernel_listing();

}  // namespace microaot
