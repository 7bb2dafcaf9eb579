// Several memory pools (e.g. fast SRAM first, then a slower region): which pool each buffer goes to, and
// its offset there. Each pool is planned as its own arena by an ordinary planner.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "memory/buffer.h"
#include "memory/planners.h"

namespace microaot {

// One memory region. Every buffer placed in it is aligned to at least `alignment` (so the pool's symbol
// must be aligned to it too).
struct PoolSpec {
  std::string name;
  int64_t size = 0;       // bytes available
  int64_t alignment = 1;  // > 0
};

struct PooledPlan {
  bool ok = false;
  std::vector<size_t> pool;      // per record: index into the pools
  std::vector<int64_t> offsets;  // per record: offset inside its pool
  std::vector<int64_t> used;     // per pool: arena bytes its buffers take (<= its size when ok)
  std::vector<std::string> planners;  // per pool: the planner that made its arena ("" when empty)
  // When !ok: the arena everything would need in the first pool alone, and the sum of the pool sizes.
  int64_t required_bytes = 0;
  int64_t available_bytes = 0;
};

// Places the request across `pools` in priority order. Everything starts in pool 0; while a pool does not
// fit, one buffer at its most crowded op moves to the next pool (the smallest one that covers the excess,
// else the largest; ties: shorter lifetime, then record order), first by the lower bound (cheap), then by
// the planned arena. Permits only apply when both buffers end up in the same pool. Fails (ok = false) when
// the last pool overflows. Deterministic when `planner` is.
PooledPlan plan_pools(const PlanRequest& request, const std::vector<PoolSpec>& pools, PlannerFn planner);

// Checks a pooled plan: every record in a valid pool, each pool within its size, and each pool's buffers
// (with the pool's alignment, and the permits inside it) accepted by check_plan(). Problems as check_plan's,
// prefixed with the pool's name.
std::vector<std::string> check_pooled_plan(const PlanRequest& request, const std::vector<PoolSpec>& pools,
                                           const PooledPlan& plan);

}  // namespace microaot
