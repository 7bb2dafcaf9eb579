// The "greedy_by_size" planner, after TFLM's GreedyMemoryPlanner:
//  1. order buffers by size, largest first (ties: earlier first_op, then tensor id, then record index);
//  2. for each buffer, list the already placed buffers whose lifetimes intersect its own, by offset;
//  3. walk that list from offset 0 and take the first aligned gap large enough;
//  4. the arena is the highest end of any buffer.
// Big buffers first leaves the small ones to fill the holes between them.
#include <algorithm>
#include <numeric>

#include "memory/planners.h"

namespace microaot {

namespace {

std::vector<size_t> placement_order(const std::vector<BufferRecord>& records) {
  std::vector<size_t> order(records.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const BufferRecord& x = records[a];
    const BufferRecord& y = records[b];
    if (x.size != y.size) return x.size > y.size;
    if (x.first_op != y.first_op) return x.first_op < y.first_op;
    if (x.tensor_id != y.tensor_id) return x.tensor_id < y.tensor_id;
    return a < b;
  });
  return order;
}

// Lowest offset for records[index] that is aligned and misses every placed, lifetime-conflicting buffer.
int64_t lowest_free_offset(const std::vector<BufferRecord>& records, const std::vector<int64_t>& offsets,
                           const std::vector<size_t>& placed, size_t index) {
  const BufferRecord& record = records[index];
  std::vector<size_t> conflicts;
  for (size_t other : placed) {
    // Empty buffers occupy no bytes, so they never block a placement.
    if (records[other].size > 0 && lifetimes_intersect(record, records[other])) conflicts.push_back(other);
  }
  std::sort(conflicts.begin(), conflicts.end(), [&](size_t a, size_t b) {
    return offsets[a] != offsets[b] ? offsets[a] < offsets[b] : a < b;
  });
  int64_t candidate = 0;
  for (size_t other : conflicts) {
    // Sorted by offset: once the gap before `other` fits, every later buffer starts even higher.
    if (candidate + record.size <= offsets[other]) break;
    int64_t other_end = offsets[other] + records[other].size;
    if (other_end > candidate) candidate = align_up(other_end, record.alignment);
  }
  return candidate;
}

}  // namespace

MemoryPlan plan_greedy_by_size(const std::vector<BufferRecord>& records) {
  MemoryPlan plan;
  plan.planner = "greedy_by_size";
  plan.offsets.assign(records.size(), 0);
  std::vector<size_t> placed;
  for (size_t index : placement_order(records)) {
    plan.offsets[index] = lowest_free_offset(records, plan.offsets, placed, index);
    plan.arena_size = std::max(plan.arena_size, plan.offsets[index] + records[index].size);
    placed.push_back(index);
  }
  return plan;
}

}  // namespace microaot
