#include "driver/bench_cycles.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "driver/bench_profile.h"
#include "support/diagnostics.h"

namespace microaot {

namespace {
constexpr const char* kMeasured = "call_run";        // harness.c: the model's run, called by bench_measure
constexpr const char* kEmpty = "call_empty_run";     // the same call of an empty function
constexpr const char* kMeasurer = "bench_measure";   // where both return to
constexpr int64_t kResolution = 0;                   // the harness counts exactly (bench.c's probes)
constexpr const char* kBeginHook = "microaot_platform_op_begin";  // harness.c's per-operator hooks
constexpr const char* kBeginSpan = "bench_span_begin";            // bench.c: what the begin hook calls
constexpr const char* kEndHook = "microaot_platform_op_end";

const CycleWindow& window(const std::map<std::string, CycleWindow>& windows, const std::string& name) {
  const auto it = windows.find(name);
  if (it == windows.end() || !it->second.complete) {
    throw CompileError("QEMU's execution log has no complete run of the harness's " + name);
  }
  return it->second;
}
}  // namespace

void add_cycle_estimate(nlohmann::ordered_json& r, CycleCore core, const std::string& exec_log, double clock_mhz) {
  std::ifstream log(exec_log);
  if (!log) throw CompileError("cannot read QEMU's execution log " + exec_log);
  const auto windows = measure_log_windows(log, core, {kMeasured, kEmpty}, kMeasurer);
  const CycleWindow& run = window(windows, kMeasured);
  const CycleWindow& empty = window(windows, kEmpty);
  const int64_t instructions = run.instructions - empty.instructions;
  if (std::llabs(instructions - r["instructions"].get<int64_t>()) > kResolution) {
    throw CompileError("the execution log counts " + std::to_string(instructions) + " instructions per inference, "
                       "the harness " + std::to_string(r["instructions"].get<int64_t>()));
  }
  const int64_t cycles = std::llround(run.cycles - empty.cycles);
  nlohmann::ordered_json e;
  e["core"] = cycle_core_name(core);
  e["cycles"] = cycles;
  e["instructions_counted"] = instructions;
  e["cycles_per_instruction"] = std::round(1000.0 * static_cast<double>(cycles) / static_cast<double>(std::max<int64_t>(instructions, 1))) / 1000.0;
  if (clock_mhz > 0) {
    e["clock_mhz"] = clock_mhz;
    e["milliseconds"] = std::round(1e4 * static_cast<double>(cycles) / (clock_mhz * 1e3)) / 1e4;
  }
  e["assumes"] = "zero-wait-state memory (code and data in single-cycle memory); the timing table "
                 "compiler/driver/cycle_table.def, docs/cycles.md";
  r["estimated_cycles"] = e;
}

void add_step_cycles(nlohmann::ordered_json& steps, CycleCore core, const std::string& exec_log) {
  std::ifstream log(exec_log);
  if (!log) throw CompileError("cannot read QEMU's execution log " + exec_log);
  const std::vector<CycleWindow> windows = measure_step_windows(log, core, {kBeginHook, kBeginSpan}, kEndHook);
  if (windows.size() != steps.size() + 1) {  // the empty pair, then one per step
    throw CompileError("the profiled run's execution log has " + std::to_string(windows.size()) +
                       " op hook windows for " + std::to_string(steps.size()) + " steps");
  }
  const CycleWindow& empty = windows[0];
  for (size_t step = 0; step < steps.size(); ++step) {
    const CycleWindow& w = windows[step + 1];
    const int64_t instructions = w.instructions - empty.instructions;
    if (!w.complete || std::llabs(instructions - steps[step]["instructions"].get<int64_t>()) > kResolution) {
      throw CompileError("step " + std::to_string(step) + ": the execution log counts " + std::to_string(instructions) +
                         " instructions, the op hooks " + std::to_string(steps[step]["instructions"].get<int64_t>()));
    }
    steps[step]["estimated_cycles"] = std::llround(w.cycles - empty.cycles);
  }
  std::filesystem::remove(exec_log);
}

void print_cycle_estimate(const nlohmann::ordered_json& r) {
  if (!r.contains("estimated_cycles")) return;
  const nlohmann::ordered_json& e = r["estimated_cycles"];
  std::printf("  estimated cycles, %-9s  %14s   (zero-wait-state memory; %.2f cycles per instruction)\n",
              e["core"].get<std::string>().c_str(), grouped(e["cycles"].get<int64_t>()).c_str(),
              e["cycles_per_instruction"].get<double>());
  if (e.contains("milliseconds")) {
    std::printf("  estimated time at %g MHz     %14.3f ms\n", e["clock_mhz"].get<double>(), e["milliseconds"].get<double>());
  }
}

}  // namespace microaot
