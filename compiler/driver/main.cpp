// microaot: an ahead-of-time compiler from TensorFlow Lite models to dependency-free C99.
// Exit status: 0 success; 1 the model, a file, the compile, the build or the run failed, or outputs differ;
// 2 the command line is wrong (unknown option, missing argument, bad value).
#include <CLI/CLI.hpp>

#include <cstdio>
#include <exception>

#include "driver/commands.h"
#include "driver/kernel_listing.h"
#include "support/diagnostics.h"
#include "support/version.h"
#include "target/target.h"

namespace {
constexpr int kExitFailure = 1;
constexpr int kExitUsage = 2;

std::string compile_target_help() {
  return "the cpu the C is for: c or host (generic C, the default), or " + microaot::known_cpus() +
         "; tvmc spellings \"c -mcpu=cortex-m4\" and \"cmsis-nn, c -mcpu=cortex-m4\" (the fastest kernels for "
         "the cpu); -mattr=+nodsp, +nomve or +nofp take an extension's kernels away";
}
constexpr const char* kRunTargetHelp =
    "where to run: host (the default; the host C compiler), or an emulated board under QEMU: cortex-m3, "
    "cortex-m4, cortex-m7, cortex-m33, cortex-m55 (also \"c -mcpu=cortex-m4\")";
constexpr const char* kBenchTargetHelp =
    "the emulated board (QEMU): cortex-m3, cortex-m4 (the default), cortex-m7, cortex-m33, cortex-m55 "
    "(also \"c -mcpu=cortex-m4\")";

constexpr const char* kValidateTargetHelp =
    "host (the default): validate builds and runs on the host; check a board's outputs with run --target";

int report(const std::exception& e, int status) {
  std::fprintf(stderr, "microaot: error: %s\n", e.what());
  return status;
}
}  // namespace

