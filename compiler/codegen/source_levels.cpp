#include "codegen/source_levels.h"

#include <algorithm>
#include <map>

#include "codegen/emit.h"
#include "codegen/runtime_closure.h"
#include "codegen/runtime_files.h"

namespace microaot {

namespace {
// A kernel source whose layers do less than 1/kColdWorkDivisor of the work is built for size: even twice
// as slow, it would add no more than 0.1% or so to the inference.
constexpr int64_t kColdWorkDivisor = 1000;

bool is_c_source(const std::string& path) { return path.size() > 2 && path.compare(path.size() - 2, 2, ".c") == 0; }

// A source that says its work is per call ("microaot-work: per call": entry points, bounds tests, per-channel
// constants, never a loop over elements), whatever layers link it.
bool works_per_call(const std::string& path) {
  return runtime_file(path).find("microaot-work: per call") != std::string::npos;
}

// The executor's files run once per init or run (graph_run.c, the interpreter's loop over steps, does not);
// a kernel source when its work is per call, or when its layers do little of the work (never under the graph
// executor, whose blob may be any model's).
bool built_for_size(const std::string& path, int64_t work, int64_t total, bool graph) {
  if (path.rfind("executor/", 0) == 0) return path != "executor/graph_run.c";
  if (works_per_call(path)) return true;
  return !graph && work * kColdWorkDivisor < total;
}

// Runtime source -> the work of the layers that run it (its own kernel's, and the files it links).
std::map<std::string, int64_t> work_by_source(const CompiledModel& model) {
  std::map<std::string, int64_t> work;
  for (size_t step = 0; step < model.calls.size(); ++step) {
    if (model.calls[step].custom) continue;
    for (const std::string& path : runtime_files_reached({model.calls[step].source})) {
      work[path] += step_work(model, step);
    }
  }
  return work;
}
}  // namespace

int64_t step_work(const CompiledModel& model, size_t step) {
  int64_t elements = 0;
  for (int tensor : model.graph.ops[step].outputs) elements += model.graph.tensor(tensor).num_elements();
  return std::max(model.macs[step], elements);
}

SourceLevels source_levels(const CompiledModel& model) {
  SourceLevels levels;
  if (model.options.target.optimize_size) return levels;
  const std::map<std::string, int64_t> work = work_by_source(model);
  int64_t total = 0;
  for (size_t step = 0; step < model.calls.size(); ++step) total += step_work(model, step);
  levels.size.insert("platform.c");
  levels.size.insert(module_names(model).prefix + ".c");  // the step function: a call per operator
  for (const std::string& path : runtime_files_reached(needed_runtime_files(model))) {
    if (!is_c_source(path)) continue;
    const auto found = work.find(path);
    const int64_t runs = found == work.end() ? 0 : found->second;
    const bool size = built_for_size(path, runs, total, is_graph(model));
    (size ? levels.size : levels.speed).insert(output_path_of_runtime_file(path));
  }
  return levels;
}

}  // namespace microaot
