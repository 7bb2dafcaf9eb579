// `microaot run`: compile to a temporary folder, build with the host C compiler at -Wall -Wextra -Werror,
// run on raw input files, write raw outputs into a folder kept as safe as compile -o's (driver/output_dir.h).
// The build is exactly what a user's firmware would compile, unless --runtime-lib links prebuilt kernels
// instead of the folder's kernels/*.c (test suites).
// Cortex-M targets go to run_on_cortex_m (cross compiler and QEMU).
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "codegen/emit.h"
#include "driver/commands.h"
#include "driver/cortex_m.h"
#include "driver/custom_op_options.h"
#include "driver/host_harness.h"
#include "driver/kernel_sources.h"
#include "driver/output_dir.h"
#include "support/process.h"
#include "support/diagnostics.h"
#include "support/sha256.h"
#include "target/target.h"

namespace fs = std::filesystem;

namespace microaot {

namespace {
std::string env_or(const char* name, const std::string& fallback) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? value : fallback;
}

bool is_c_source(const std::string& path) { return path.size() > 2 && path.compare(path.size() - 2, 2, ".c") == 0; }
// The runtime's own sources in the folder; --runtime-lib supplies them already compiled.
bool is_runtime_source(const std::string& path) { return path.rfind("kernels/", 0) == 0 && is_c_source(path); }

std::vector<std::string> build_command(const RunCommandOptions& o, const std::string& dir, const FileSet& files) {
  std::vector<std::string> argv = {o.cc.empty() ? env_or("CC", "cc") : o.cc};
  for (const char* flag : {"-std=c99", "-pedantic", "-Wall", "-Wextra", "-Werror"}) argv.push_back(flag);
  argv.push_back(optimize_c_flag(o.base.compile.target));
  for (const std::string& f : split_flags(o.cflags.empty() ? env_or("MICROAOT_CFLAGS", "") : o.cflags)) {
    argv.push_back(f);
  }
  argv.push_back("-I" + dir);
  argv.push_back("-I" + dir + "/kernels");
  const bool prebuilt = !o.runtime_lib.empty();
  for (const auto& entry : files) {
    const std::string& path = entry.first;
    if (is_c_source(path) && !(prebuilt && is_runtime_source(path))) argv.push_back(dir + "/" + path);
  }
  if (prebuilt) argv.push_back(o.runtime_lib);
  argv.push_back("-o");
  argv.push_back(dir + "/model_run");
  argv.push_back("-lm");
  return argv;
}

// Returns the number of input sets: 1, or with --batch every consecutive group of model-input files.
size_t check_inputs(const RunCommandOptions& o, const CompiledModel& model) {
  const size_t per_set = model.graph.inputs.size();
  const bool fits = o.batch ? (o.inputs.size() % per_set == 0 && !o.inputs.empty()) : o.inputs.size() == per_set;
  if (!fits) {
    throw CompileError("the model has " + std::to_string(per_set) + " input(s), " +
                       std::to_string(o.inputs.size()) + " --input file(s) given" +
                       (o.batch ? " (with --batch: a multiple of the input count)" : ""));
  }
  for (size_t i = 0; i < o.inputs.size(); ++i) {
    std::error_code ec;
    const auto size = fs::file_size(o.inputs[i], ec);
    const int64_t expected = model.graph.tensor(model.graph.inputs[i % per_set]).byte_size();
    if (ec) throw CompileError("cannot read input " + std::to_string(i) + " '" + o.inputs[i] + "'");
    if (static_cast<int64_t>(size) != expected) {
      throw CompileError("input " + std::to_string(i) + " '" + o.inputs[i] + "' has " + std::to_string(size) +
                         " bytes, the model expects " + std::to_string(expected));
    }
  }
  return o.inputs.size() / per_set;
}

// The folders the harness writes into: the results folder, or one numbered sub-folder per input set.
void make_result_dirs(const std::string& dir, bool batch, size_t sets) {
  fs::create_directories(dir);
  for (size_t k = 0; batch && k < sets; ++k) fs::create_directories(dir + "/" + std::to_string(k));
}

bool is_output_file(const std::string& path) { return fs::path(path).filename().string().rfind("output", 0) == 0; }

// "output0.bin, microaot.json", at most five names.
std::string file_names(const FileSet& files) {
  std::string text;
  size_t shown = 0;
  for (const auto& entry : files) {
    if (shown++ < 5) text += (shown == 1 ? "" : ", ") + entry.first;
  }
  if (files.size() > 5) text += " (and " + std::to_string(files.size() - 5) + " more)";
  return text;
}

// Writes the outputs (and with --dump-tensors the intermediates) as compile -o writes its folder: whole or
// not at all, never over a folder microaot did not write, never into the model's folder or `.`, marked so
// that a rerun may replace it. Returns what the summary says was written.
std::string write_results(const RunCommandOptions& o, FileSet outputs, FileSet dumps) {
  std::vector<std::string> inputs = {o.base.model_path};
  inputs.insert(inputs.end(), o.inputs.begin(), o.inputs.end());
  const OutputPolicy policy{o.force, inputs};
  const std::vector<ModelStamp> stamps = {{o.base.compile.source_name, sha256_hex(read_binary_file(o.base.model_path))}};
  const bool one_folder = !dumps.empty() && fs::weakly_canonical(fs::absolute(o.dump_tensors_dir)) ==
                                                fs::weakly_canonical(fs::absolute(o.output_dir));
  if (one_folder) outputs.insert(dumps.begin(), dumps.end());
  if (!dumps.empty() && !one_folder) check_output_dir(o.dump_tensors_dir, policy);  // both folders or neither
  std::string written = o.output_dir + " (" + file_names(outputs) + ", " + kMarkerFile + ")";
  report_backup(o.output_dir, write_marked_dir(o.output_dir, outputs, stamps, policy));
  if (!dumps.empty() && !one_folder) {
    report_backup(o.dump_tensors_dir, write_marked_dir(o.dump_tensors_dir, dumps, stamps, policy));
    written += ", intermediates -> " + o.dump_tensors_dir + " (" + std::to_string(dumps.size()) + " files)";
  }
  return written;
}

// "microaot: ran m.tflite on host: 1 input set, 1 output -> out (output0.bin, microaot.json)"
void print_summary(const RunCommandOptions& o, const CompiledModel& model, size_t sets, const std::string& written) {
  const Target& target = model.options.target;
  const std::string where =
      target.is_generic() ? "host" : target.cpu + " (QEMU " + cortex_m_board(target.cpu).machine + ")";
  const size_t outputs = model.graph.outputs.size();
  std::printf("microaot: ran %s on %s: %zu input set%s, %zu output%s -> %s\n", o.base.model_path.c_str(),
              where.c_str(), sets, sets == 1 ? "" : "s", outputs, outputs == 1 ? "" : "s", written.c_str());
}

// Builds and runs on the host; returns every file the harness wrote (outputs and, with --dump-tensors, tN.bin).
FileSet run_on_host(const RunCommandOptions& o, const CompiledModel& model, size_t sets) {
  const bool dump = !o.dump_tensors_dir.empty();
  TempDir build;
  if (o.keep_build) build.keep();
  FileSet files = emit_library(model);
  replace_kernel_sources(files, o.kernel_sources);
  const FileSet custom = custom_source_files(model.options.custom_ops, o.base.custom_sources);
  files.insert(custom.begin(), custom.end());
  files["harness.c"] = host_harness_source(model);
  write_output_dir(build.path() + "/lib", files);
  const std::string lib = build.path() + "/lib";
  if (run_process(build_command(o, lib, files)) != 0) {
    throw CompileError("the host C compiler failed on the generated code (rerun with --keep-build to keep it)");
  }
  const std::string results = build.path() + "/results";
  make_result_dirs(results, o.batch, sets);
  const char* batch = !o.batch ? "0" : o.fresh_state ? "fresh" : "1";
  std::vector<std::string> argv = {lib + "/model_run", results, dump ? "1" : "0", batch};
  argv.insert(argv.end(), o.inputs.begin(), o.inputs.end());
  if (run_process(argv) != 0) throw CompileError("the compiled model failed to run");
  if (o.keep_build) std::fprintf(stderr, "microaot: build kept in %s\n", build.path().c_str());
  return read_folder(results);
}
}  // namespace

