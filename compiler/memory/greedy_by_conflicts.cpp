// The "greedy_by_conflicts" planner (after microTVM USMP's greedy_by_conflicts):
//  1. weigh each buffer by its conflict weight: its own size plus the sizes of every buffer whose lifetime
//     intersects its own, i.e. the bytes that must coexist with it somewhere;
//  2. place the heaviest first (ties: larger, then earlier first_op, then record index) at its lowest fit.
// Buffers in the most crowded stretch of the schedule get packed first, before small gaps fragment it.
#include <algorithm>
#include <numeric>

#include "memory/placement.h"
#include "memory/planners.h"

namespace microaot {

std::vector<size_t> greedy_by_conflicts_order(const PlacementContext& context) {
  std::vector<int64_t> weight(context.size(), 0);
  for (size_t i = 0; i < context.size(); ++i) {
    weight[i] = context.record(i).size;
    for (size_t j : context.conflicts(i)) weight[i] += context.record(j).size;
  }
  std::vector<size_t> order(context.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (weight[a] != weight[b]) return weight[a] > weight[b];
    const BufferRecord& x = context.record(a);
    const BufferRecord& y = context.record(b);
    if (x.size != y.size) return x.size > y.size;
    if (x.first_op != y.first_op) return x.first_op < y.first_op;
    return a < b;
  });
  return order;
}

MemoryPlan plan_greedy_by_conflicts(const PlanRequest& request) {
  PlacementContext context(request);
  return place_in_order(context, greedy_by_conflicts_order(context), "greedy_by_conflicts");
}

}  // namespace microaot
