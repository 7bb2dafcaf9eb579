// The planner's two attempts with in-place permits, as pure functions over the parts of a request: the first
// offers every candidate; when its plan leaves some unused, the second offers only those it used, so that the
// scratch the others' flavors need is not reserved. The smaller placement wins (the first on ties). The same
// for one arena (MemoryPlan) and for --pool (PooledPlan, where an option whose buffers went to different
// pools cannot be used but its scratch was reserved).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "memory/buffer.h"
#include "memory/pools.h"

namespace microaot {

// An in-place option that pick_in_place accepted, as the request needs it.
struct InPlaceCandidate {
  size_t step = 0;
  OverlapPermit permit;
  int64_t scratch_bytes = 0;  // what its flavor adds to the step's own scratch (the same buffer)
};

// Everything one attempt's request is made of.
struct RequestParts {
  std::vector<BufferRecord> tensors;
  std::vector<int64_t> step_scratch;  // per step: the kernel's own scratch bytes
  std::vector<int> runs_in;           // per step: the step it runs in (a fused chain's first step, or itself)
  std::vector<InPlaceCandidate> candidates;
  std::vector<OverlapPermit> chain_permits;
  int64_t scratch_alignment = 16;
};

// The request offering the candidates in `use`: the tensors, then one scratch record per step that needs any
// (its own plus its offered candidates', aligned), live over the step it runs in; the permits of the offered
// candidates in order, then the chains'. scratch_of[step] receives the scratch record's index (-1: none).
PlanRequest assemble_request(const RequestParts& parts, const std::vector<bool>& use, std::vector<int>& scratch_of);

// How an attempt's plan compares: whether it placed everything, the bytes it takes, and which candidates it
// relies on (memory/in_place.h's permits_used, across pools for a PooledPlan).
inline bool placed(const MemoryPlan&) { return true; }
inline bool placed(const PooledPlan& plan) { return plan.ok; }
int64_t placed_bytes(const MemoryPlan& plan);
int64_t placed_bytes(const PooledPlan& plan);
std::vector<bool> candidates_used(const RequestParts& parts, const std::vector<bool>& offered,
                                  const PlanRequest& request, const MemoryPlan& plan);
std::vector<bool> candidates_used(const RequestParts& parts, const std::vector<bool>& offered,
                                  const PlanRequest& request, const PooledPlan& plan);

// One attempt: its request, the scratch record of each step, the plan and the candidates it relies on.
template <typename Plan>
struct Placement {
  PlanRequest request;
  std::vector<int> scratch_of;
  Plan plan;
  std::vector<bool> used;  // per candidate; empty when !placed(plan)
};

// The two attempts; `place` maps a request to a Plan. A first attempt that places nothing is returned as is.
template <typename Plan, typename Place>
Placement<Plan> place_with_retry(const RequestParts& parts, Place place) {
  const std::vector<bool> all(parts.candidates.size(), true);
  Placement<Plan> first;
  first.request = assemble_request(parts, all, first.scratch_of);
  first.plan = place(first.request);
  if (!placed(first.plan)) return first;
  first.used = candidates_used(parts, all, first.request, first.plan);
  if (first.used == all) return first;
  Placement<Plan> retry;
  retry.request = assemble_request(parts, first.used, retry.scratch_of);
  retry.plan = place(retry.request);
  if (!placed(retry.plan) || placed_bytes(retry.plan) >= placed_bytes(first.plan)) return first;
  retry.used = candidates_used(parts, first.used, retry.request, retry.plan);
  return retry;
}

}  // namespace microaot
