// bench's per-operator profile: the steps measured by the profiled image (the platform's op hooks) joined
// with the compiler's figures for each step (operator, kernel, MACs: the ones report.json gives), a
// summary per operator type, and how much of the plain run's instructions the rows cover.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "compile/compile_model.h"
#include "driver/cortex_m.h"
#include "driver/cycle_estimate.h"

namespace microaot {

// Builds the profiled image beside `plain` and runs it on `inputs` as a second QEMU run (the hooks' own
// instructions stay out of the plain run's r["instructions"]), then adds to the bench result `r`: per_op
// (one row per step), per_op_types, per_op_instructions, per_op_coverage (their share of
// r["instructions"]) and per_op_hook_instructions. Throws CompileError when the profiled run's outputs
// differ from `plain_run`'s or it did not measure each step of the model once, in order.
// With `cycles`, each row also gets its estimated cycles on that core (bench_cycles.h).
void add_per_op_profile(nlohmann::ordered_json& r, const CompiledModel& model, const CortexMBoard& board,
                        const BuildTools& tools, const CortexMImage& plain, const std::vector<uint8_t>& inputs,
                        const BoardRun& plain_run, const CycleCore* cycles = nullptr);

// The per-step and per-type tables of a result with add_per_op_profile's fields, for bench's table view.
void print_per_op_profile(const nlohmann::ordered_json& r);

// 1234567 -> "1,234,567".
std::string grouped(int64_t n);

}  // namespace microaot
