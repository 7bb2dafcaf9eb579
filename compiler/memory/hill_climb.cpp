// The "hill_climb" planner: local search over the placement order (after microTVM USMP's hill_climb).
//  1. start from the best of the greedy_by_size and greedy_by_conflicts orders, with permits also the same
//     orders with in-place chains kept together and placed from their end (cluster_order.cpp);
//  2. each step perturbs the order: either move a buffer that ends at the top of the arena to a random
//     earlier position (it gets first pick of the low offsets), or swap two random positions;
//  3. re-place from the first changed position with lowest fit (the prefix keeps its offsets);
//  4. accept the step when the arena does not grow (sideways steps cross plateaus), remember the best;
//  5. stop at the lower bound, at the step budget, or after kPatience steps without a new best.
// A fixed seed and a fixed step budget make the result a pure function of the request.
#include <algorithm>

#include "memory/placement.h"
#include "memory/planners.h"

namespace microaot {

namespace {

constexpr uint64_t kSeed = 0x9e3779b97f4a7c15ULL;
// Step budget: at most kMaxSteps, and at most kWork placement pair-visits in total (one step re-places up to
// records + conflicting pairs). ~1e6 visits take ~25 ms for 100 densely conflicting records.
constexpr size_t kMaxSteps = 3000;
// Give up after this many steps in a row without a new best (most gains come early).
constexpr size_t kPatience = 500;
constexpr size_t kWork = 1000000;

// splitmix64: tiny, and identical on every platform (std:: distributions are not).
struct Rng {
  uint64_t state;
  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  size_t below(size_t n) { return static_cast<size_t>(next() % n); }
};

// Applies one random move to `order` and returns the first position it changed.
size_t perturb(const PlacementContext& context, const std::vector<int64_t>& offsets, int64_t arena,
               std::vector<size_t>& order, Rng& rng) {
  const size_t n = order.size();
  if (rng.below(2) == 0) {
    std::vector<size_t> top;  // positions of buffers ending at the arena's top
    for (size_t k = 0; k < n; ++k) {
      if (context.record(order[k]).size > 0 && offsets[order[k]] + context.record(order[k]).size == arena) top.push_back(k);
    }
    size_t j = top.empty() ? rng.below(n) : top[rng.below(top.size())];
    size_t i = rng.below(j + 1);
    std::rotate(order.begin() + static_cast<std::ptrdiff_t>(i), order.begin() + static_cast<std::ptrdiff_t>(j),
                order.begin() + static_cast<std::ptrdiff_t>(j) + 1);
    return i;
  }
  size_t i = rng.below(n), j = rng.below(n);
  std::swap(order[i], order[j]);
  return std::min(i, j);
}

}  // namespace

MemoryPlan plan_hill_climb(const PlanRequest& request) {
  PlacementContext context(request);
  const size_t n = context.size();
  std::vector<size_t> order = best_start_order(context);

  std::vector<int64_t> offsets(n, 0);
  std::vector<char> placed(n, 0);
  int64_t arena = place_suffix(context, order, 0, offsets, placed);
  MemoryPlan best{offsets, arena, "hill_climb"};
  const int64_t bound = plan_lower_bound(request);
  const size_t steps = std::min(kMaxSteps, kWork / (n + context.pair_count() + 1));
  Rng rng{kSeed};
  std::vector<size_t> trial_order;
  std::vector<int64_t> trial_offsets;
  size_t last_gain = 0;
  for (size_t step = 0; step < steps && step - last_gain < kPatience && n > 1 && best.arena_size > bound; ++step) {
    trial_order = order;
    trial_offsets = offsets;
    size_t from = perturb(context, offsets, arena, trial_order, rng);
    int64_t trial_arena = place_suffix(context, trial_order, from, trial_offsets, placed);
    if (trial_arena > arena) continue;
    order.swap(trial_order);
    offsets.swap(trial_offsets);
    arena = trial_arena;
    if (arena < best.arena_size) {
      best = MemoryPlan{offsets, arena, "hill_climb"};
      last_gain = step;
    }
  }
  mark_if_at_lower_bound(request, best);
  return best;
}

}  // namespace microaot