int run_command(RunCommandOptions& o) {
  resolve_compile_options(o.base);
  custom_source_files(o.base.compile.custom_ops, o.base.custom_sources);  // refuses missing code before any work
  if (!o.base.compile.target.is_generic()) {
    cortex_m_board(o.base.compile.target.cpu);  // refuses a cpu without an emulated board before any work
    if (!o.dump_tensors_dir.empty()) throw UsageError("--dump-tensors works on the host target only");
    if (!o.runtime_lib.empty()) throw UsageError("--runtime-lib works on the host target only");
    if (o.fresh_state) throw UsageError("--fresh-state works on the host target only");
  }
  if (!o.dump_tensors_dir.empty() && o.base.compile.ram_budget > 0) {
    // The dump build keeps every intermediate whole (no reuse, no bands): no budget below the sum of the
    // tensors holds, and its plan is not the one the budget chooses.
    throw UsageError("--dump-tensors builds with every intermediate kept (no buffer reuse, whole layers), not the "
                     "plan --ram-budget chooses: run the budgeted build without --dump-tensors to check its outputs, "
                     "and --dump-tensors without --ram-budget for the intermediates (the same values)");
  }
  if (!o.dump_tensors_dir.empty()) {
    o.base.compile.planner = "linear";  // no reuse: every intermediate survives to be dumped
    o.base.compile.io_in_arena = true;  // the dump table reads every tensor from the arena
    o.base.compile.pools.clear();
    o.base.compile.tiling = false;  // whole layers: no intermediate lives only in a line buffer
  }
  const CompiledModel model = compile_model(read_binary_file(o.base.model_path), o.base.compile);
  if (o.on_compiled) o.on_compiled(model);
  const size_t sets = check_inputs(o, model);
  const FileSet produced =
      model.options.target.is_generic() ? run_on_host(o, model, sets) : run_on_cortex_m(o, model, sets);
  FileSet outputs, dumps;
  for (const auto& [path, contents] : produced) (is_output_file(path) ? outputs : dumps)[path] = contents;
  const std::string written = write_results(o, outputs, dumps);
  if (!o.quiet) print_summary(o, model, sets, written);
  return 0;
}

}  // namespace microaot
