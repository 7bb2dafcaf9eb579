// memory_plan.txt: the human-readable memory plan (planner, arena, lower bound, peak op, every buffer, aliases),
// plus the small facts about a plan that both it and the SVG map (plan_svg.h) show.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/graph.h"
#include "memory/buffer.h"

namespace microaot {

// A permit the plan actually uses: the output shares bytes with its input while both are live.
struct InPlaceUse {
  size_t output = 0;  // index into the records
  size_t input = 0;   // index into the records
  int64_t shift = 0;  // offset(output) - offset(input), bytes
};

// The permits whose two buffers share at least one byte in `plan` while their lifetimes intersect, in
// permit order. Computed from offsets and sizes only; a plan overlapping without a permit is check_plan's job.
std::vector<InPlaceUse> used_in_place(const PlanRequest& request, const MemoryPlan& plan);

// How a buffer is named in reports: the owning tensor's name, or "scratch of CONV_2D (step 3)".
std::string buffer_name(const Graph& graph, const BufferRecord& record);
// "t12" for a tensor buffer, "scratch" for a kernel temporary.
std::string buffer_tag(const BufferRecord& record);
// "3 CONV_2D": a step in execution order and the op there ("3 ?" when the graph has no such op).
std::string step_label(const Graph& graph, int step);

// The report text, at most ~120 columns (long names are shortened in the middle). Deterministic: buffers
// ordered by offset, then first op, then record index; aliases by tensor id; op positions are steps
// (indices in execution order) with the op's name. The lower bound is peak_live_bytes of the records.
std::string format_memory_plan(const Graph& graph, const PlanRequest& request, const MemoryPlan& plan);

}  // namespace microaot
