// The subcommands of the microaot command line. Each returns the process exit status and reports user
// errors (CompileError) on stderr as "microaot: error: ...".
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "codegen/emit.h"
#include "compile/compile_model.h"
#include "driver/tvmc_options.h"

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
  std::string io_layout = "model";            // --io-layout model|nhwc (ONNX), into compile.nhwc_io
  std::string io_in_arena = "on";
  bool planner_table = false;                 // --planner all: print every planner's result
  std::string target;                         // empty: not given (generic C; bench: cortex-m4)
  std::string target_c_mcpu;                  // tvmc's --target-c-mcpu=X, the same as " -mcpu=X"
  std::string optimize = "speed";             // --optimize speed|balanced|size, into compile.target
  std::string compress_weights;               // --compress-weights off|lossless|K; empty: the setting's default
  std::string alignment;                      // byte sizes as typed ("16", "8K"), parsed into compile
  std::string ram_budget;
  std::string flash_budget;
  std::string tiling = "auto";                // --tiling auto|off, into compile.tiling
  std::string runtime = "crt";
  std::string interface_api;
  bool unpacked_api = false;
  std::vector<std::string> custom_ops;        // --custom-op values, parsed into compile
  std::vector<std::string> custom_sources;    // --custom-source FILE.c: run and bench build them (custom_op_options.h)
  TvmcOptions tvmc;                           // tvmc's spellings, folded into the fields above
  std::vector<std::string> calibration;       // compile --calibration: for --quantize, or --cluster-weights' report
  CompileOptions compile;
};
void add_compile_options(CLI::App& app, CompileCommandOptions& options, const std::string& target_help);
// --custom-op, on `compile`: the user builds the function's code.
void add_custom_op_option(CLI::App& app, CompileCommandOptions& options);
void add_custom_op_option(CLI::App& app, std::vector<std::string>& custom_ops);
// --custom-op and --custom-source, on `run`, `bench` and `validate`, which build the user's code with the library.
void add_custom_op_options(CLI::App& app, std::vector<std::string>& custom_ops, std::vector<std::string>& sources);
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
  bool force = false;  // as compile's --force: a folder microaot did not write is moved aside, not refused
  std::function<void(const CompiledModel&)> on_compiled;  // validate: told which plan the build ran
};

struct BenchCommandOptions {
  CompileCommandOptions base;
  std::vector<std::string> inputs;  // one per model input; none = all-zero inputs
  std::string cc;                   // default arm-none-eabi-gcc
  std::string cflags;
  bool json = false;
  bool keep_build = false;
  bool cycles = false;    // --cycles: estimated cycles from QEMU's execution log (driver/bench_cycles.h)
  double clock_mhz = 0;   // --clock-mhz: and the time at that clock (implies --cycles)
};

// Where and how `compile` writes (-o/--output/--output-dir, --output-format, --force).
struct CompileOutputOptions {
  std::string path;
  std::string format = "dir";  // dir: a library folder; mlf: tvmc's Model Library Format archive
  bool force = false;          // move a folder microaot did not write aside instead of refusing
  bool blob_only = false;      // --executor graph: write only the model blob, as the file `path`
  std::string for_firmware;    // --for DIR: with --blob-only, a blob the graph firmware folder DIR runs
};

int compile_command(CompileCommandOptions& options, const CompileOutputOptions& output);
// `compile` of one model given as bytes (compile --quantize); `extra` files go into the folder too.
int compile_model_bytes(CompileCommandOptions& options, const CompileOutputOptions& output,
                        const std::vector<uint8_t>& bytes, const FileSet& extra);
int run_command(RunCommandOptions& options);
// `run` for a Cortex-M target: cross-compiled, run under QEMU (cortex_m_run.cpp). Returns the output files
// (outputN.bin, or k/outputN.bin with --batch); run_command writes them as --output-dir.
FileSet run_on_cortex_m(const RunCommandOptions& options, const CompiledModel& model, size_t sets);
int bench_command(BenchCommandOptions& options);

struct ValidateCommandOptions {
  CompileCommandOptions base;       // as run's: the outputs come from the build these flags give
  std::vector<std::string> inputs;  // one set: one file per model input
  std::string reference_dir;        // tN.bin per tensor, N = the tensor's index in the .tflite
  std::string cc;
  std::string cflags;
  bool keep_build = false;
};
// Exit status 0 when every tensor with a reference matches (integers exactly, float32 within the golden
// tolerance), 1 otherwise; prints one row per tensor and names the first differing layer. The model's outputs
// are compared from the build the compile flags give (as it ships: --ram-budget, --tiling, ...), the
// intermediates from the whole-layer build that keeps them all (run --dump-tensors).
int validate_command(ValidateCommandOptions& options);

// `microaot quantize` (driver/quantize_command.cpp, quantize/).
struct QuantizeCommandOptions {
  std::string model_path;
  std::vector<std::string> calibration;  // files or folders (quantize/calibration_data.h)
  std::string output;                    // the int8 .tflite; OUT.quant.txt and OUT.quant.json beside it
  std::string weights = "per-channel";
  std::string activations = "int8";  // int8, int16 or mixed (with target_sqnr_db)
  double target_sqnr_db = 0.0;       // --target-sqnr: mixed keeps the layers below it int16
  bool strict = false;               // refuse operators without an int8 form instead of keeping them float
  std::string bias_correction = "on";  // on|off (on: measured better, docs/quantize.md)
  std::string equalize = "off";         // on|off: cross-layer equalisation of depthwise -> conv pairs
  std::string input_type;   // empty: the activations' type
  std::string output_type;  // empty: the activations' type
  std::string method = "mse";  // best or tied best on the shared models (docs/quantize.md)
  std::string cc;
  std::string cflags;
  bool force = false;
};
void add_quantize_options(CLI::App& app, QuantizeCommandOptions& options);
int quantize_command(const QuantizeCommandOptions& options);
// The quantized model and its report, in memory (`quantize` writes them, `compile --quantize` compiles them).
struct QuantizedModel {
  std::vector<uint8_t> tflite;
  std::string report_text, report_json;
  std::string summary;  // the lines printed: samples, settings, each output's SQNR
};
QuantizedModel quantize_model(const QuantizeCommandOptions& options);
// `compile --quantize --calibration ...` (the quantize options without -o, --cc, --force).
// --calibration goes to `calibration`: --quantize reads it, and --cluster-weights measures its report with it.
void add_compile_quantize_options(CLI::App& app, QuantizeCommandOptions& options, bool& enabled,
                                  std::vector<std::string>& calibration);
int compile_quantized_command(CompileCommandOptions& options, const CompileOutputOptions& output,
                              QuantizeCommandOptions quantize);
// A .tflite model, or a graph blob (checked against the firmware folder `firmware_dir` when not empty).
int inspect_command(const std::string& model_path, const std::string& firmware_dir = "");
// `inspect --supported`: the operator x type table (docs/operators.md).
int supported_command();

// Reads a whole file; throws CompileError naming the file when it cannot.
std::vector<uint8_t> read_binary_file(const std::string& path);

}  // namespace microaot
