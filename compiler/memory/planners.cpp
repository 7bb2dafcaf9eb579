#include "memory/planners.h"

#include "memory/liveness.h"
#include "memory/placement.h"

namespace microaot {

const std::vector<std::pair<std::string, PlannerFn>>& planners() {
  static const std::vector<std::pair<std::string, PlannerFn>> table = {
      {"best", plan_best},
      {"greedy_by_size", plan_greedy_by_size},
      {"greedy_by_conflicts", plan_greedy_by_conflicts},
      {"hill_climb", plan_hill_climb},
      {"branch_and_bound", plan_branch_and_bound},
      {"linear", plan_linear},
  };
  return table;
}

PlannerFn find_planner(const std::string& name) {
  for (const auto& entry : planners()) {
    if (entry.first == name) return entry.second;
  }
  return nullptr;
}

std::vector<MemoryPlan> run_all_planners(const PlanRequest& request) {
  std::vector<MemoryPlan> plans;
  for (const auto& entry : planners()) {
    if (entry.first != "best") plans.push_back(entry.second(request));
  }
  return plans;
}

MemoryPlan plan_best(const PlanRequest& request) {
  MemoryPlan best;
  bool found = false;
  bool proven = false;
  for (const auto& entry : planners()) {
    if (entry.first == "best" || entry.first == "linear") continue;
    // The search starts from the best plan so far (at least hill_climb's, which comes earlier in the table):
    // the same arena as running it from scratch, without computing hill_climb twice.
    MemoryPlan plan = entry.second == plan_branch_and_bound && found ? branch_and_bound_from(request, best)
                                                                    : entry.second(request);
    proven = proven || plan.proven_optimal;  // a proof by any planner bounds every plan
    if (!found || plan.arena_size < best.arena_size) best = std::move(plan);
    found = true;
  }
  best.proven_optimal = proven;
  return best;
}

int64_t peak_live_bytes_without_permits(const PlanRequest& request) {
  return peak_live_bytes(request.records).bytes;
}

}  // namespace microaot
