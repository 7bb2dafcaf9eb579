#include "driver/tvmc_options.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <sstream>

#include "driver/commands.h"
#include "support/diagnostics.h"
#include "target/target.h"

namespace microaot {

namespace {
// tvmc's pool options that tune TVM's placement by a memory's speed. microaot places buffers by lifetime
// and size only, so each is refused rather than silently ignored.
constexpr const char* kPoolSpeedOptions[] = {
    "--workspace-pools-clock-frequency-hz",        "--workspace-pools-read-bandwidth-bytes-per-cycle",
    "--workspace-pools-write-bandwidth-bytes-per-cycle", "--workspace-pools-read-latency-cycles",
    "--workspace-pools-write-latency-cycles",      "--workspace-pools-target-burst-bytes",
};

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::istringstream in(text);
  for (std::string part; std::getline(in, part, separator);) parts.push_back(part);
  return parts;
}

// "NAME=VALUE" or "POOL:VALUE" -> {NAME, VALUE}.
std::pair<std::string, std::string> key_value(const std::string& text, char separator, const std::string& option) {
  const size_t at = text.find(separator);
  if (at == std::string::npos || at == 0) {
    throw UsageError(option + " '" + text + "': expected NAME" + separator + "VALUE");
  }
  return {text.substr(0, at), text.substr(at + 1)};
}

bool flag_value(const std::string& name, const std::string& value) {
  if (value == "1" || value == "true" || value == "True") return true;
  if (value == "0" || value == "false" || value == "False") return false;
  throw UsageError("--pass-config " + name + "=" + value + ": expected 1 or 0");
}

// Sets `field` to `value` unless the microaot option was given with another value.
void set_once(std::string& field, const std::string& value, const std::string& tvmc, const std::string& ours) {
  if (!field.empty() && field != value) {
    throw UsageError(tvmc + " says " + value + " but " + ours + " says " + field + ": give one of them");
  }
  field = value;
}

// The pass configs that mean something here; any other is refused by name.
void apply_pass_config(CompileCommandOptions& o, const std::string& text) {
  const auto [name, value] = key_value(text, '=', "--pass-config");
  if (name == "tir.usmp.enable") {
    if (!flag_value(name, value)) {
      throw UsageError("--pass-config tir.usmp.enable=0: microaot always plans all memory statically at compile "
                       "time (one arena); drop the option");
    }
  } else if (name == "tir.usmp.algorithm") {
    if (value != "greedy_by_size" && value != "greedy_by_conflicts" && value != "hill_climb") {
      throw UsageError("--pass-config tir.usmp.algorithm=" + value +
                       ": microaot has greedy_by_size, greedy_by_conflicts and hill_climb (see --planner)");
    }
    o.compile.planner = value;
  } else if (name == "tir.usmp.use_workspace_io") {
    o.io_in_arena = flag_value(name, value) ? "on" : "off";
  } else if (name == "tir.disable_vectorize") {
    flag_value(name, value);  // as with tvmc's cmsis-nn: the kernels follow the target (-mattr=+nomve, +nodsp)
  } else {
    throw UsageError("--pass-config " + name + ": not a setting microaot has (it takes tir.usmp.enable=1, "
                     "tir.usmp.algorithm, tir.usmp.use_workspace_io and tir.disable_vectorize); drop it");
  }
}

// --workspace-pools=A,B: A is the arena, B takes what does not fit, each sized by its size hint.
void apply_workspace_pools(CompileCommandOptions& o, const TvmcOptions& t) {
  const std::vector<std::string> names = split(t.workspace_pools, ',');
  auto check_named = [&](const std::string& pool, const std::string& option) {
    if (std::find(names.begin(), names.end(), pool) == names.end()) {
      throw UsageError(option + " names pool '" + pool + "', which --workspace-pools does not list");
    }
  };
  for (const std::string& text : t.pool_targets) {
    const auto [pool, targets] = key_value(text, ':', "--workspace-pools-targets");
    check_named(pool, "--workspace-pools-targets");
    for (const std::string& target : split(targets, ',')) {
      if (target != "c" && target != "llvm" && target != "cmsis-nn") {
        throw UsageError("--workspace-pools-targets " + text + ": target '" + target + "' is not one microaot "
                         "compiles for (c, llvm or cmsis-nn, the same code)");
      }
    }
  }
  std::vector<std::string> sizes(names.size());
  for (const std::string& text : t.pool_size_hints) {
    const auto [pool, bytes] = key_value(text, ':', "--workspace-pools-size-hint-bytes");
    check_named(pool, "--workspace-pools-size-hint-bytes");
    sizes[static_cast<size_t>(std::find(names.begin(), names.end(), pool) - names.begin())] = bytes;
  }
  if (names.size() == 1 && sizes[0].empty()) return;  // one pool of any size: the arena, as by default
  for (size_t i = 0; i < names.size(); ++i) {
    if (sizes[i].empty()) {
      throw UsageError("--workspace-pools " + names[i] + " has no size: microaot's pools have a fixed size, give "
                       "--workspace-pools-size-hint-bytes=" + names[i] + ":BYTES (or --pool " + names[i] + ":BYTES)");
    }
    o.pools.push_back(names[i] + ":" + sizes[i]);
  }
}

void apply_cmsis_nn_mcpu(CompileCommandOptions& o, const std::string& cpu) {
  bool cmsis_nn = false;
  try {
    cmsis_nn = parse_target(o.target.empty() ? "c" : o.target).fast_kernels_requested;
  } catch (const CompileError& e) {
    throw UsageError(e.what());
  }
  if (!cmsis_nn) {
    throw UsageError("--target-cmsis-nn-mcpu=" + cpu + " needs --target \"cmsis-nn, c\" (tvmc's spelling), or "
                     "give --target-c-mcpu=" + cpu + " alone");
  }
  set_once(o.target_c_mcpu, cpu, "--target-cmsis-nn-mcpu", "--target-c-mcpu");
}
}  // namespace

