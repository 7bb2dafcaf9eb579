#include "memory/placement.h"

#include <algorithm>
#include <map>
#include <utility>

namespace microaot {

namespace {

// Valid permits, one per (output, input) pair (the most generous when repeated), with max_shift clamped to
// [-size(output), size(input)]: every shift at or below -size(output) forbids any overlap and every shift at
// or above size(input) allows all, so clamping changes nothing but keeps the arithmetic far from overflow.
std::vector<OverlapPermit> normalized_permits(const PlanRequest& request) {
  std::map<std::pair<size_t, size_t>, int64_t> best;
  for (const OverlapPermit& p : request.permits) {
    if (!permit_is_valid(request.records, p)) continue;
    int64_t shift = std::min(std::max(p.max_shift, -request.records[p.output].size), request.records[p.input].size);
    auto key = std::make_pair(p.output, p.input);
    auto it = best.find(key);
    if (it == best.end()) {
      best.emplace(key, shift);
    } else {
      it->second = std::max(it->second, shift);
    }
  }
  std::vector<OverlapPermit> permits;
  for (const auto& entry : best) permits.push_back(OverlapPermit{entry.first.first, entry.first.second, entry.second});
  return permits;
}

}  // namespace

bool permit_is_valid(const std::vector<BufferRecord>& records, const OverlapPermit& p) {
  if (p.output >= records.size() || p.input >= records.size() || p.output == p.input) return false;
  const BufferRecord& out = records[p.output];
  const BufferRecord& in = records[p.input];
  return out.kind == BufferKind::kTensor && in.kind == BufferKind::kTensor && in.last_op == out.first_op;
}

PlacementContext::PlacementContext(const PlanRequest& request)
    : request_(request), conflicts_(request.records.size()), permits_by_record_(request.records.size()) {
  const std::vector<BufferRecord>& records = request.records;
  for (size_t i = 0; i < records.size(); ++i) {
    if (records[i].size <= 0) continue;
    for (size_t j = 0; j < records.size(); ++j) {
      if (j != i && records[j].size > 0 && lifetimes_intersect(records[i], records[j])) conflicts_[i].push_back(j);
    }
    pair_count_ += conflicts_[i].size();
  }
  permits_ = normalized_permits(request);
  for (const OverlapPermit& p : permits_) {
    permits_by_record_[p.output].push_back(PermitRef{p.input, true, p.max_shift});
    permits_by_record_[p.input].push_back(PermitRef{p.output, false, p.max_shift});
  }
}

bool PlacementContext::forbidden(size_t x, size_t y, int64_t oy, int64_t& lo, int64_t& hi) const {
  // Without a permit x may not share a byte with y: offsets oy - size(x) + 1 .. oy + size(y) - 1.
  lo = oy - record(x).size + 1;
  hi = oy + record(y).size - 1;
  bool permitted = false;
  int64_t both_lo = lo, both_hi = hi;
  for (const PermitRef& ref : permits_by_record_[x]) {
    if (ref.other != y) continue;
    // x over y is fine when ox - oy <= shift; y over x when oy - ox <= shift. Only the rest is forbidden.
    int64_t plo = ref.self_is_output ? std::max(lo, oy + ref.max_shift + 1) : lo;
    int64_t phi = ref.self_is_output ? hi : std::min(hi, oy - ref.max_shift - 1);
    // Two permits (both directions): an offset is forbidden only when neither allows it.
    both_lo = permitted ? std::max(both_lo, plo) : plo;
    both_hi = permitted ? std::min(both_hi, phi) : phi;
    permitted = true;
  }
  lo = both_lo;
  hi = both_hi;
  return lo <= hi;
}

int64_t PlacementContext::lowest_fit(size_t x, const std::vector<int64_t>& offsets,
                                     const std::vector<char>& placed, int64_t from) const {
  const BufferRecord& r = record(x);
  int64_t candidate = align_up(std::max<int64_t>(from, 0), r.alignment);
  if (r.size <= 0) return candidate;
  intervals_.clear();
  for (size_t y : conflicts_[x]) {
    int64_t lo = 0, hi = 0;
    if (placed[y] && forbidden(x, y, offsets[y], lo, hi)) intervals_.emplace_back(lo, hi);
  }
  std::sort(intervals_.begin(), intervals_.end());
  // Sorted by start: every interval passed either lies below the candidate or pushed it past its end.
  for (const auto& interval : intervals_) {
    if (interval.first > candidate) break;
    if (interval.second >= candidate) candidate = align_up(interval.second + 1, r.alignment);
  }
  return candidate;
}

int64_t place_suffix(const PlacementContext& context, const std::vector<size_t>& order, size_t from,
                     std::vector<int64_t>& offsets, std::vector<char>& placed) {
  for (size_t k = from; k < order.size(); ++k) placed[order[k]] = 0;
  for (size_t k = from; k < order.size(); ++k) {
    offsets[order[k]] = context.lowest_fit(order[k], offsets, placed);
    placed[order[k]] = 1;
  }
  int64_t arena = 0;
  for (size_t i = 0; i < context.size(); ++i) arena = std::max(arena, offsets[i] + context.record(i).size);
  return arena;
}

MemoryPlan place_in_order(const PlacementContext& context, const std::vector<size_t>& order,
                          const std::string& planner) {
  MemoryPlan plan;
  plan.planner = planner;
  plan.offsets.assign(context.size(), 0);
  std::vector<char> placed(context.size(), 0);
  plan.arena_size = place_suffix(context, order, 0, plan.offsets, placed);
  mark_if_at_lower_bound(context.request(), plan);
  return plan;
}

int64_t permit_max_overlap(const std::vector<BufferRecord>& records, const OverlapPermit& p) {
  // Shift d = offset(output) - offset(input) <= max_shift; the overlap of [d, d + size_out) with
  // [0, size_in) is largest at d = 0 when that is allowed, else at d = max_shift.
  int64_t size_in = records[p.input].size;
  int64_t size_out = records[p.output].size;
  int64_t overlap = std::min(size_in, size_out + std::min<int64_t>(p.max_shift, 0));
  return std::max<int64_t>(overlap, 0);
}

int64_t plan_lower_bound(const PlanRequest& request) {
  const std::vector<BufferRecord>& records = request.records;
  std::map<int, int64_t> savings;  // op -> bytes the permits handing over there may let overlap
  for (const OverlapPermit& p : normalized_permits(request)) {
    savings[records[p.output].first_op] += permit_max_overlap(records, p);
  }
  std::vector<int> positions;
  int64_t bound = 0;
  for (const BufferRecord& r : records) {
    positions.push_back(r.first_op);
    bound = std::max(bound, r.size);
  }
  for (const auto& entry : savings) positions.push_back(entry.first);
  std::sort(positions.begin(), positions.end());
  positions.erase(std::unique(positions.begin(), positions.end()), positions.end());
  // Live bytes only change at first ops, so those (and the hand-over ops) are the only places to look.
  for (int op : positions) {
    int64_t live = 0;
    for (const BufferRecord& r : records) {
      if (r.first_op <= op && op <= r.last_op) live += r.size;
    }
    auto it = savings.find(op);
    bound = std::max(bound, live - (it == savings.end() ? 0 : it->second));
  }
  return bound;
}

void mark_if_at_lower_bound(const PlanRequest& request, MemoryPlan& plan) {
  if (plan.arena_size <= plan_lower_bound(request)) plan.proven_optimal = true;
}

}  // namespace microaot
