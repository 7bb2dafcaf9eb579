// tvmc's spellings of compile options that have no microaot name of their own: each is mapped onto the
// microaot option with the same meaning (--pool, --planner, --alignment, --io-in-arena, the target), or
// refused by name with what to do when it means nothing here. docs/tvmc.md lists them.
#pragma once

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace microaot {

struct CompileCommandOptions;

struct TvmcOptions {
  std::string cmsis_nn_mcpu;                  // --target-cmsis-nn-mcpu=CPU
  std::vector<std::string> pass_configs;      // --pass-config NAME=VALUE
  std::string workspace_byte_alignment;       // --executor-aot-workspace-byte-alignment=N
  std::string model_format;                   // --model-format tflite
  std::string workspace_pools;                // --workspace-pools=A,B: the first is the arena
  std::vector<std::string> pool_targets;      // --workspace-pools-targets=POOL:TARGET
  std::vector<std::string> pool_size_hints;   // --workspace-pools-size-hint-bytes=POOL:BYTES
  std::vector<std::string> refused;           // tvmc options given that mean nothing here
  bool applied = false;                       // resolve_compile_options may run twice (bench)
};

void add_tvmc_options(CLI::App& app, TvmcOptions& options);
// Folds the tvmc options into the microaot ones of `options` (UsageError when one means nothing here or
// contradicts a microaot option given too).
void apply_tvmc_options(CompileCommandOptions& options);

// The model formats this build reads, and a UsageError for any other --model-format.
void check_model_format(const std::string& format);

}  // namespace microaot
