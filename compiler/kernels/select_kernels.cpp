#include "kernels/select_kernels.h"

#include "support/diagnostics.h"

namespace microaot {

bool target_runs_isa(const Target& target, const std::string& isa) {
  return isa == "portable" || (isa == "dsp" && target.kernels_use_dsp()) || (isa == "mve" && target.kernels_use_mve());
}

bool has_specialisation_for(const std::string& stem, const Target& target, const KernelRegistry& registry) {
  for (const KernelSpecialisation& line : registry.specialisations) {
    if (line.parent == stem && target_runs_isa(target, line.isa)) return true;
  }
  return false;
}

std::string select_implementation(const KernelRegistry& registry, const KernelInfo& kernel, const Target& target) {
  std::string chosen = kernel.source;
  for (const char* isa : {"dsp", "mve"}) {  // later entries win: the wider extension
    for (const KernelImplementation& impl : registry.implementations) {
      if (impl.stem == kernel.stem && impl.isa == isa && target_runs_isa(target, isa)) chosen = impl.source;
    }
  }
  return chosen;
}

std::string implementation_isa(const std::string& source) {
  const size_t first = source.find('/');
  const size_t second = source.find('/', first + 1);
  MICROAOT_CHECK(first != std::string::npos && second != std::string::npos, "bad kernel source path " + source);
  return source.substr(first + 1, second - first - 1);
}

void select_kernels(std::vector<KernelCall>& calls, const Target& target, const KernelRegistry& registry) {
  for (KernelCall& call : calls) {
    if (call.custom) continue;  // the user's function, built by the user
    const KernelInfo* kernel = registry.find(call.stem, call.variant);
    MICROAOT_CHECK(kernel != nullptr,
                   "no " + std::string(variant_name(call.variant)) + " variant of kernel stem '" + call.stem + "'");
    call.kernel = kernel->id;
    call.source = select_implementation(registry, *kernel, target);
  }
}

}  // namespace microaot
