// check_pooled_plan (pools.h): rebuilds each pool's records on its own (not with the planner's helper) and
// hands them to check_plan, so the pooled planner is checked by the same independent oracle.
#include <string>

#include "memory/plan_check.h"
#include "memory/pools.h"

namespace microaot {

namespace {

std::vector<std::string> check_one_pool(const PlanRequest& request, const PoolSpec& spec, size_t pool,
                                        const PooledPlan& plan) {
  PlanRequest sub;
  MemoryPlan sub_plan;
  sub_plan.arena_size = plan.used[pool];
  std::vector<size_t> local(request.records.size(), request.records.size());
  for (size_t i = 0; i < request.records.size(); ++i) {
    if (plan.pool[i] != pool) continue;
    local[i] = sub.records.size();
    BufferRecord r = request.records[i];
    if (spec.alignment > r.alignment) r.alignment = spec.alignment;
    sub.records.push_back(r);
    sub_plan.offsets.push_back(plan.offsets[i]);
  }
  for (const OverlapPermit& p : request.permits) {
    if (p.output < local.size() && p.input < local.size() && local[p.output] < local.size() &&
        local[p.input] < local.size()) {
      sub.permits.push_back(OverlapPermit{local[p.output], local[p.input], p.max_shift});
    }
  }
  std::vector<std::string> problems = check_plan(sub, sub_plan);
  if (plan.used[pool] > spec.size) {
    problems.push_back("uses " + std::to_string(plan.used[pool]) + " bytes of its " + std::to_string(spec.size));
  }
  for (std::string& problem : problems) problem = "pool " + spec.name + ": " + problem;
  return problems;
}

}  // namespace

std::vector<std::string> check_pooled_plan(const PlanRequest& request, const std::vector<PoolSpec>& pools,
                                           const PooledPlan& plan) {
  const size_t n = request.records.size();
  if (plan.pool.size() != n || plan.offsets.size() != n || plan.used.size() != pools.size()) {
    return {"the pooled plan has " + std::to_string(plan.pool.size()) + " pool indices and " +
            std::to_string(plan.offsets.size()) + " offsets for " + std::to_string(n) + " buffers, and " +
            std::to_string(plan.used.size()) + " pool sizes for " + std::to_string(pools.size()) + " pools"};
  }
  std::vector<std::string> problems;
  for (size_t i = 0; i < n; ++i) {
    if (plan.pool[i] >= pools.size()) {
      problems.push_back("record " + std::to_string(i) + " (tensor " + std::to_string(request.records[i].tensor_id) +
                         ") is in pool " + std::to_string(plan.pool[i]) + " of " + std::to_string(pools.size()));
    }
  }
  for (size_t p = 0; p < pools.size(); ++p) {
    std::vector<std::string> more = check_one_pool(request, pools[p], p, plan);
    problems.insert(problems.end(), more.begin(), more.end());
  }
  return problems;
}

}  // namespace microaot
