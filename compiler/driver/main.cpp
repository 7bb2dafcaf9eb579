// microaot: an ahead-of-time compiler from TensorFlow Lite models to dependency-free C99.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <exception>

#include "driver/commands.h"
#include "support/diagnostics.h"

int main(int argc, char** argv) {
  using namespace microaot;
  CLI::App app{"microaot: compiles a .tflite model into a self-contained C99 library with a static memory plan"};
  app.require_subcommand(1);

  CompileCommandOptions compile_options;
  std::string output_dir;
  CLI::App* compile = app.add_subcommand("compile", "write the C library for a model");
  add_compile_options(*compile, compile_options);
  compile->add_option("more_models", compile_options.more_model_paths,
                      "further models: one folder, one shared arena, for models that never run at once");
  compile->add_option("-o,--output-dir", output_dir, "output folder (replaced as a whole)")->required();

  RunCommandOptions run_options;
  CLI::App* run = app.add_subcommand("run", "compile, build for the host (or a Cortex-M board under QEMU), run on raw input files");
  add_compile_options(*run, run_options.base);
  run->add_option("--input", run_options.inputs, "raw input file, one per model input, in order")->required();
  run->add_option("--output-dir", run_options.output_dir, "where output0.bin, ... are written")->required();
  run->add_option("--dump-tensors", run_options.dump_tensors_dir, "also write every intermediate tensor as tT.bin");
  run->add_option("--cc", run_options.cc, "C compiler (default $CC or cc; arm-none-eabi-gcc for Cortex-M)");
  run->add_option("--cflags", run_options.cflags, "extra C flags (default on the host: $MICROAOT_CFLAGS)");
  run->add_option("--runtime-lib", run_options.runtime_lib,
                  "link this prebuilt runtime (libmicroaot_runtime.a) instead of compiling kernels/*.c (host only)")
      ->check(CLI::ExistingFile);
  run->add_flag("--batch", run_options.batch, "several input sets in a row; set k writes to OUTPUT_DIR/k/");
  run->add_flag("--keep-build", run_options.keep_build, "keep the temporary build folder");

  BenchCommandOptions bench_options;
  bench_options.base.target = "cortex-m4";
  CLI::App* bench = app.add_subcommand("bench", "run on an emulated Cortex-M; report instructions, flash, RAM, stack");
  add_compile_options(*bench, bench_options.base);
  bench->add_option("--input", bench_options.inputs, "raw input file, one per model input (default: zeros)");
  bench->add_flag("--json", bench_options.json, "print one JSON object instead of the table");
  bench->add_option("--cc", bench_options.cc, "the Arm C compiler (default arm-none-eabi-gcc)");
  bench->add_option("--cflags", bench_options.cflags, "extra C flags for the Arm build");
  bench->add_flag("--keep-build", bench_options.keep_build, "keep the temporary build folder");

  std::string inspect_path;
  CLI::App* inspect = app.add_subcommand("inspect", "print ops, tensors, shapes, quantization, MACs");
  inspect->add_option("model", inspect_path, "the .tflite model")->required();

  CLI11_PARSE(app, argc, argv);
  try {
    if (compile->parsed()) return compile_command(compile_options, output_dir);
    if (run->parsed()) return run_command(run_options);
    if (bench->parsed()) return bench_command(bench_options);
    if (inspect->parsed()) return inspect_command(inspect_path);
  } catch (const CompileError& e) {
    std::fprintf(stderr, "microaot: error: %s\n", e.what());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "microaot: error: %s\n", e.what());
    return 1;
  }
  return 0;
}
