#include "memory/pools.h"

#include <algorithm>
#include <cstdint>
#include <numeric>

#include "memory/placement.h"
#include "support/diagnostics.h"

namespace microaot {

namespace {

constexpr size_t kNoPool = SIZE_MAX;

// The chosen records as a request of their own: alignment raised to `alignment`, and only the permits
// whose two buffers are both chosen. members[k] is the original index of the k-th record.
PlanRequest subset(const PlanRequest& request, const std::vector<bool>& chosen, int64_t alignment,
                   std::vector<size_t>& members) {
  PlanRequest sub;
  members.clear();
  std::vector<size_t> local(request.records.size(), SIZE_MAX);
  for (size_t i = 0; i < request.records.size(); ++i) {
    if (!chosen[i]) continue;
    local[i] = members.size();
    members.push_back(i);
    BufferRecord r = request.records[i];
    r.alignment = std::max(r.alignment, alignment);
    sub.records.push_back(r);
  }
  for (const OverlapPermit& p : request.permits) {
    if (p.output >= local.size() || p.input >= local.size()) continue;
    if (local[p.output] == SIZE_MAX || local[p.input] == SIZE_MAX) continue;
    sub.permits.push_back(OverlapPermit{local[p.output], local[p.input], p.max_shift});
  }
  return sub;
}

std::vector<bool> in_pool(const std::vector<size_t>& assignment, size_t pool) {
  std::vector<bool> chosen(assignment.size());
  for (size_t i = 0; i < assignment.size(); ++i) chosen[i] = assignment[i] == pool;
  return chosen;
}

// The first pool after `after` (kNoPool: from the first) that can hold `size` bytes at all; kNoPool if none.
size_t next_pool_for(const std::vector<PoolSpec>& pools, size_t after, int64_t size) {
  for (size_t p = after == kNoPool ? 0 : after + 1; p < pools.size(); ++p) {
    if (size <= pools[p].size) return p;
  }
  return kNoPool;
}

// Where the lower bound (with permits) of the chosen buffers peaks: its bytes, the op, and the non-empty
// buffers live there (record indices). bytes 0 and op -1 when nothing is chosen.
struct BoundPeak {
  int64_t bytes = 0;
  int op = -1;
  std::vector<size_t> live;
};

BoundPeak bound_peak(const PlanRequest& request, const std::vector<bool>& chosen) {
  const std::vector<BufferRecord>& records = request.records;
  BoundPeak peak;
  std::vector<size_t> members;
  for (size_t i = 0; i < records.size(); ++i) {
    if (!chosen[i]) continue;
    const int op = records[i].first_op;
    std::vector<bool> live(records.size());
    for (size_t j = 0; j < records.size(); ++j) {
      live[j] = chosen[j] && records[j].size > 0 && records[j].first_op <= op && op <= records[j].last_op;
    }
    const int64_t bytes = plan_lower_bound(subset(request, live, 1, members));
    if (bytes > peak.bytes || (bytes == peak.bytes && peak.op >= 0 && op < peak.op)) peak = {bytes, op, members};
  }
  return peak;
}

// One pool's buffers under an assignment: planned when their lower bound fits, else only bounded.
struct PoolFit {
  std::vector<size_t> members;
  PlanRequest sub;
  MemoryPlan plan;
  int64_t need = 0;  // the planned arena, or the lower bound when that alone is too large
  bool planned = false;
};

PoolFit fit_pool(const PlanRequest& request, const std::vector<size_t>& assignment, size_t pool,
                 const PoolSpec& spec, PlannerFn planner) {
  PoolFit fit;
  fit.sub = subset(request, in_pool(assignment, pool), spec.alignment, fit.members);
  fit.need = plan_lower_bound(fit.sub);
  fit.planned = fit.need <= spec.size;
  if (fit.planned) {
    fit.plan = planner(fit.sub);
    fit.need = fit.plan.arena_size;
  }
  return fit;
}

// A buffer of `pool` that some later pool can hold.
bool can_move(const PlanRequest& request, const std::vector<PoolSpec>& pools, size_t pool, size_t i) {
  return request.records[i].size > 0 && next_pool_for(pools, pool, request.records[i].size) != kNoPool;
}

// The buffers of `pool` that can move on, those whose move keeps the lower bound of the pool they go to
// within its size first: when some exist, only those.
std::vector<size_t> movable(const PlanRequest& request, const std::vector<PoolSpec>& pools, size_t pool,
                            const std::vector<size_t>& candidates, std::vector<size_t> assignment) {
  std::vector<size_t> room, any;
  std::vector<size_t> members;
  for (size_t i : candidates) {
    if (!can_move(request, pools, pool, i)) continue;
    const size_t to = next_pool_for(pools, pool, request.records[i].size);
    assignment[i] = to;
    const PlanRequest there = subset(request, in_pool(assignment, to), pools[to].alignment, members);
    assignment[i] = pool;
    (plan_lower_bound(there) <= pools[to].size ? room : any).push_back(i);
  }
  return room.empty() ? any : room;
}

// While the lower bound is too large: of the movable buffers live where it peaks, the smallest that covers
// the excess, else the largest; ties: shorter lifetime, then record order. kNoPool when none can move.
size_t bound_victim(const PlanRequest& request, const std::vector<PoolSpec>& pools, size_t pool,
                    const std::vector<size_t>& assignment, const BoundPeak& peak) {
  const int64_t excess = peak.bytes - pools[pool].size;
  const auto better = [&](const BufferRecord& a, const BufferRecord& b) {
    const bool a_covers = a.size >= excess, b_covers = b.size >= excess;
    if (a_covers != b_covers) return a_covers;
    if (a.size != b.size) return a_covers ? a.size < b.size : a.size > b.size;
    return a.last_op - a.first_op < b.last_op - b.first_op;
  };
  size_t pick = kNoPool;
  for (size_t i : movable(request, pools, pool, peak.live, assignment)) {
    if (pick == kNoPool || better(request.records[i], request.records[pick])) pick = i;
  }
  return pick;
}

// Once the bound fits but the planned arena does not: plans the pool without each movable buffer, smallest
// first, and picks the smallest whose removal lets it fit (ties: the smaller arena); if none does, the one
// whose removal shrinks the arena most (ties: the smaller buffer, then record order).
size_t planned_victim(const PlanRequest& request, const std::vector<PoolSpec>& pools, size_t pool,
                      std::vector<size_t> assignment, const std::vector<size_t>& members, PlannerFn planner) {
  std::vector<size_t> candidates = movable(request, pools, pool, members, assignment);
  const auto size_of = [&](size_t i) { return request.records[i].size; };
  std::stable_sort(candidates.begin(), candidates.end(),
                   [&](size_t a, size_t b) { return size_of(a) < size_of(b); });
  size_t pick = kNoPool;
  int64_t pick_need = 0;
  for (size_t i : candidates) {
    const bool pick_fits = pick != kNoPool && pick_need <= pools[pool].size;
    if (pick_fits && size_of(i) > size_of(pick)) break;  // a larger buffer cannot be "fewer bytes moved"
    assignment[i] = kNoPool;
    const int64_t need = fit_pool(request, assignment, pool, pools[pool], planner).need;
    assignment[i] = pool;
    const bool fits = need <= pools[pool].size;
    if (pick == kNoPool || (fits && !pick_fits) || (fits == pick_fits && need < pick_need)) {
      pick = i;
      pick_need = need;
    }
  }
  return pick;
}

// Step 2 for one pool: moves buffers out until it fits. kNone when it does, else why not (kNoPlacement).
PoolFailure spill(const PlanRequest& request, const std::vector<PoolSpec>& pools, size_t pool, PlannerFn planner,
                  std::vector<size_t>& assignment) {
  for (;;) {
    const PoolFit fit = fit_pool(request, assignment, pool, pools[pool], planner);
    if (fit.need <= pools[pool].size) return PoolFailure{};
    const size_t victim =
        fit.planned ? planned_victim(request, pools, pool, assignment, fit.members, planner)
                    : bound_victim(request, pools, pool, assignment, bound_peak(request, in_pool(assignment, pool)));
    if (victim == kNoPool) {
      return PoolFailure{PoolFailureKind::kNoPlacement, pool, -1, fit.members, fit.need, pools[pool].size};
    }
    assignment[victim] = next_pool_for(pools, pool, request.records[victim].size);
  }
}

bool pool_fits(const PlanRequest& request, const std::vector<PoolSpec>& pools, size_t pool,
               const std::vector<size_t>& assignment, PlannerFn planner) {
  return fit_pool(request, assignment, pool, pools[pool], planner).need <= pools[pool].size;
}

// Step 3: each buffer of a later pool, largest first, goes back to the earliest pool that still fits with
// it (and its own pool must still fit without it: heuristic planners are not monotonic).
void move_back(const PlanRequest& request, const std::vector<PoolSpec>& pools, PlannerFn planner,
               std::vector<size_t>& assignment) {
  std::vector<size_t> order;
  for (size_t i = 0; i < assignment.size(); ++i) {
    if (assignment[i] > 0 && request.records[i].size > 0) order.push_back(i);
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return request.records[a].size > request.records[b].size; });
  for (size_t i : order) {
    const size_t from = assignment[i];
    for (size_t to = 0; to < from; ++to) {
      if (request.records[i].size > pools[to].size) continue;
      assignment[i] = to;
      if (pool_fits(request, pools, to, assignment, planner) && pool_fits(request, pools, from, assignment, planner)) {
        break;
      }
      assignment[i] = from;
    }
  }
}

// The records that fit in pool `pool` and in no other.
std::vector<bool> only_in(const PlanRequest& request, const std::vector<PoolSpec>& pools, size_t pool) {
  std::vector<bool> chosen(request.records.size());
  for (size_t i = 0; i < chosen.size(); ++i) {
    const int64_t size = request.records[i].size;
    size_t holders = 0;
    for (const PoolSpec& spec : pools) holders += size <= spec.size ? 1 : 0;
    chosen[i] = size <= pools[pool].size && holders == 1;
  }
  return chosen;
}

// Why no placement can exist, when that can be shown; else `fallback`.
PoolFailure diagnose(const PlanRequest& request, const std::vector<PoolSpec>& pools, const PoolFailure& fallback) {
  size_t largest = 0;
  int64_t total = 0;
  for (size_t p = 0; p < pools.size(); ++p) {
    if (pools[p].size > pools[largest].size) largest = p;
    total += pools[p].size;
  }
  for (size_t i = 0; i < request.records.size(); ++i) {
    const int64_t size = request.records[i].size;
    if (size > pools[largest].size) return {PoolFailureKind::kTooLarge, largest, -1, {i}, size, pools[largest].size};
  }
  for (size_t p = 0; p < pools.size(); ++p) {
    const BoundPeak peak = bound_peak(request, only_in(request, pools, p));
    if (peak.bytes > pools[p].size) {
      return {PoolFailureKind::kOnePoolOnly, p, peak.op, peak.live, peak.bytes, pools[p].size};
    }
  }
  const BoundPeak peak = bound_peak(request, std::vector<bool>(request.records.size(), true));
  if (peak.bytes > total) return {PoolFailureKind::kTotal, 0, peak.op, peak.live, peak.bytes, total};
  return fallback;
}

}  // namespace

