// The "greedy_by_size" planner, after TFLM's GreedyMemoryPlanner:
//  1. order buffers by size, largest first (ties: earlier first_op, then tensor id, then record index);
//  2. place each at its lowest fit: the lowest aligned offset where it shares no byte with an already placed
//     buffer whose lifetime intersects its own, except the overlaps a permit allows (placement.h);
//  3. the arena is the highest end of any buffer.
// Big buffers first leaves the small ones to fill the holes between them.
#include <algorithm>
#include <numeric>

#include "memory/placement.h"
#include "memory/planners.h"

namespace microaot {

std::vector<size_t> greedy_by_size_order(const std::vector<BufferRecord>& records) {
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

MemoryPlan plan_greedy_by_size(const PlanRequest& request) {
  PlacementContext context(request);
  return place_in_order(context, greedy_by_size_order(request.records), "greedy_by_size");
}

}  // namespace microaot
