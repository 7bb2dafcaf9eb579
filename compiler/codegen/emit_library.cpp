#include "codegen/emit.h"
#include "codegen/graph_blob.h"
#include "codegen/runtime_closure.h"
#include "codegen/source_levels.h"
#include "memory/plan_report.h"
#include "memory/plan_svg.h"

namespace microaot {

namespace {
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
  const SourceLevels levels = source_levels(model);
  BuildFiles build{names.prefix, names.macro, {names.prefix + ".c", "weights.c"}, {"platform.c"}, "",
                   {"", "kernels"}, {names.macro + "_NO_STATIC_ARENA"}, model.options.target.optimize_size,
                   levels.size, levels.speed};
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
      format_memory_plan(model.graph, request, model.plan, pool_layout(model)) + runtime_memory_text(model) +
      bands_plan_text(model);
  files["memory_map.svg"] = render_memory_svg(model.graph, request, model.plan, pool_layout(model), model.chains);
  files["network_info.txt"] = emit_network_info(model);
  files["report.json"] = emit_report_json(model);
  for (const CustomOpBinding& binding : model.options.custom_ops) {
    files[custom_header_output_path(binding)] = binding.header_text;  // the folder builds on its own
  }
  return files;
}

}  // namespace microaot
