// The subcommands of the microaot command line. Each returns the process exit status and reports user
// errors (CompileError) on stderr as "microaot: error: ...".
#pragma once

#include <string>
#include <vector>

#include "compile/compile_model.h"

namespace CLI {
class App;
}

namespace microaot {

// Options shared by `compile` and `run`, registered on both subcommands.
struct CompileCommandOptions {
  std::string model_path;
  std::vector<std::string> more_model_paths;  // `compile a.tflite b.tflite`: one shared arena
  std::vector<std::string> pools;             // --pool NAME:SIZE[:ALIGN], parsed into compile.pools
  std::string io_in_arena = "on";
  bool planner_table = false;                 // --planner all: print every planner's result
  std::string target = "c";
  std::string runtime = "crt";
  std::string interface_api;
  bool unpacked_api = false;
  CompileOptions compile;
};
void add_compile_options(CLI::App& app, CompileCommandOptions& options);
// Validates target/runtime/interface flags and fills options.compile from them.
void resolve_compile_options(CompileCommandOptions& options);

struct RunCommandOptions {
  CompileCommandOptions base;
  std::vector<std::string> inputs;
  std::string output_dir;
  std::string dump_tensors_dir;  // every intermediate tensor as tT.bin (forces the no-reuse planner)
  std::string cc;
  std::string cflags;
  std::string runtime_lib;  // prebuilt runtime kernels linked instead of the folder's kernels/*.c (host only)
  bool keep_build = false;
  bool batch = false;  // several input sets; set k's outputs go to OUTPUT_DIR/k/
};

struct BenchCommandOptions {
  CompileCommandOptions base;
  std::vector<std::string> inputs;  // one per model input; none = all-zero inputs
  std::string cc;                   // default arm-none-eabi-gcc
  std::string cflags;
  bool json = false;
  bool keep_build = false;
};

int compile_command(CompileCommandOptions& options, const std::string& output_dir);
int run_command(RunCommandOptions& options);
// `run` for a Cortex-M target: cross-compiled, run under QEMU (cortex_m_run.cpp).
int run_on_cortex_m(const RunCommandOptions& options, const CompiledModel& model, size_t sets);
int bench_command(BenchCommandOptions& options);
int inspect_command(const std::string& model_path);

// Reads a whole file; throws CompileError naming the file when it cannot.
std::vector<uint8_t> read_binary_file(const std::string& path);

}  // namespace microaot