int main(int argc, char** argv) {
  using namespace microaot;
  CLI::App app{"microaot " MICROAOT_VERSION
               ": compiles a .tflite model into a self-contained C99 library with a static memory plan"};
  app.footer("Exit status: 0 success; 1 the model, a file, the build or the run failed, or outputs differ; "
             "2 usage error.");
  app.set_version_flag("--version", "microaot " MICROAOT_VERSION);
  app.require_subcommand(1);

  CompileCommandOptions compile_options;
  CompileOutputOptions output;
  CLI::App* compile = app.add_subcommand("compile", "write the C library for a model");
  add_compile_options(*compile, compile_options, compile_target_help());
  add_custom_op_option(*compile, compile_options);
  compile->add_option("more_models", compile_options.more_model_paths,
                      "further models: one folder, one shared arena, for models that never run at once");
  compile->add_option("-o,--output-dir,--output", output.path,
                      "output folder: absent, empty or written by microaot (see --force); with "
                      "--output-format=mlf the archive file")
      ->required();
  compile->add_option("-f,--output-format", output.format, "dir (default): a library folder; mlf: tvmc's Model "
                                                        "Library Format archive (.tar)");
  compile->add_flag("--blob-only", output.blob_only,
                    "with --executor graph: write only the model blob, as the file -o names (init_blob loads it)");
  compile->add_option("--for", output.for_firmware,
                      "with --blob-only: FIRMWARE_DIR, the graph firmware's folder; the blob takes its --target and "
                      "--optimize, and is refused when it needs a kernel the firmware does not link")
      ->needs("--blob-only");
  compile->add_flag("--force", output.force,
                    "replace an output microaot did not write, after moving it aside to NAME.microaot-backup-N");
  QuantizeCommandOptions compile_quantize;
  bool quantize_first = false;
  add_compile_quantize_options(*compile, compile_quantize, quantize_first, compile_options.calibration);

  RunCommandOptions run_options;
  CLI::App* run = app.add_subcommand("run", "compile, build for the host (or a Cortex-M board under QEMU), run on raw input files");
  add_compile_options(*run, run_options.base, kRunTargetHelp);
  add_custom_op_options(*run, run_options.base.custom_ops, run_options.base.custom_sources);
  run->add_option("--input", run_options.inputs, "raw input file, one per model input, in order")->required();
  run->add_option("--output-dir", run_options.output_dir,
                  "where output0.bin, ... are written: a folder as for compile -o (absent, empty or written by "
                  "microaot; see --force)")
      ->required();
  run->add_flag("--force", run_options.force,
                "replace an output folder microaot did not write, after moving it aside to NAME.microaot-backup-N");
  run->add_option("--dump-tensors", run_options.dump_tensors_dir,
                  "also write every intermediate tensor as tN.bin (host only)");
  run->add_option("--cc", run_options.cc, "C compiler (default $CC or cc; arm-none-eabi-gcc for Cortex-M)");
  run->add_option("--cflags", run_options.cflags, "extra C flags (default on the host: $MICROAOT_CFLAGS)");
  run->add_option("--runtime-lib", run_options.runtime_lib,
                  "link this prebuilt runtime (libmicroaot_runtime.a) instead of compiling kernels/*.c (host only)")
      ->check(CLI::ExistingFile);
  run->add_option("--kernel-source", run_options.kernel_sources,
                  "PATH=FILE: build with FILE as the folder's kernel file PATH (e.g. kernels/add_s8.c); for "
                  "testing a kernel implementation against the portable one (tools/differential.cpp)");
  run->add_flag("--batch", run_options.batch,
                "several input sets in a row through one context (a stateful model's state carries from set to "
                "set); set k writes to OUTPUT_DIR/k/");
  run->add_flag("--fresh-state", run_options.fresh_state,
                "with --batch: each set starts from the initial state (reset), as one fresh run (host only)")
      ->needs("--batch");
  run->add_flag("--keep-build", run_options.keep_build, "keep the temporary build folder");

  BenchCommandOptions bench_options;
  CLI::App* bench = app.add_subcommand("bench", "run on an emulated Cortex-M; report instructions, flash, RAM, stack");
  add_compile_options(*bench, bench_options.base, kBenchTargetHelp);
  add_custom_op_options(*bench, bench_options.base.custom_ops, bench_options.base.custom_sources);
  bench->add_option("--input", bench_options.inputs, "raw input file, one per model input (default: zeros)");
  bench->add_flag("--json", bench_options.json, "print one JSON object instead of the table");
  bench->add_option("--cc", bench_options.cc, "the Arm C compiler (default arm-none-eabi-gcc)");
  bench->add_option("--cflags", bench_options.cflags, "extra C flags for the Arm build");
  bench->add_flag("--keep-build", bench_options.keep_build, "keep the temporary build folder");
  bench->add_flag("--cycles", bench_options.cycles,
                  "estimate cycles (cortex-m4, cortex-m7; zero-wait-state memory) from the executed instructions");
  bench->add_option("--clock-mhz", bench_options.clock_mhz, "with the estimated cycles, the time at this clock");

  std::string inspect_path;
  bool inspect_supported = false;
  CLI::App* inspect = app.add_subcommand("inspect", "print ops, tensors, shapes, quantization, MACs (any readable model), or a graph model blob's kernels, arena and I/O");
  CLI::Option* inspect_model = inspect->add_option("model", inspect_path, "the .tflite model, or a model blob (compile --blob-only)");
  inspect->add_flag("--supported", inspect_supported, "print the operator x type table microaot compiles (Markdown)")
      ->excludes(inspect_model);
  bool inspect_kernels = false;
  inspect->add_flag("--kernels", inspect_kernels, "list every runtime kernel: id, name, stem, type, ISA (--link-kernels)")
      ->excludes(inspect_model);
  std::string inspect_firmware;
  inspect->add_option("--firmware", inspect_firmware,
                      "with a model blob: check it against this graph firmware folder (the loader's checks)")
      ->needs(inspect_model);
  inspect->require_option(1, 2);

  ValidateCommandOptions validate_options;
  CLI::App* validate = app.add_subcommand(
      "validate", "run on the host and compare with per-layer goldens DIR/tN.bin: the outputs of the build the "
                  "flags give (as it ships), every intermediate of a whole-layer build that keeps them");
  add_compile_options(*validate, validate_options.base, kValidateTargetHelp);
  validate->add_option("--input", validate_options.inputs, "raw input file, one per model input, in order")->required();
  validate->add_option("--reference", validate_options.reference_dir,
                       "folder of tN.bin files, N = the tensor's index in the .tflite")
      ->required();
  add_custom_op_options(*validate, validate_options.base.custom_ops, validate_options.base.custom_sources);
  validate->add_option("--cc", validate_options.cc, "C compiler (default $CC or cc)");
  validate->add_option("--cflags", validate_options.cflags, "extra C flags (default: $MICROAOT_CFLAGS)");
  validate->add_flag("--keep-build", validate_options.keep_build, "keep the temporary build folder");

  QuantizeCommandOptions quantize_options;
  CLI::App* quantize = app.add_subcommand("quantize", "turn a float model into an int8 .tflite from calibration "
                                                      "samples; writes OUT.quant.txt/.json, the per-layer error");
  add_quantize_options(*quantize, quantize_options);

  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return app.exit(e);  // --help, --version
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return kExitUsage;
  }
  try {
    if (compile->parsed() && quantize_first) return compile_quantized_command(compile_options, output, compile_quantize);
    if (compile->parsed()) return compile_command(compile_options, output);
    if (run->parsed()) return run_command(run_options);
    if (bench->parsed()) return bench_command(bench_options);
    if (inspect->parsed() && inspect_kernels) return std::fputs(kernel_listing().c_str(), stdout) < 0;
    if (inspect->parsed()) return inspect_supported ? supported_command() : inspect_command(inspect_path, inspect_firmware);
    if (validate->parsed()) return validate_command(validate_options);
    if (quantize->parsed()) return quantize_command(quantize_options);
  } catch (const UsageError& e) {
    return report(e, kExitUsage);
  } catch (const std::exception& e) {
    return report(e, kExitFailure);
  }
  return 0;
}
