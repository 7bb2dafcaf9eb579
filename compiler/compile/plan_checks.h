// The memory stage's refusals in the model's own names: the facts that memory/plan_errors.h words, gathered
// from the model and its plan.
#pragma once

#include <string>

#include "compile/compile_model.h"
#include "memory/pools.h"

namespace microaot {

// --pool: why the pools cannot hold `request` (its records named as the graph names them).
std::string pool_failure_message(const CompiledModel& model, const PlanRequest& request, const PoolFailure& failure);

// Throws CompileError when the finished plan cannot ship: the state does not fit the first pool after its
// activations (--pool), the RAM exceeds what 32-bit sizes index, or it exceeds --ram-budget (where the peak
// is, what is live there, and what could help).
void check_planned_memory(const CompiledModel& model);

}  // namespace microaot
