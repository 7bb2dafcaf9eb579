// Static memory planners: pure functions from buffer records to a plan, registered by name in one table
// (planners.cpp). Adding a planner = one .cpp defining the function + one declaration + one table line.
// Every planner must produce a plan that check_plan() (plan_check.h) accepts and set plan.planner to its name.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "memory/buffer.h"

namespace microaot {

using PlannerFn = MemoryPlan (*)(const std::vector<BufferRecord>&);

// TFLM-like greedy: largest buffer first, each at the lowest aligned offset free of every already placed
// buffer whose lifetime intersects its own (greedy_by_size.cpp).
MemoryPlan plan_greedy_by_size(const std::vector<BufferRecord>& records);
// No reuse: buffers one after another in record order, each aligned; for dumping every intermediate (linear.cpp).
MemoryPlan plan_linear(const std::vector<BufferRecord>& records);

// All planners, in a fixed order; the first is the default.
const std::vector<std::pair<std::string, PlannerFn>>& planners();
// The planner registered under `name`, or nullptr.
PlannerFn find_planner(const std::string& name);

}  // namespace microaot
