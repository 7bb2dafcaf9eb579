#include "codegen/runtime_closure.h"

#include <utility>

#include "codegen/runtime_files.h"
#include "kernels/select_kernels.h"

namespace microaot {

namespace {
// The runtime files `text` brings along: every header it includes as "microaot/..." (the executor's
// platform.h too, which it includes only under #ifdef MICROAOT_PROFILE), and every source it names in a
// "microaot-links: PATH" comment (the out-of-line functions it calls, e.g. the packed kernels' rows).
std::vector<std::string> files_named_by(const std::string& text) {
  std::vector<std::string> named;
  const std::string include = "#include \"microaot/", links = "microaot-links: ";
  for (size_t at = text.find(include); at != std::string::npos; at = text.find(include, at + 1)) {
    const size_t start = at + include.size() - std::string("microaot/").size();
    named.push_back("include/" + text.substr(start, text.find('"', start) - start));
  }
  for (size_t at = text.find(links); at != std::string::npos; at = text.find(links, at + 1)) {
    const size_t start = at + links.size();
    named.push_back(text.substr(start, text.find_first_of(" \n", start) - start));
  }
  return named;
}
}  // namespace

std::string output_path_of_runtime_file(const std::string& path) {
  const std::string include_prefix = "include/";
  if (path.compare(0, include_prefix.size(), include_prefix) == 0) {
    return "kernels/" + path.substr(include_prefix.size());
  }
  return "kernels/" + path.substr(path.find_last_of('/') + 1);
}

std::set<std::string> needed_runtime_files(const CompiledModel& model) {
  std::set<std::string> needed = {"include/microaot/fixedpoint.h", "executor/executor_core.h",
                                  "executor/executor_internal.h", "executor/status.c"};
  needed.insert(uses_arena_executor(model) ? "executor/executor_arena.c" : "executor/executor.c");
  if (!model.options.io_in_arena) needed.insert("executor/executor_bind.c");
  if (model.options.interface_api_c && model.options.io_in_arena) needed.insert("executor/executor_once.c");
  if (!model.chains.empty()) needed.insert("include/microaot/band_move.h");  // the line buffers' moves
  if (is_graph(model)) {
    needed.insert({"executor/graph_load.c", "executor/graph_run.c", "executor/graph_blob.h"});
    for (const KernelInfo* kernel : linked_kernels(model)) {
      needed.insert("include/" + kernel->header);
      needed.insert(select_implementation(kernel_registry(), *kernel, model.options.target));
    }
    return needed;
  }
  for (const KernelCall& call : model.calls) {
    if (call.custom) {  // the user builds their function; the generated code needs the ABI header
      needed.insert("include/microaot/custom_op.h");
      continue;
    }
    needed.insert("include/" + call.info().header);
    needed.insert(call.source);
  }
  return needed;
}

std::set<std::string> runtime_files_reached(std::set<std::string> roots) {
  for (bool grew = true; grew;) {
    grew = false;
    for (const std::string& path : std::set<std::string>(roots)) {
      for (const std::string& named : files_named_by(runtime_file(path))) grew = roots.insert(named).second || grew;
    }
  }
  return roots;
}

namespace {
// The instruction-set sources that stand in for portable kernels (MICROAOT_KERNEL_ISA lines), and what they link.
const std::set<std::string>& standin_sources() {
  static const std::set<std::string> sources = [] {
    std::set<std::string> roots;
    for (const KernelImplementation& impl : kernel_registry().implementations) roots.insert(impl.source);
    return runtime_files_reached(roots);
  }();
  return sources;
}

// The sources' order in the folder's build files: the executor's, the stand-ins, then every other kernel source
// by name, whichever folder holds it (the portable ones and a stem's own instruction-set source alike).
int build_order_group(const std::string& path) {
  if (path.rfind("executor/", 0) == 0) return 0;
  return standin_sources().count(path) != 0 ? 1 : 2;
}
}  // namespace

void add_runtime_files(const CompiledModel& model, FileSet& files, std::vector<std::string>& sources) {
  std::set<std::pair<int, std::string>> ordered;
  for (const std::string& path : runtime_files_reached(needed_runtime_files(model))) {
    const std::string out = output_path_of_runtime_file(path);
    files[out] = runtime_file(path);
    if (out.size() > 2 && out.compare(out.size() - 2, 2, ".c") == 0) ordered.insert({build_order_group(path), out});
  }
  for (const auto& entry : ordered) sources.push_back(entry.second);
}

}  // namespace microaot
