// The "branch_and_bound" planner: exact depth-first search over placement orders.
// Why it is exact without permits: take an optimal plan, sort its buffers by (offset, index) and place them
// in that order with lowest fit; every buffer lands at or below its old offset. Repeating this ends in a plan
// at least as good whose own (offset, index) order reproduces it. So it suffices to search orders whose
// lowest-fit offsets never decrease: a child of a node is any unplaced buffer whose lowest fit (offset, index)
// comes after the last placed one's. The offsets chosen are therefore always ends of conflicting buffers.
// Pruning, with `o` the last placed offset (every unplaced buffer will go at or above it):
//  - each unplaced buffer ends at or above max(its lowest fit, o) + size;
//  - at each op, the unplaced buffers live there go at or above the lowest of their fits (floor); the bytes
//    of the placed live buffers above that floor plus the unplaced ones must fit above it (less what permits
//    handing over at that op may overlap).
// The incumbent starts as the hill_climb plan (itself never worse than the greedy ones), so the search
// mostly has to prove it; it stops at the lower bound or when the node budget runs out (then it returns
// the best found, not proven).
// With permits the lowest-fit search is not complete; the result is proven only when it meets the bound.
#include <algorithm>
#include <cstdint>

#include "memory/placement.h"
#include "memory/planners.h"

namespace microaot {

namespace {

// Node budget: at most kMaxNodes, and at most kWork pair-visits (a node costs about records + conflicting
// pairs + ops); 4e6 visits take ~10-40 ms. With permits an exhausted search proves nothing (it is not
// complete), so it only hunts for improvements on the hill_climb plan with a smaller budget.
constexpr size_t kMaxNodes = 100000;
constexpr size_t kWork = 4000000;
constexpr size_t kWorkWithPermits = 250000;

class Search {
 public:
  Search(const PlacementContext& context, const MemoryPlan& incumbent)
      : context_(context), offsets_(context.size(), 0), placed_(context.size(), 0), best_(incumbent) {
    for (size_t i = 0; i < context.size(); ++i) {
      if (context.record(i).size > 0) items_.push_back(i);
    }
    index_ops();
    bound_ = plan_lower_bound(context.request());
    size_t work = context.has_permits() ? kWorkWithPermits : kWork;
    budget_ = std::min(kMaxNodes, work / (items_.size() + context.pair_count() + positions_.size() + 1));
  }

  void run() {
    if (best_.arena_size > bound_) descend(0, 0, -1, 0);
  }
  const MemoryPlan& best() const { return best_; }
  bool complete() const { return !aborted_; }

 private:
  // Ops compressed to the distinct first ops (live sets change only there); each record spans [start, stop).
  void index_ops() {
    for (size_t i : items_) positions_.push_back(context_.record(i).first_op);
    std::sort(positions_.begin(), positions_.end());
    positions_.erase(std::unique(positions_.begin(), positions_.end()), positions_.end());
    start_.assign(context_.size(), 0);
    stop_.assign(context_.size(), 0);
    for (size_t i : items_) {
      const BufferRecord& r = context_.record(i);
      start_[i] = std::lower_bound(positions_.begin(), positions_.end(), r.first_op) - positions_.begin();
      stop_[i] = std::upper_bound(positions_.begin(), positions_.end(), r.last_op) - positions_.begin();
    }
    savings_.assign(positions_.size() + 1, 0);
    for (const OverlapPermit& p : context_.request().permits) {
      if (!permit_is_valid(context_.request().records, p)) continue;
      auto it = std::lower_bound(positions_.begin(), positions_.end(), context_.record(p.output).first_op);
      if (it != positions_.end() && *it == context_.record(p.output).first_op) {
        savings_[it - positions_.begin()] += permit_max_overlap(context_.request().records, p);
      }
    }
  }

