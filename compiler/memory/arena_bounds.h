// What the arena holds and the classic bounds over it, from the graph alone (before any plan).
#pragma once

#include <cstdint>
#include <vector>

#include "ir/graph.h"
#include "memory/buffer.h"

namespace microaot {

// Whether `storage` is (the storage of) a graph input or output.
bool is_graph_interface(const Graph& graph, int storage);

// The tensor records the arena holds (analyze_lifetimes): with io_in_arena off, graph inputs and outputs get
// buffers of their own, outside the plan.
std::vector<BufferRecord> arena_records(const Graph& graph, int64_t alignment, bool io_in_arena);

// The classic bound of arena_records with the ops in the order of the .tflite file (before schedule_for_memory).
int64_t source_order_bound(const Graph& graph, int64_t alignment, bool io_in_arena);

}  // namespace microaot
