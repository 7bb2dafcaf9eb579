// bench's estimated cycles: the plain run's QEMU log (cortex_m.h's exec_log) read by cycle_estimate.h over
// the harness's measured call (call_run) net of its empty twin (call_empty_run), as the instruction count is.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "driver/cycle_estimate.h"

namespace microaot {

// Adds r["estimated_cycles"]: core, cycles, the instructions they were counted over, and with
// clock_mhz > 0 the time at that clock. Throws CompileError when the log's windows are missing or their
// instructions differ from the harness's r["instructions"] by more than its counting resolution.
void add_cycle_estimate(nlohmann::ordered_json& r, CycleCore core, const std::string& exec_log, double clock_mhz);

// Adds "estimated_cycles" to each per-step row of `steps` (bench_profile.cpp's per_op) from the profiled
// image's log: the cycles between the op hooks, net of the empty hook pair the harness measures first.
// Throws CompileError when the log's windows do not pair up with the rows or count other instructions.
void add_step_cycles(nlohmann::ordered_json& steps, CycleCore core, const std::string& exec_log);

// The table view's lines for add_cycle_estimate's fields.
void print_cycle_estimate(const nlohmann::ordered_json& r);

}  // namespace microaot
