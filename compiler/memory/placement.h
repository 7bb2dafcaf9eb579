// The placement core shared by the planners (never by the checker): which buffers conflict, which overlaps
// the permits allow, "lowest fit" (the lowest aligned offset free of every placed conflicting buffer), and
// the lower bound on any arena. Planners differ only in the order they hand buffers to lowest fit.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "memory/buffer.h"

namespace microaot {

class PlacementContext {
 public:
  explicit PlacementContext(const PlanRequest& request);

  const PlanRequest& request() const { return request_; }
  size_t size() const { return request_.records.size(); }
  const BufferRecord& record(size_t i) const { return request_.records[i]; }
  // Non-empty buffers whose lifetimes intersect records[i] (empty for an empty buffer); ascending.
  const std::vector<size_t>& conflicts(size_t i) const { return conflicts_[i]; }
  // Number of conflicting (ordered) pairs: the cost of one full placement, for work budgets.
  size_t pair_count() const { return pair_count_; }

  // Lowest offset >= `from`, aligned for records[x], where x shares no forbidden byte with any buffer j
  // that has placed[j] != 0 (at offsets[j]).
  int64_t lowest_fit(size_t x, const std::vector<int64_t>& offsets, const std::vector<char>& placed,
                     int64_t from = 0) const;

  // Whether some valid permit lets the pair overlap at all (used by bounds).
  bool has_permits() const { return !permits_.empty(); }
  // The valid permits, one per (output, input) pair, shifts clamped (see placement.cpp).
  const std::vector<OverlapPermit>& permits() const { return permits_; }

 private:
  struct PermitRef {
    size_t other;
    bool self_is_output;
    int64_t max_shift;
  };
  // Offsets of x that would illegally share bytes with y placed at `oy`: [lo, hi]; false when none.
  bool forbidden(size_t x, size_t y, int64_t oy, int64_t& lo, int64_t& hi) const;

  const PlanRequest& request_;
  std::vector<std::vector<size_t>> conflicts_;
  std::vector<std::vector<PermitRef>> permits_by_record_;
  std::vector<OverlapPermit> permits_;  // the valid ones
  size_t pair_count_ = 0;
  mutable std::vector<std::pair<int64_t, int64_t>> intervals_;  // scratch of lowest_fit
};

// True when the permit is well formed for these records (the rules check_plan enforces); planners ignore
// any other permit.
bool permit_is_valid(const std::vector<BufferRecord>& records, const OverlapPermit& permit);

// Places records in `order` (a permutation of every index), each at its lowest fit; sets arena_size.
MemoryPlan place_in_order(const PlacementContext& context, const std::vector<size_t>& order,
                          const std::string& planner);

// Re-places order[from..] keeping order[0..from) where they are; offsets/placed are updated in place and
// the new arena (highest end) is returned. The incremental step of hill climbing.
int64_t place_suffix(const PlacementContext& context, const std::vector<size_t>& order, size_t from,
                     std::vector<int64_t>& offsets, std::vector<char>& placed);

// Placement orders of the greedy planners, reused as starting points by the searches.
std::vector<size_t> greedy_by_size_order(const std::vector<BufferRecord>& records);
std::vector<size_t> greedy_by_conflicts_order(const PlacementContext& context);

// `base` (a permutation of every index) with each group of records joined by permits moved together to
// where its first member was, inside the group every output before the inputs it may overlap (a chain is
// placed from its end backwards, so lowest fit puts each input just where its output's shift allows).
// Without permits it returns `base` (cluster_order.cpp).
std::vector<size_t> permit_cluster_order(const PlacementContext& context, const std::vector<size_t>& base);

// The orders hill_climb starts from (each is one full placement): greedy_by_size, greedy_by_conflicts and,
// with permits, both again as permit clusters; the first with the smallest arena wins.
std::vector<size_t> best_start_order(const PlacementContext& context);

// branch_and_bound's search starting from a given valid plan (plan_branch_and_bound starts from hill_climb's);
// lets "best" reuse the plans it already has.
MemoryPlan branch_and_bound_from(const PlanRequest& request, MemoryPlan incumbent);

// The largest overlap a permit can allow between its two buffers.
int64_t permit_max_overlap(const std::vector<BufferRecord>& records, const OverlapPermit& permit);

// A lower bound on the arena of any valid plan: at each op, the live bytes minus the most that the permits
// handing over at that op can let overlap; also at least the largest buffer. Without permits this is the
// classic peak of simultaneously live bytes.
int64_t plan_lower_bound(const PlanRequest& request);

// Sets plan.proven_optimal when the arena reaches plan_lower_bound (keeps it if already set).
void mark_if_at_lower_bound(const PlanRequest& request, MemoryPlan& plan);

}  // namespace microaot
