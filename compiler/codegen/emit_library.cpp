#include <set>

#include "codegen/emit.h"
#include "codegen/runtime_files.h"
#include "memory/plan_report.h"
#include "memory/plan_svg.h"

namespace microaot {

namespace {
// Runtime files keep their path below runtime/include (headers) or drop the flavor folder (sources):
// "include/microaot/fixedpoint.h" -> "kernels/microaot/fixedpoint.h",
// "kernels/portable/conv_2d_s8.c" -> "kernels/conv_2d_s8.c".
std::string output_path_of_runtime_file(const std::string& path) {
  const std::string include_prefix = "include/";
  if (path.compare(0, include_prefix.size(), include_prefix) == 0) {
    return "kernels/" + path.substr(include_prefix.size());
  }
  return "kernels/" + path.substr(path.find_last_of('/') + 1);
}

void add_runtime_files(const CompiledModel& model, FileSet& files, std::vector<std::string>& sources) {
  std::set<std::string> needed = {"include/microaot/status.h", "include/microaot/fixedpoint.h"};
  for (const KernelCall& call : model.calls) {
    needed.insert("include/" + call.info().header);
    needed.insert(call.source);
  }
  // Runtime headers may include siblings: pull in every microaot header a needed file names.
  for (bool grew = true; grew;) {
    grew = false;
    for (const std::string& path : std::set<std::string>(needed)) {
      const std::string text = runtime_file(path);
      for (size_t at = text.find("#include \"microaot/"); at != std::string::npos;
           at = text.find("#include \"microaot/", at + 1)) {
        const size_t start = at + 10;
        const std::string header = "include/" + text.substr(start, text.find('"', start) - start);
        grew = needed.insert(header).second || grew;
      }
    }
  }
  for (const std::string& path : needed) {
    const std::string out = output_path_of_runtime_file(path);
    files[out] = runtime_file(path);
    if (out.size() > 2 && out.compare(out.size() - 2, 2, ".c") == 0) sources.push_back(out);
  }
}
}  // namespace

FileSet emit_library(const CompiledModel& model) {
  const ModuleNames names = module_names(model);
  FileSet files;
  std::vector<std::string> sources = {names.prefix + ".c", "weights.c", "platform.c"};
  add_runtime_files(model, files, sources);
  files[names.prefix + ".h"] = emit_api_header(model);
  files[names.prefix + ".c"] = emit_model_source(model);
  files["weights.c"] = emit_weights_source(model);
  files["memory_map.h"] = emit_memory_map(model);
  files["platform.h"] = emit_platform_header();
  files["platform.c"] = emit_platform_source();
  files["CMakeLists.txt"] = emit_cmake_lists(model, sources);
  files[names.prefix + ".mk"] = emit_makefile_fragment(model, sources);
  const PlanRequest request{model.buffers, model.permits};
  files["memory_plan.txt"] = format_memory_plan(model.graph, request, model.plan, pool_layout(model));
  files["memory_map.svg"] = render_memory_svg(model.graph, request, model.plan, pool_layout(model));
  files["network_info.txt"] = emit_network_info(model);
  files["report.json"] = emit_report_json(model);
  return files;
}

}  // namespace microaot
