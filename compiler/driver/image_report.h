// Sizes and static stack depth of a built Cortex-M image, read from the cross toolchain's output:
// `size -A` of objects and of the ELF, and the -fcallgraph-info=su call graphs (.ci) beside each object.
#pragma once

#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <vector>

namespace microaot {

struct SectionSizes {
  int64_t text = 0;    // code (and vector table, unwind tables)
  int64_t rodata = 0;  // constants
  int64_t data = 0;    // initialized variables: in flash and copied to RAM
  int64_t bss = 0;     // zeroed variables
  int64_t flash() const { return text + rodata + data; }
  int64_t ram() const { return data + bss; }
  SectionSizes& operator+=(const SectionSizes& o);
};

// Sums the allocated sections of an object or ELF (the stack reservation excluded). Throws CompileError.
SectionSizes section_sizes(const std::string& size_tool, const std::string& file);
// Parses `size -A -d` output (exposed for tests).
SectionSizes parse_size_output(const std::string& text);

struct StackBound {
  int64_t bytes = -1;                // deepest static path from the root; -1 = unbounded (recursion, VLA)
  std::set<std::string> externals;   // callees without a call graph whose depth is not known: unbounded
};

// The stack depth of a function without a call graph (the C library's, compiler helpers); -1 = unknown.
using ExternalStackDepth = std::function<int64_t(const std::string&)>;

// The deepest path of static frame sizes from `root` through the .ci call graphs (VCG text). A call
// through a pointer may reach any of `indirect_targets` (function names; the executor calls the model's
// step function so); without them it is unbounded. A callee without a call graph counts `external_depth`
// of it; without that depth the bound is unbounded and the callee listed in `externals`.
StackBound static_stack_bound(const std::vector<std::string>& callgraph_texts, const std::string& root,
                              const std::vector<std::string>& indirect_targets = {},
                              const ExternalStackDepth& external_depth = {});

}  // namespace microaot
