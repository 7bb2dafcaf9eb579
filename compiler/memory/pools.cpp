#include "memory/pools.h"

#include <algorithm>
#include <climits>
#include <cstdint>

#include "memory/placement.h"

namespace microaot {

namespace {

// The buffers assigned to `pool` as a request of their own: alignment raised to the pool's, and only the
// permits whose two buffers are both there. members[k] is the original index of the k-th record.
PlanRequest sub_request(const PlanRequest& request, const std::vector<size_t>& assignment, size_t pool,
                        int64_t pool_alignment, std::vector<size_t>& members) {
  PlanRequest sub;
  members.clear();
  std::vector<size_t> local(request.records.size(), SIZE_MAX);
  for (size_t i = 0; i < request.records.size(); ++i) {
    if (assignment[i] != pool) continue;
    local[i] = members.size();
    members.push_back(i);
    BufferRecord r = request.records[i];
    r.alignment = std::max(r.alignment, pool_alignment);
    sub.records.push_back(r);
  }
  for (const OverlapPermit& p : request.permits) {
    if (p.output >= local.size() || p.input >= local.size()) continue;
    if (local[p.output] == SIZE_MAX || local[p.input] == SIZE_MAX) continue;
    sub.permits.push_back(OverlapPermit{local[p.output], local[p.input], p.max_shift});
  }
  return sub;
}

// The op inside [first, last] where the most bytes of `records` are live.
int crowded_op(const std::vector<BufferRecord>& records, int first, int last) {
  int best_op = first;
  int64_t most = -1;
  for (const BufferRecord& candidate : records) {
    int op = std::max(candidate.first_op, first);
    if (op > last) continue;
    int64_t live = 0;
    for (const BufferRecord& r : records) {
      if (r.first_op <= op && op <= r.last_op) live += r.size;
    }
    if (live > most || (live == most && op < best_op)) {
      most = live;
      best_op = op;
    }
  }
  return best_op;
}

// The local index of the buffer to move out: live at `op`, the smallest that covers `excess`, else the
// largest; ties: shorter lifetime, then record order. SIZE_MAX when nothing non-empty is live there.
size_t pick_victim(const std::vector<BufferRecord>& records, int op, int64_t excess) {
  size_t pick = SIZE_MAX;
  auto better = [&](const BufferRecord& a, const BufferRecord& b) {
    bool a_covers = a.size >= excess, b_covers = b.size >= excess;
    if (a_covers != b_covers) return a_covers;
    if (a.size != b.size) return a_covers ? a.size < b.size : a.size > b.size;
    return a.last_op - a.first_op < b.last_op - b.first_op;
  };
  for (size_t k = 0; k < records.size(); ++k) {
    const BufferRecord& r = records[k];
    if (r.size <= 0 || op < r.first_op || op > r.last_op) continue;
    if (pick == SIZE_MAX || better(r, records[pick])) pick = k;
  }
  return pick;
}

// Chooses the buffer of `sub` to move out of a pool of `size` bytes, given its lower bound and, when
// planned, its plan (nullptr before). SIZE_MAX when there is nothing to move.
size_t choose_move(const PlanRequest& sub, int64_t size, int64_t need, const MemoryPlan* plan) {
  for (size_t k = 0; k < sub.records.size(); ++k) {
    if (sub.records[k].size > size) return k;  // can never fit here
  }
  int first = INT32_MIN, last = INT32_MAX;
  if (plan != nullptr) {
    // The crowded op within the lifetime of the buffer at the top of the arena.
    for (size_t k = 0; k < sub.records.size(); ++k) {
      if (sub.records[k].size > 0 && plan->offsets[k] + sub.records[k].size == plan->arena_size) {
        first = sub.records[k].first_op;
        last = sub.records[k].last_op;
        break;
      }
    }
  }
  return pick_victim(sub.records, crowded_op(sub.records, first, last), need - size);
}

}  // namespace

PooledPlan plan_pools(const PlanRequest& request, const std::vector<PoolSpec>& pools, PlannerFn planner) {
  const size_t n = request.records.size();
  PooledPlan result;
  result.pool.assign(n, 0);
  result.offsets.assign(n, 0);
  result.used.assign(pools.size(), 0);
  result.planners.assign(pools.size(), "");
  for (const PoolSpec& pool : pools) result.available_bytes += pool.size;
  std::vector<size_t> members;
  for (size_t p = 0; p < pools.size(); ++p) {
    for (;;) {
      PlanRequest sub = sub_request(request, result.pool, p, pools[p].alignment, members);
      int64_t bound = plan_lower_bound(sub);
      MemoryPlan plan;
      if (bound <= pools[p].size) plan = planner(sub);
      bool planned = bound <= pools[p].size;
      int64_t need = planned ? plan.arena_size : bound;
      if (need <= pools[p].size) {
        for (size_t k = 0; k < members.size(); ++k) result.offsets[members[k]] = plan.offsets[k];
        result.used[p] = plan.arena_size;
        result.planners[p] = members.empty() ? "" : plan.planner;
        break;
      }
      size_t victim = choose_move(sub, pools[p].size, need, planned ? &plan : nullptr);
      if (p + 1 == pools.size() || victim == SIZE_MAX) {
        PlanRequest all = request;
        for (BufferRecord& r : all.records) r.alignment = std::max(r.alignment, pools.empty() ? 1 : pools[0].alignment);
        result.required_bytes = planner(all).arena_size;
        return result;
      }
      result.pool[members[victim]] = p + 1;
    }
  }
  if (pools.empty()) {
    result.required_bytes = planner(request).arena_size;
    return result;
  }
  result.ok = true;
  return result;
}

}  // namespace microaot