  // A bound on the arena from each op t: every unplaced buffer live at t ends up at or above floor_t, the
  // lowest of their current fits (and o); so the bytes above floor_t of the placed buffers live at t plus
  // the unplaced ones must fit above floor_t (less what permits at t may overlap).
  int64_t crowding_bound(const std::vector<int64_t>& fit, int64_t o) {
    floor_.assign(positions_.size(), INT64_MAX);
    for (size_t i : items_) {
      if (placed_[i]) continue;
      for (size_t k = start_[i]; k < stop_[i]; ++k) floor_[k] = std::min(floor_[k], std::max(fit[i], o));
    }
    live_.assign(positions_.size(), 0);
    for (size_t i : items_) {
      const BufferRecord& r = context_.record(i);
      for (size_t k = start_[i]; k < stop_[i]; ++k) {
        if (floor_[k] == INT64_MAX) continue;  // nothing left to place at this op
        live_[k] += placed_[i] ? std::max<int64_t>(0, offsets_[i] + r.size - std::max(offsets_[i], floor_[k])) : r.size;
      }
    }
    int64_t bound = 0;
    for (size_t k = 0; k < positions_.size(); ++k) {
      if (floor_[k] != INT64_MAX) bound = std::max(bound, floor_[k] + live_[k] - savings_[k]);
    }
    return bound;
  }

  void descend(size_t depth, int64_t last_offset, int64_t last_index, int64_t top) {
    if (best_.arena_size <= bound_ || aborted_) return;
    if (++nodes_ > budget_) {
      aborted_ = true;
      return;
    }
    if (depth == items_.size()) {
      if (top < best_.arena_size) best_ = MemoryPlan{offsets_, top, "branch_and_bound"};
      return;
    }
    std::vector<std::pair<int64_t, size_t>> children;
    std::vector<int64_t> fit(context_.size(), 0);
    int64_t bound = top;
    for (size_t x : items_) {
      if (placed_[x]) continue;
      const BufferRecord& r = context_.record(x);
      fit[x] = context_.lowest_fit(x, offsets_, placed_);
      bound = std::max(bound, std::max(fit[x], align_up(last_offset, r.alignment)) + r.size);
      if (fit[x] > last_offset || (fit[x] == last_offset && static_cast<int64_t>(x) > last_index)) {
        children.emplace_back(fit[x], x);
      }
    }
    if (children.empty() || bound >= best_.arena_size) return;
    if (crowding_bound(fit, last_offset) >= best_.arena_size) return;
    // Lowest first, then largest: the first dive is a sensible greedy plan.
    std::sort(children.begin(), children.end(), [&](const auto& a, const auto& b) {
      if (a.first != b.first) return a.first < b.first;
      if (context_.record(a.second).size != context_.record(b.second).size) {
        return context_.record(a.second).size > context_.record(b.second).size;
      }
      return a.second < b.second;
    });
    for (const auto& child : children) {
      offsets_[child.second] = child.first;
      placed_[child.second] = 1;
      descend(depth + 1, child.first, static_cast<int64_t>(child.second),
              std::max(top, child.first + context_.record(child.second).size));
      placed_[child.second] = 0;
      if (aborted_ || best_.arena_size <= bound_) return;
    }
  }

  const PlacementContext& context_;
  std::vector<size_t> items_;  // the non-empty buffers; empty ones stay at offset 0
  std::vector<int64_t> offsets_;
  std::vector<char> placed_;
  MemoryPlan best_;
  int64_t bound_ = 0;
  size_t budget_ = 0, nodes_ = 0;
  bool aborted_ = false;
  std::vector<int> positions_;
  std::vector<size_t> start_, stop_;
  std::vector<int64_t> savings_, floor_, live_;
};

}  // namespace

MemoryPlan plan_branch_and_bound(const PlanRequest& request) {
  return branch_and_bound_from(request, plan_hill_climb(request));  // itself never worse than either greedy
}

MemoryPlan branch_and_bound_from(const PlanRequest& request, MemoryPlan incumbent) {
  PlacementContext context(request);
  incumbent.planner = "branch_and_bound";
  incumbent.proven_optimal = false;
  Search search(context, incumbent);
  search.run();
  MemoryPlan plan = search.best();
  plan.proven_optimal = search.complete() && !context.has_permits();
  mark_if_at_lower_bound(request, plan);
  return plan;
}

}  // namespace microaot
