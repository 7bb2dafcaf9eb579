// The pass pipeline: straight-line, one pass per line, with an IR dump hook after each.
#include <iostream>
#include <string>
#include <vector>

#include "ir/ir_dump.h"
#include "passes/pass.h"

namespace microaot {

namespace {
using PassFn = bool (*)(Graph&, PassContext&);
struct PassEntry {
  const char* name;
  PassFn run;
};

constexpr PassEntry kPasses[] = {
    {"fold_constants", fold_constants},
    {"check_operators", check_operators},
    {"fold_constant_views", fold_constant_views},
    {"fold_pad", fold_pad},
    {"merge_quantize", merge_quantize},
    {"alias_views", alias_views},
    {"ring_windows", ring_windows},
    {"alias_variable_reads", alias_variable_reads},
    {"remove_dead_code", remove_dead_code},
    {"schedule_for_memory", schedule_for_memory},
};
}  // namespace

std::vector<std::string> pass_names() {
  std::vector<std::string> names;
  for (const PassEntry& pass : kPasses) names.push_back(pass.name);
  return names;
}

void run_pass_pipeline(Graph& graph, PassContext& ctx) {
  std::ostream& out = ctx.dump_stream != nullptr ? *ctx.dump_stream : std::cerr;
  for (const PassEntry& pass : kPasses) {
    const bool changed = pass.run(graph, ctx);
    if (ctx.dump_after == "all" || ctx.dump_after == pass.name) {
      out << "// IR after " << pass.name << (changed ? "" : " (unchanged)") << "\n" << dump_ir(graph) << "\n";
    }
  }
}

}  // namespace microaot
