#include <CLI/CLI.hpp>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "codegen/emit.h"
#include "driver/commands.h"
#include "driver/output_dir.h"
#include "support/diagnostics.h"

namespace microaot {

namespace {
constexpr const char* kKnownCpus[] = {"cortex-m0", "cortex-m0plus", "cortex-m3", "cortex-m4",
                                      "cortex-m7", "cortex-m33", "cortex-m55"};

// "c -mcpu=cortex-m4" (tvmc style), "c", "host" or a bare cpu name such as "cortex-m4".
std::string parse_target_cpu(const std::string& target) {
  std::string cpu;
  std::istringstream in(target);
  std::string word;
  in >> word;
  if (word == "host" || word == "c" || word == "llvm") {
    for (std::string opt; in >> opt;) {
      if (opt.rfind("-mcpu=", 0) == 0) {
        cpu = opt.substr(6);
      } else if (opt.rfind("-", 0) != 0 || opt.find('=') == std::string::npos) {
        throw CompileError("unknown target option '" + opt + "' in --target \"" + target + "\"");
      }
    }
  } else {
    cpu = word;
  }
  if (cpu.empty()) return cpu;
  for (const char* known : kKnownCpus) {
    if (cpu == known) return cpu;
  }
  throw CompileError("unknown -mcpu '" + cpu + "' (known: cortex-m0, cortex-m0plus, cortex-m3, cortex-m4, "
                     "cortex-m7, cortex-m33, cortex-m55)");
}
}  // namespace

void add_compile_options(CLI::App& app, CompileCommandOptions& o) {
  app.add_option("model", o.model_path, "the .tflite model")->required();
  app.add_option("--module-name", o.compile.module_name, "prefix of generated symbols and files (default: model)");
  app.add_option("--target", o.target, "\"c -mcpu=cortex-m4\" (tvmc style), or host");
  app.add_option("--executor", o.compile.executor, "aot (the fixed call sequence)");
  app.add_option("--runtime", o.runtime, "crt (accepted for tvmc compatibility)");
  app.add_option("--interface-api,--executor-aot-interface-api", o.interface_api,
                 "c: also emit tvmgen_<name>_run(inputs*, outputs*)");
  app.add_flag("--unpacked-api,--executor-aot-unpacked-api", o.unpacked_api,
               "accepted for tvmc compatibility (the API is always unpacked)");
  app.add_option("--planner", o.compile.planner, "memory planner: greedy_by_size (default) or linear");
  app.add_option("--alignment", o.compile.alignment, "byte alignment of buffers and arena (default 16)");
  app.add_option("--dump-ir-after", o.compile.dump_ir_after, "print the IR after this pass (or 'all') to stderr");
}

void resolve_compile_options(CompileCommandOptions& o) {
  o.compile.mcpu = parse_target_cpu(o.target);
  if (o.runtime != "crt") throw CompileError("--runtime '" + o.runtime + "' is not supported (only crt)");
  if (!o.interface_api.empty() && o.interface_api != "c") {
    throw CompileError("--interface-api '" + o.interface_api + "' is not supported (only c)");
  }
  o.compile.interface_api_c = o.interface_api == "c";
  std::string name = o.compile.module_name;
  for (char c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') {
      throw CompileError("--module-name '" + name + "' must use only letters, digits and '_'");
    }
  }
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) {
    throw CompileError("--module-name must start with a letter or '_'");
  }
  o.compile.source_name = std::filesystem::path(o.model_path).filename().string();
}

std::vector<uint8_t> read_binary_file(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) throw CompileError("cannot read '" + path + "': not a file");
  std::ifstream in(path, std::ios::binary);
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw CompileError("cannot read '" + path + "'");
  return bytes;
}

int compile_command(CompileCommandOptions& options, const std::string& output_dir) {
  resolve_compile_options(options);
  const auto start = std::chrono::steady_clock::now();
  const CompiledModel model = compile_model(read_binary_file(options.model_path), options.compile);
  write_output_dir(output_dir, emit_library(model));
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
  std::printf("microaot: %s -> %s: %zu ops, arena %lld bytes, weights %lld bytes (%lld ms)\n",
              options.model_path.c_str(), output_dir.c_str(), model.calls.size(),
              static_cast<long long>(model.plan.arena_size), static_cast<long long>(weights_bytes(model)),
              static_cast<long long>(ms.count()));
  return 0;
}

}  // namespace microaot
