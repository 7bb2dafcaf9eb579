#include "memory/arena_bounds.h"

#include <algorithm>

#include "memory/liveness.h"

namespace microaot {

bool is_graph_interface(const Graph& graph, int storage) {
  const auto is_storage = [&](int id) { return graph.storage_of(id) == storage; };
  return std::any_of(graph.inputs.begin(), graph.inputs.end(), is_storage) ||
         std::any_of(graph.outputs.begin(), graph.outputs.end(), is_storage);
}

std::vector<BufferRecord> arena_records(const Graph& graph, int64_t alignment, bool io_in_arena) {
  std::vector<BufferRecord> records = analyze_lifetimes(graph, alignment);
  if (io_in_arena) return records;
  records.erase(std::remove_if(records.begin(), records.end(),
                               [&](const BufferRecord& r) { return is_graph_interface(graph, r.tensor_id); }),
                records.end());
  return records;
}

int64_t source_order_bound(const Graph& graph, int64_t alignment, bool io_in_arena) {
  Graph original = graph;
  std::stable_sort(original.ops.begin(), original.ops.end(),
                   [](const Op& a, const Op& b) { return a.source_index < b.source_index; });
  return classic_bound(arena_records(original, alignment, io_in_arena)).bytes;
}

}  // namespace microaot
