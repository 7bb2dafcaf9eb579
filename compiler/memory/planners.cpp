#include "memory/planners.h"

namespace microaot {

const std::vector<std::pair<std::string, PlannerFn>>& planners() {
  static const std::vector<std::pair<std::string, PlannerFn>> table = {
      {"greedy_by_size", plan_greedy_by_size},
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

}  // namespace microaot
