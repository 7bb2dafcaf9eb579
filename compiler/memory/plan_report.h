// memory_plan.txt: the human-readable memory plan (pools, arena, lower bound, peak op, every buffer, full
// tensor names, aliases), plus the small facts about a plan that both it and the SVG map (plan_svg.h) show.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/graph.h"
#include "memory/buffer.h"

namespace microaot {

// One memory of a plan over several pools (--pool): its name, size, the bytes its buffers take, the
// planner that placed them ("" when empty) and its C symbol.
struct PoolReport {
  std::string name;
  int64_t size = 0;
  int64_t used = 0;
  std::string planner;
  std::string symbol;
};

// Which memory each buffer is in. Empty (the default): one arena, every offset in it.
struct PoolLayout {
  std::vector<PoolReport> pools;
  std::vector<size_t> pool_of;  // per record: index into pools

  bool empty() const { return pools.empty(); }
  // Whether records a and b are in the same memory (always, with one arena).
  bool same_pool(size_t a, size_t b) const { return pool_of.empty() || pool_of.at(a) == pool_of.at(b); }
};

// A permit the plan actually uses: the output shares bytes with its input while both are live.
struct InPlaceUse {
  size_t output = 0;  // index into the records
  size_t input = 0;   // index into the records
  int64_t shift = 0;  // offset(output) - offset(input), bytes
};

// The permits whose two buffers share at least one byte in `plan` (in the same pool) while their lifetimes
// intersect, in permit order. From offsets and sizes only; a plan overlapping without a permit is
// check_plan's job.
std::vector<InPlaceUse> used_in_place(const PlanRequest& request, const MemoryPlan& plan,
                                      const PoolLayout& pools = {});

// How a buffer is named in reports: the owning tensor's name, or "scratch of CONV_2D (step 3)".
std::string buffer_name(const Graph& graph, const BufferRecord& record);
// "t12" for a tensor buffer, "scratch" for a kernel temporary.
std::string buffer_tag(const BufferRecord& record);
// "3 CONV_2D": a step in execution order and the op there ("3 ?" when the graph has no such op).
std::string step_label(const Graph& graph, int step);

// The tensor buffers live at the step where the classic bound (liveness.h) peaks, largest first (ties:
// record order); their sizes add up to the bound. Empty buffers are left out (they add nothing).
std::vector<size_t> peak_buffers(const std::vector<BufferRecord>& records);

// The report text, lines of at most 120 columns. Deterministic: buffers ordered by pool, offset, first op,
// record index; op positions are steps (indices in execution order) with the op's name. Buffers are named
// by tag (t12) in the tables; a names table at the end gives every tensor's full name, wrapped (a
// continuation line starts with spaces up to the name column; joining the pieces gives the name back).
std::string format_memory_plan(const Graph& graph, const PlanRequest& request, const MemoryPlan& plan,
                               const PoolLayout& pools = {});

}  // namespace microaot
