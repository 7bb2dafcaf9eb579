// Static memory planners: pure, deterministic functions from a plan request (buffer records + overlap
// permits) to a plan, registered by name in one table (planners.cpp). Adding a planner = one .cpp defining
// the function + one declaration + one table line. Every planner must produce a plan that check_plan()
// (plan_check.h) accepts, set plan.planner to its name, and may use any valid permit (placement.h).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "memory/buffer.h"

namespace microaot {

using PlannerFn = MemoryPlan (*)(const PlanRequest&);

// Runs every other planner except "linear" and returns the smallest arena (ties: table order); plan.planner
// names the winner. The default (planners.cpp).
MemoryPlan plan_best(const PlanRequest& request);
// TFLM-like greedy: largest buffer first, each at its lowest fit (greedy_by_size.cpp).
MemoryPlan plan_greedy_by_size(const PlanRequest& request);
// Greedy in order of conflict weight: the bytes that must coexist with a buffer (greedy_by_conflicts.cpp).
MemoryPlan plan_greedy_by_conflicts(const PlanRequest& request);
// Local search over the placement order from the better greedy order; fixed seed and budget (hill_climb.cpp).
MemoryPlan plan_hill_climb(const PlanRequest& request);
// Exact depth-first search over canonical placement orders with a lower bound, node budget (branch_and_bound.cpp).
MemoryPlan plan_branch_and_bound(const PlanRequest& request);
// No reuse: buffers one after another in record order, each aligned; for dumping every intermediate (linear.cpp).
MemoryPlan plan_linear(const PlanRequest& request);

// Shorthands without permits, for callers that only have records. Templates only so that a call with `{}`
// still picks the PlanRequest overload instead of being ambiguous.
template <typename = void>
MemoryPlan plan_greedy_by_size(const std::vector<BufferRecord>& records) {
  return plan_greedy_by_size(PlanRequest{records, {}});
}
template <typename = void>
MemoryPlan plan_linear(const std::vector<BufferRecord>& records) {
  return plan_linear(PlanRequest{records, {}});
}

// All planners, in a fixed order; the first ("best") is the default.
const std::vector<std::pair<std::string, PlannerFn>>& planners();
// The planner registered under `name`, or nullptr.
PlannerFn find_planner(const std::string& name);
// The plan of every registered planner except "best", in table order (for comparison tables).
std::vector<MemoryPlan> run_all_planners(const PlanRequest& request);

// The classic lower bound: the largest sum of simultaneously live bytes, ignoring permits. With permits a
// valid plan may go below it; plan_lower_bound() (placement.h) is the bound that holds with permits.
int64_t peak_live_bytes_without_permits(const PlanRequest& request);

}  // namespace microaot