PooledPlan plan_pools(const PlanRequest& request, const std::vector<PoolSpec>& pools, PlannerFn planner) {
  MICROAOT_CHECK(!pools.empty(), "plan_pools needs at least one pool");
  const size_t n = request.records.size();
  PooledPlan result;
  result.pool.assign(n, 0);
  for (size_t i = 0; i < n; ++i) {
    result.pool[i] = next_pool_for(pools, kNoPool, request.records[i].size);
    if (result.pool[i] == kNoPool) {
      result.failure = diagnose(request, pools, {});
      return result;
    }
  }
  for (size_t p = 0; p < pools.size(); ++p) {
    const PoolFailure failure = spill(request, pools, p, planner, result.pool);
    if (failure.kind != PoolFailureKind::kNone) {
      result.failure = diagnose(request, pools, failure);
      return result;
    }
  }
  move_back(request, pools, planner, result.pool);
  result.offsets.assign(n, 0);
  for (size_t p = 0; p < pools.size(); ++p) {
    const PoolFit fit = fit_pool(request, result.pool, p, pools[p], planner);
    MICROAOT_CHECK(fit.planned && fit.need <= pools[p].size, "pool " + pools[p].name + " no longer fits");
    for (size_t k = 0; k < fit.members.size(); ++k) result.offsets[fit.members[k]] = fit.plan.offsets[k];
    result.used.push_back(fit.plan.arena_size);
    result.planners.push_back(fit.members.empty() ? "" : fit.plan.planner);
  }
  result.ok = true;
  return result;
}

}  // namespace microaot
