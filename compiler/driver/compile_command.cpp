#include <CLI/CLI.hpp>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <climits>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "codegen/emit.h"
#include "driver/commands.h"
#include "driver/output_dir.h"
#include "support/diagnostics.h"
#include "target/target.h"

namespace microaot {

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
  app.add_option("--planner", o.compile.planner,
                 "memory planner: best (default: the smallest of all), greedy_by_size, greedy_by_conflicts, "
                 "hill_climb, branch_and_bound, linear; all = best plus a comparison table");
  app.add_option("--alignment", o.compile.alignment, "byte alignment of buffers and arena (default 16)");
  app.add_option("--ram-budget", o.compile.ram_budget, "fail unless the planned RAM fits in BYTES");
  app.add_option("--pool", o.pools, "NAME:SIZE[:ALIGN] a further memory for buffers that do not fit (repeatable)");
  app.add_option("--io-in-arena", o.io_in_arena, "on (default): inputs/outputs inside the arena; off: own buffers");
  app.add_option("--dump-ir-after", o.compile.dump_ir_after, "print the IR after this pass (or 'all') to stderr");
}

// "65536", "64k" or "64K" (KiB) -> bytes.
int64_t parse_bytes(const std::string& text, const std::string& what) {
  size_t used = 0;
  long long value = -1;
  try {
    value = std::stoll(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  const std::string rest = text.substr(used);
  if (used == 0 || value < 0 || (rest != "" && rest != "k" && rest != "K")) {
    throw CompileError(what + ": '" + text + "' is not a byte count (e.g. 65536 or 64k)");
  }
  if (!rest.empty() && value > (INT64_MAX >> 10)) throw CompileError(what + ": '" + text + "' is too large");
  return rest.empty() ? value : value * 1024;
}

// "NAME:SIZE[:ALIGN]"
PoolOption parse_pool(const std::string& text) {
  const std::string what = "--pool " + text;
  const size_t first = text.find(':');
  if (first == std::string::npos) throw CompileError(what + ": expected NAME:SIZE[:ALIGN]");
  const size_t second = text.find(':', first + 1);
  PoolOption pool;
  pool.name = text.substr(0, first);
  if (pool.name.empty() || std::isdigit(static_cast<unsigned char>(pool.name[0])) ||
      !std::all_of(pool.name.begin(), pool.name.end(),
                   [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; })) {
    throw CompileError(what + ": the pool name must be a C identifier");
  }
  pool.size = parse_bytes(text.substr(first + 1, second == std::string::npos ? std::string::npos : second - first - 1),
                          what);
  if (second != std::string::npos) pool.alignment = parse_bytes(text.substr(second + 1), what);
  return pool;
}

void resolve_compile_options(CompileCommandOptions& o) {
  for (const std::string& text : o.pools) o.compile.pools.push_back(parse_pool(text));
  if (o.io_in_arena != "on" && o.io_in_arena != "off" && o.io_in_arena != "true" && o.io_in_arena != "false") {
    throw CompileError("--io-in-arena takes on or off, got '" + o.io_in_arena + "'");
  }
  o.compile.io_in_arena = o.io_in_arena == "on" || o.io_in_arena == "true";
  if (o.compile.planner == "all") {
    o.compile.planner = "best";
    o.planner_table = true;
  }
  o.compile.target = parse_target(o.target);
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

namespace {
void print_planner_table(const CompiledModel& model) {
  std::printf("%-20s %12s\n", "planner", "arena bytes");
  for (const MemoryPlan& plan : model.planner_results) {
    std::printf("%-20s %12lld%s%s\n", plan.planner.c_str(), static_cast<long long>(plan.arena_size),
                plan.proven_optimal ? "  proven optimal" : "", plan.planner == model.plan.planner ? "  <- chosen" : "");
  }
}

std::vector<std::string> split_names(const std::string& text) {
  std::vector<std::string> names;
  std::string current;
  for (char c : text + ",") {
    if (c == ',') {
      names.push_back(current);
      current.clear();
    } else {
      current += c;
    }
  }
  return names;
}

// Module names for `compile a.tflite b.tflite`: --module-name a,b, else the file stems (made unique).
std::vector<std::string> module_names_for(const CompileCommandOptions& options, const std::vector<std::string>& paths) {
  if (options.compile.module_name != "model") {
    std::vector<std::string> names = split_names(options.compile.module_name);
    if (names.size() != paths.size()) {
      throw CompileError("--module-name lists " + std::to_string(names.size()) + " names for " +
                         std::to_string(paths.size()) + " models");
    }
    return names;
  }
  std::vector<std::string> names;
  for (const std::string& path : paths) {
    std::string stem = std::filesystem::path(path).stem().string();
    for (char& c : stem) {
      if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    }
    if (stem.empty() || std::isdigit(static_cast<unsigned char>(stem[0]))) stem = "model_" + stem;
    names.push_back(stem);
  }
  for (size_t i = 0; i < names.size(); ++i) {
    if (std::count(names.begin(), names.end(), names[i]) > 1) names[i] += "_" + std::to_string(i + 1);
  }
  return names;
}

int compile_many(CompileCommandOptions& options, const std::string& output_dir) {
  std::vector<std::string> paths = {options.model_path};
  paths.insert(paths.end(), options.more_model_paths.begin(), options.more_model_paths.end());
  const std::vector<std::string> names = module_names_for(options, paths);
  std::vector<CompiledModel> models;
  for (size_t i = 0; i < paths.size(); ++i) {
    CompileCommandOptions one = options;
    one.model_path = paths[i];
    one.compile.module_name = names[i];
    resolve_compile_options(one);
    one.compile.shared_arena = kSharedArenaSymbol;
    if (std::count(names.begin(), names.end(), names[i]) > 1) {
      throw CompileError("--module-name '" + names[i] + "' is given twice");
    }
    models.push_back(compile_model(read_binary_file(paths[i]), one.compile));
  }
  write_output_dir(output_dir, emit_shared_library(models));
  int64_t arena = 0;
  for (const CompiledModel& model : models) {
    std::printf("microaot: %s -> %s/%s: %zu ops, arena %lld bytes\n", model.options.source_name.c_str(),
                output_dir.c_str(), module_names(model).prefix.c_str(), model.calls.size(),
                static_cast<long long>(model.plan.arena_size));
    arena = std::max(arena, model.plan.arena_size);
  }
  std::printf("microaot: shared arena %lld bytes\n", static_cast<long long>(arena));
  return 0;
}
}  // namespace

int compile_command(CompileCommandOptions& options, const std::string& output_dir) {
  if (!options.more_model_paths.empty()) return compile_many(options, output_dir);
  resolve_compile_options(options);
  const auto start = std::chrono::steady_clock::now();
  const CompiledModel model = compile_model(read_binary_file(options.model_path), options.compile);
  write_output_dir(output_dir, emit_library(model));
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
  if (options.planner_table) print_planner_table(model);
  std::printf("microaot: %s -> %s: %zu ops, arena %lld bytes, weights %lld bytes (%lld ms)\n",
              options.model_path.c_str(), output_dir.c_str(), model.calls.size(),
              static_cast<long long>(model.plan.arena_size), static_cast<long long>(weights_bytes(model)),
              static_cast<long long>(ms.count()));
  return 0;
}

}  // namespace microaot
