// memory_plan.txt: the human-readable memory plan (planner, arena size, lower bound, every buffer).
#pragma once

#include <string>
#include <vector>

#include "ir/graph.h"
#include "memory/buffer.h"

namespace microaot {

// The report text. Deterministic: buffers ordered by offset then tensor id, aliases by tensor id, op
// positions are indices in execution order. Records and plan are those the compiler will emit.
std::string format_memory_plan(const Graph& graph, const std::vector<BufferRecord>& records,
                               const MemoryPlan& plan);

}  // namespace microaot
