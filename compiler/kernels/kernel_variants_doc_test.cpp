// docs/kernel-variants.md is the kernel list's specialisations, instruction-set sources and folds as tables,
// written from kernel_list.def here: this test fails when the two differ, and MICROAOT_WRITE_DOCS=1 rewrites it.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "kernels/kernel_registry.h"
#include "kernels/select_kernels.h"

namespace microaot {
namespace {

const char kDoc[] = MICROAOT_RUNTIME_DIR "/../docs/kernel-variants.md";

std::string code(const std::string& word) { return "`" + word + "`"; }

// The instruction-set sources of `stem`, e.g. "dsp: `kernels/dsp/add_s8.c`", or "-": its own source when it is
// written for an instruction set alone (the packed kernels), and its MICROAOT_KERNEL_ISA lines'.
std::string sources_of(const KernelRegistry& r, const std::string& stem) {
  std::string sources;
  const KernelInfo* own = r.find(stem, KernelVariant::kPlain);
  if (own != nullptr && implementation_isa(own->source) != "portable") {
    sources = implementation_isa(own->source) + ": " + code(own->source);
  }
  for (const KernelImplementation& impl : r.implementations) {
    if (impl.stem == stem) sources += (sources.empty() ? "" : ", ") + impl.isa + ": " + code(impl.source);
  }
  return sources.empty() ? "-" : sources;
}

std::string table() {
  const KernelRegistry& r = kernel_registry();
  std::ostringstream out;
  out << "# Kernel variants\n\n"
      << "Generated from `runtime/include/microaot/kernel_list.def` by\n"
         "`compiler/kernels/kernel_variants_doc_test.cpp` — do not edit by hand (rewrite it with\n"
         "`MICROAOT_WRITE_DOCS=1 build/compiler/microaot_compiler_tests --gtest_filter=KernelVariantsDoc.*`).\n"
         "The words: [glossary.md](glossary.md).\n\n"
      << "## Specialisations\n\n"
      << "A specialisation computes some of its parent's layers, with the parent's params struct, faster or\n"
         "smaller on an instruction set; its family's chooser picks it for such a layer on such a target (the\n"
         "family's fit rules: `runtime/include/microaot/fit/`), and the kernel refuses (a status) any other.\n"
         "The choosers run in one stage after lowering (`compiler/compile/choose_variants.h`: handlers lower to\n"
         "the generic stem), then the plan picks plain or overlap and the target each stem's source.\n\n"
      << "| stem | parent | family | for | instruction-set sources |\n|---|---|---|---|---|\n";
  for (const KernelSpecialisation& s : r.specialisations) {
    out << "| " << code(s.stem) << " | " << code(s.parent) << " | " << code(r.root_of(s.parent)) << " | " << s.isa
        << " | " << sources_of(r, s.stem) << " |\n";
  }
  out << "\n## Instruction-set sources\n\n"
      << "Each defines every variant (plain, overlap) of its stem under the portable symbols, bit-exact;\n"
         "`select_kernels` takes it when the target has the instruction set.\n\n"
      << "| stem | instruction set | source |\n|---|---|---|\n";
  for (const KernelImplementation& impl : r.implementations) {
    out << "| " << code(impl.stem) << " | " << impl.isa << " | " << code(impl.source) << " |\n";
  }
  out << "\n## Folds\n\n"
      << "In this order, a call of the first stem runs as the second when another call of the model takes the\n"
         "second (one kernel less; `compiler/kernels/share_kernels.cpp`).\n\n"
      << "| from | into | params |\n|---|---|---|\n";
  for (const KernelFold& fold : r.folds) {
    out << "| " << code(fold.from) << " | " << code(fold.into) << " | "
        << (fold.adapt == "none" ? "as they are" : "rewritten by " + code(fold.adapt)) << " |\n";
  }
  return out.str();
}

TEST(KernelVariantsDoc, IsTheListsTables) {
  const std::string expected = table();
  if (std::getenv("MICROAOT_WRITE_DOCS") != nullptr) std::ofstream(kDoc, std::ios::binary) << expected;
  std::ifstream in(kDoc, std::ios::binary);
  std::stringstream doc;
  doc << in.rdbuf();
  EXPECT_EQ(doc.str(), expected) << kDoc << " differs from kernel_list.def: rewrite it (see its first lines)";
}

}  // namespace
}  // namespace microaot
