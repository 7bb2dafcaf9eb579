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

// Options shared by `compile`, `run`, `bench` and `validate`, registered on each subcommand.
struct CompileCommandOptions {
  std::string model_path;
  std::vector<std::string> more_model_paths;  // `compile a.tflite b.tflite`: one shared arena
  std::vector<std::string> pools;             // --pool NAME:SIZE[:ALIGN], parsed into compile.pools
  std::vector<std::string> input_shapes;      // --input-shape NAME=1x3x96x96 (ONNX), into compile.input_shapes
  std::string io_in_arena = "on";
  bool planner_table = false;                 // --planner all: print every planner's result
  std::string target;                         // empty: not given (generic C; bench: cortex-m4)
  std::string target_c_mcpu;                  // tvmc's --target-c-mcpu=X, the same as " -mcpu=X"
  std::string optimize = "speed";             // --optimize speed|balanced|size, into compile.target
  std::string alignment;                      // byte sizes as typed ("16", "8K"), parsed into compile
  std::string ram_budget;
  std::string runtime = "crt";
  std::string interface_api;
  bool unpacked_api = false;
  std::vector<std::string> custom_ops;        // --custom-op values (compile only), parsed into compile
  CompileOptions compile;
};
void add_compile_options(CLI::App& app, CompileCommandOptions& options, const std::string& target_help);
// --custom-op, on `compile` only: the other commands build the library themselves, without the user's code.
void add_custom_op_option(CLI::App& app, CompileCommandOptions& options);
// Validates the options (UsageError) and fills options.compile from them; may be called again.
void resolve_compile_options(CompileCommandOptions& options);

struct RunCommandOptions {
  CompileCommandOptions base;
  std::vector<std::string> inputs;
  std::string output_dir;
  std::string dump_tensors_dir;  // every intermediate tensor as tT.bin (forces the no-reuse planner)
  std::string cc;
  std::string cflags;
  std::string runtime_lib;  // prebuilt runtime kernels linked instead of the folder's kernels/*.c (host only)
  std::vector<std::string> kernel_sources;  // PATH=FILE: a kernel file replaced (driver/kernel_sources.h)
  bool keep_build = false;
  bool batch = false;  // several input sets through one context; set k's outputs go to OUTPUT_DIR/k/
  bool fresh_state = false;  // --batch: each set from the initial state (reset) instead of the previous set's
  bool quiet = false;  // no summary line (runs made by bench and validate)
};

struct BenchCommandOptions {
  CompileCommandOptions base;
  std::vector<std::string> inputs;  // one per model input; none = all-zero inputs
  std::string cc;                   // default arm-none-eabi-gcc
  std::string cflags;
  bool json = false;
  bool keep_build = false;
};

// Where and how `compile` writes (-o/--output/--output-dir, --output-format, --force).
struct CompileOutputOptions {
  std::string path;
  std::string format = "dir";  // dir: a library folder; mlf: tvmc's Model Library Format archive
  bool force = false;          // move a folder microaot did not write aside instead of refusing
  bool blob_only = false;      // --executor graph: write only the model blob, as the file `path`
};

int compile_command(CompileCommandOptions& options, const CompileOutputOptions& output);
int run_command(RunCommandOptions& options);
// `run` for a Cortex-M target: cross-compiled, run under QEMU (cortex_m_run.cpp).
int run_on_cortex_m(const RunCommandOptions& options, const CompiledModel& model, size_t sets);
int bench_command(BenchCommandOptions& options);

struct ValidateCommandOptions {
  std::string model_path;
  std::vector<std::string> inputs;  // one set: one file per model input
  std::string reference_dir;        // tN.bin per tensor, N = the tensor's index in the .tflite
  std::string cc;
  std::string cflags;
  bool keep_build = false;
};
// Exit status 0 when every tensor with a reference matches (integers exactly, float32 within the golden
// tolerance), 1 otherwise; prints one row per tensor and names the first differing layer.
int validate_command(const ValidateCommandOptions& options);
int inspect_command(const std::string& model_path);
// `inspect --supported`: the operator x type table (docs/operators.md).
int supported_command();

// Reads a whole file; throws CompileError naming the file when it cannot.
std::vector<uint8_t> read_binary_file(const std::string& path);

}  // namespace microaot
