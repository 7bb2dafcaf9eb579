#include "driver/kernel_listing.h"

#include <cstdio>
#include <sstream>

#include "ir/dtype.h"
#include "kernels/kernel_registry.h"

namespace microaot {

namespace {
// "portable", or "portable, dsp, mve": the implementations of the kernel's stem.
std::string isa_list(const KernelRegistry& registry, const KernelInfo& kernel) {
  std::string text = "portable";
  for (const KernelImplementation& impl : registry.implementations) {
    if (impl.stem == kernel.stem) text += ", " + impl.isa;
  }
  return text;
}

std::string row(const std::string& id, const std::string& symbol, const std::string& stem, const std::string& type,
                const std::string& variant, const std::string& isa) {
  char line[512];
  std::snprintf(line, sizeof line, "%-4s %-52s %-44s %-6s %-8s %s\n", id.c_str(), symbol.c_str(), stem.c_str(),
                type.c_str(), variant.c_str(), isa.c_str());
  return line;
}
}  // namespace

std::string kernel_listing() {
  const KernelRegistry& registry = kernel_registry();
  std::ostringstream out;
  out << row("id", "kernel (--link-kernels takes it or its stem)", "stem", "type", "variant", "implementations");
  for (const KernelInfo& k : registry.kernels) {
    out << row(std::to_string(k.id), k.function(), k.stem,
               k.dtype == DType::kUnsupported ? "any" : dtype_short_name(k.dtype), variant_name(k.variant),
               isa_list(registry, k));
  }
  out << registry.kernels.size() << " kernels. --link-kernels takes names without the microaot_ prefix, stems "
      << "(every variant of it) or all.\n";
  return out.str();
}

}  // namespace microaot
