#include <set>

#include "codegen/emit.h"
#include "codegen/graph_blob.h"
#include "codegen/runtime_files.h"
#include "memory/plan_report.h"
#include "kernels/select_kernels.h"
#include "memory/plan_svg.h"

namespace microaot {

namespace {
// Runtime files keep their path below runtime/include (headers) or drop their folder (the others):
// "include/microaot/fixedpoint.h" -> "kernels/microaot/fixedpoint.h",
// "kernels/portable/conv_2d_s8.c" -> "kernels/conv_2d_s8.c", "executor/executor.c" -> "kernels/executor.c".
std::string output_path_of_runtime_file(const std::string& path) {
  const std::string include_prefix = "include/";
  if (path.compare(0, include_prefix.size(), include_prefix) == 0) {
    return "kernels/" + path.substr(include_prefix.size());
  }
  return "kernels/" + path.substr(path.find_last_of('/') + 1);
}

// The executor's files, and each kernel's header and implementation for the target: the model's calls, or
// (graph executor) every kernel the firmware links.
std::set<std::string> needed_runtime_files(const CompiledModel& model) {
  std::set<std::string> needed = {"include/microaot/fixedpoint.h", "executor/executor.c",
                                  "executor/executor_internal.h", "executor/status.c"};
  if (!model.options.io_in_arena) needed.insert("executor/executor_bind.c");
  if (model.options.interface_api_c && model.options.io_in_arena) needed.insert("executor/executor_once.c");
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

void add_runtime_files(const CompiledModel& model, FileSet& files, std::vector<std::string>& sources) {
  std::set<std::string> needed = needed_runtime_files(model);
  for (bool grew = true; grew;) {
    grew = false;
    for (const std::string& path : std::set<std::string>(needed)) {
      for (const std::string& named : files_named_by(runtime_file(path))) {
        grew = needed.insert(named).second || grew;
      }
    }
  }
  for (const std::string& path : needed) {
    const std::string out = output_path_of_runtime_file(path);
    files[out] = runtime_file(path);
    if (out.size() > 2 && out.compare(out.size() - 2, 2, ".c") == 0) sources.push_back(out);
  }
}

// The persistent region: every variable, apart from the reused activations above.
std::string persistent_text(const CompiledModel& model) {
  if (model.persistent.empty()) return "";
  std::string text = "\npersistent region (state kept from run to run, never reused): " +
                     std::to_string(model.persistent_bytes) + " bytes at offset " +
                     std::to_string(persistent_base(model)) + ", after the " + std::to_string(model.plan.arena_size) +
                     " bytes of reused activations\n";
  for (const PersistentBuffer& p : model.persistent) {
    text += "  t" + std::to_string(p.tensor_id) + "  offset " + std::to_string(persistent_base(model) + p.offset) +
            "  size " + std::to_string(p.size) + "  '" + model.graph.tensor(p.tensor_id).name + "'\n";
  }
  return text;
}

// What the executor adds to the plan's figures: the arena header before offset 0, and the context.
std::string runtime_memory_text(const CompiledModel& model) {
  const ModuleNames n = module_names(model);
  return persistent_text(model) + "\nexecutor (microaot/executor.h):\n"
         "  arena header: " + std::to_string(arena_header_bytes(model)) +
         " bytes before offset 0, naming the context that wrote the arena last\n"
         "  init needs:   " + std::to_string(arena_buffer_bytes(model)) + " bytes (" + n.macro + "_ARENA_SIZE)\n"
         "  context:      " + std::to_string(context_bytes32(model)) + " bytes on a 32-bit target (sizeof(" +
         n.prefix + "_context))\n"
         "  static RAM:   " + std::to_string(static_ram_bytes(model)) + " bytes in all (report.json ram_bytes)\n";
}
}  // namespace

FileSet emit_library(const CompiledModel& model) {
  const ModuleNames names = module_names(model);
  FileSet files;
  BuildFiles build{names.prefix, names.macro, {names.prefix + ".c", "weights.c"}, {"platform.c"}, "",
                   {"", "kernels"}, {names.macro + "_NO_STATIC_ARENA"}, model.options.target.optimize_size};
  add_runtime_files(model, files, build.runtime_sources);
  files[names.prefix + ".h"] = emit_api_header(model);
  files[names.prefix + ".c"] = emit_model_source(model);
  if (is_graph(model)) {
    const GraphBlob blob = build_graph_blob(model);
    files["weights.c"] = emit_blob_source(model, blob.bytes);
    files[names.prefix + ".blob"] = std::string(blob.bytes.begin(), blob.bytes.end());
    files["kernel_table.c"] = emit_kernel_table(model);
    build.own_sources.push_back("kernel_table.c");
  } else {
    files["weights.c"] = emit_weights_source(model);
  }
  files["memory_map.h"] = emit_memory_map(model);
  files["platform.h"] = emit_platform_header();
  files["platform.c"] = emit_platform_source();
  files["CMakeLists.txt"] = emit_cmake_lists(build);
  files[names.prefix + ".mk"] = emit_makefile_fragment(build);
  const PlanRequest request{model.buffers, model.permits};
  files["memory_plan.txt"] =
      format_memory_plan(model.graph, request, model.plan, pool_layout(model)) + runtime_memory_text(model);
  files["memory_map.svg"] = render_memory_svg(model.graph, request, model.plan, pool_layout(model));
  files["network_info.txt"] = emit_network_info(model);
  files["report.json"] = emit_report_json(model);
  for (const CustomOpBinding& binding : model.options.custom_ops) {
    files[custom_header_output_path(binding)] = binding.header_text;  // the folder builds on its own
  }
  return files;
}

}  // namespace microaot
