#include "kernels/share_kernels.h"

#include <algorithm>
#include <string>

namespace microaot {

namespace {
// The k x k packed CONV_2D runs a 1x1 layer without padding through the 1x1 kernel's own rows
// (runtime/include/microaot/templates/packed_conv_2d_kxk.h), over the same packed weights, folded bias,
// output step and scratch; the input offset the 1x1 lowering zeroes is unread there. A model with a k x k
// layer thus saves the 1x1 kernel; a model of 1x1 layers only keeps the smaller 1x1 kernel.
const char kWhy[] = "; through the k x k kernel, which the model links for its k x k layers (one packed CONV_2D kernel)";

const std::vector<SharedKernel> kSharedKernels = {
    {"conv_2d_s8_packed", "conv_2d_s8_packed_kxk", kWhy},
    {"conv_2d_s8_packed_w16", "conv_2d_s8_packed_kxk_w16", kWhy},
};

bool takes(const std::vector<KernelCall>& calls, const std::string& stem) {
  return std::any_of(calls.begin(), calls.end(),
                     [&](const KernelCall& call) { return !call.custom && call.stem == stem; });
}
}  // namespace

const std::vector<SharedKernel>& shared_kernels() { return kSharedKernels; }

void share_kernels(std::vector<KernelCall>& calls) {
  for (const SharedKernel& shared : kSharedKernels) {
    if (!takes(calls, shared.to)) continue;
    for (KernelCall& call : calls) {
      if (call.custom || call.stem != shared.from) continue;
      call.stem = shared.to;
      call.specialisation += shared.why;
    }
  }
}

}  // namespace microaot
