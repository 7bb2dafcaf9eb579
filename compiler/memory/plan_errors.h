// The texts of the memory stage's failures (RAM budget, tiling, pools, state, arena limit), as functions of
// the numbers and names compile/plan_checks.cpp gathers from the model: one place for their wording.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "memory/pools.h"

namespace microaot {

// A buffer or a pool as the texts list it.
struct NamedBytes {
  std::string name;
  int64_t bytes = 0;
};

// What fused bands do and could do, for the budget error.
struct TilingFacts {
  int64_t floor_bytes = 0;          // the lowest classic bound bands reach (<= 0: none)
  int64_t untiled_bound_bytes = 0;  // the classic bound without bands
  bool graph_executor = false;      // --executor graph: bands are never used
  bool tiling_on = true;            // --tiling auto
  size_t chains = 0;                // chains the plan runs
};
std::string tiling_help_text(const TilingFacts& facts);

struct BudgetFacts {
  int64_t required_bytes = 0;
  int64_t budget_bytes = 0;
  std::string macro;                      // the module's macro prefix (NAME of NAME_ARENA_SIZE)
  size_t pools = 0;                       // --pool options given
  bool io_in_arena = true;
  std::string peak_step;                  // "" when no step holds the peak, else "step N, <op>"
  std::vector<NamedBytes> live_at_peak;   // the buffers live there
  std::vector<NamedBytes> smaller_plans;  // planners whose arena is smaller than the chosen one
  int64_t alignment = 0;
  TilingFacts tiling;
};
// "Static memory planning failed. Required: ..., Available: ...", where the peak is and what could help.
std::string budget_failure_text(const BudgetFacts& facts);

// Why the pools cannot hold the buffers, in the words of the flags (the first --pool is the arena).
// `pools`: the --pool options; `buffers`: f.buffers named; `step`: "step N, <op>" for f.op (kOnePoolOnly, kTotal).
std::string pool_failure_text(const PoolFailure& f, const std::vector<NamedBytes>& pools,
                              const std::vector<NamedBytes>& buffers, const std::string& step);

// The model's state does not fit the first pool after its activations.
std::string persistent_overflow_text(const NamedBytes& first_pool, int64_t end, int64_t persistent_bytes,
                                     int64_t arena_bytes);

// The generated code indexes memories with 32-bit sizes.
std::string arena_limit_text(int64_t required_bytes);

}  // namespace microaot
