// The "linear" planner: no reuse at all, so every intermediate tensor survives the whole run (debug dumps).
// Permits are ignored: nothing overlaps.
#include "memory/planners.h"

namespace microaot {

MemoryPlan plan_linear(const PlanRequest& request) {
  MemoryPlan plan;
  plan.planner = "linear";
  int64_t end = 0;
  for (const BufferRecord& record : request.records) {
    int64_t offset = align_up(end, record.alignment);
    plan.offsets.push_back(offset);
    end = offset + record.size;
  }
  plan.arena_size = end;
  return plan;
}

}  // namespace microaot