void check_model_format(const std::string& format) {
  if (!format.empty() && format != "tflite" && format != "onnx") {
    throw UsageError("--model-format " + format + ": this build reads tflite and onnx models (told apart by content)");
  }
}

void add_tvmc_options(CLI::App& app, TvmcOptions& t) {
  app.add_option("--target-cmsis-nn-mcpu", t.cmsis_nn_mcpu, "tvmc: the cmsis-nn target's cpu (as --target-c-mcpu)");
  app.add_option("--pass-config", t.pass_configs,
                 "tvmc: tir.usmp.enable=1, tir.usmp.algorithm=PLANNER, tir.usmp.use_workspace_io=0|1 "
                 "(--io-in-arena), tir.disable_vectorize (no effect: the target decides); others are refused");
  app.add_option("--executor-aot-workspace-byte-alignment", t.workspace_byte_alignment, "tvmc: --alignment");
  app.add_option("--model-format", t.model_format, "tvmc: tflite or onnx (the content decides; others are refused)");
  app.add_option("--workspace-pools", t.workspace_pools,
                 "tvmc: POOL[,POOL...] as --pool: the first is the arena, each sized by its size hint");
  app.add_option("--workspace-pools-targets", t.pool_targets, "tvmc: POOL:c (one target: accepted, checked)");
  app.add_option("--workspace-pools-size-hint-bytes", t.pool_size_hints, "tvmc: POOL:BYTES, the pool's size");
  for (const char* name : kPoolSpeedOptions) {
    app.add_option_function<std::string>(
           name, [&t, name](const std::string&) { t.refused.push_back(name); },
           "tvmc: refused (microaot places buffers by lifetime and size, not by a memory's speed)")
        ->group("");  // kept out of --help: it exists only to be refused with a reason
  }
}

void apply_tvmc_options(CompileCommandOptions& o) {
  TvmcOptions& t = o.tvmc;
  if (t.applied) return;
  t.applied = true;
  if (!t.refused.empty()) {
    throw UsageError(t.refused.front() + ": microaot places buffers by lifetime and size, not by a memory's "
                     "speed; drop it (--workspace-pools and --workspace-pools-size-hint-bytes are mapped onto --pool)");
  }
  check_model_format(t.model_format);
  if (!t.cmsis_nn_mcpu.empty()) apply_cmsis_nn_mcpu(o, t.cmsis_nn_mcpu);
  if (!t.workspace_byte_alignment.empty()) {
    set_once(o.alignment, t.workspace_byte_alignment, "--executor-aot-workspace-byte-alignment", "--alignment");
  }
  for (const std::string& text : t.pass_configs) apply_pass_config(o, text);
  if (!t.workspace_pools.empty()) {
    apply_workspace_pools(o, t);
  } else if (!t.pool_targets.empty() || !t.pool_size_hints.empty()) {
    throw UsageError("--workspace-pools-targets and --workspace-pools-size-hint-bytes need --workspace-pools");
  }
}

}  // namespace microaot
