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

// Why plan_pools gave up. Every kind but kNoPlacement is a proof that no placement exists.
enum class PoolFailureKind {
  kNone,
  kTooLarge,     // buffers[0] is larger than every pool (a buffer is never split across pools)
  kOnePoolOnly,  // `buffers` fit in no pool but `pool` and, live together at `op`, need more than it holds
  kTotal,        // at `op` the buffers live there need more than all pools together hold
  kNoPlacement,  // nothing above holds, but the spill found no placement: `pool` still needed more
};

struct PoolFailure {
  PoolFailureKind kind = PoolFailureKind::kNone;
  size_t pool = 0;              // kTooLarge: the largest pool; kOnePoolOnly, kNoPlacement: the pool that overflows
  int op = -1;                  // kOnePoolOnly, kTotal: where the buffers are live together
  std::vector<size_t> buffers;  // the records concerned (live at `op`), by record index
  int64_t required_bytes = 0;   // the least these buffers need (kNoPlacement: what `pool` needed at the end)
  int64_t available_bytes = 0;  // what `pool` holds (kTotal: all pools together)
};

struct PooledPlan {
  bool ok = false;
  std::vector<size_t> pool;      // per record: index into the pools
  std::vector<int64_t> offsets;  // per record: offset inside its pool
  std::vector<int64_t> used;     // per pool: arena bytes its buffers take (<= its size when ok)
  std::vector<std::string> planners;  // per pool: the planner that made its arena ("" when empty)
  PoolFailure failure;                // when !ok
};

// Places the request across `pools` in priority order; a buffer only ever goes to a pool it fits in.
// 1. Each buffer starts in the first pool that can hold it.
// 2. While a pool does not fit, one of its buffers moves to the next pool that can hold it (preferring
//    those the lower bound of that pool still allows): while even this pool's lower bound (placement.h) is
//    too large, one live where that bound peaks (the smallest that covers the excess, else the largest);
//    then the one whose removal lets the planned arena fit with the fewest bytes moved, else shrinks it most.
// 3. Buffers in later pools, largest first, move back to the earliest pool that still fits with them.
// Permits only apply when both buffers end up in the same pool. Deterministic when `planner` is. On
// failure, `failure` says why: a proof that no placement exists whenever one of the checks finds it.
PooledPlan plan_pools(const PlanRequest& request, const std::vector<PoolSpec>& pools, PlannerFn planner);

// Checks a pooled plan: every record in a valid pool, each pool within its size, and each pool's buffers
// (with the pool's alignment, and the permits inside it) accepted by check_plan(). Problems as check_plan's,
// prefixed with the pool's name.
std::vector<std::string> check_pooled_plan(const PlanRequest& request, const std::vector<PoolSpec>& pools,
                                           const PooledPlan& plan);

}  // namespace microaot
