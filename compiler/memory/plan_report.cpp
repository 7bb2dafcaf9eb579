#include "memory/plan_report.h"

#include <algorithm>
#include <iomanip>
#include <numeric>
#include <sstream>

#include "memory/liveness.h"

namespace microaot {

namespace {

void write_summary(std::ostringstream& out, const Graph& graph, const std::vector<BufferRecord>& records,
                   const MemoryPlan& plan) {
  PeakInfo peak = peak_live_bytes(records);
  out << "planner: " << plan.planner << "\n";
  out << "arena size: " << plan.arena_size << " bytes\n";
  out << "lower bound (peak live bytes): " << peak.bytes << " bytes";
  if (peak.op >= 0 && peak.op < static_cast<int>(graph.ops.size())) {
    const Op& op = graph.ops[peak.op];
    out << " at step " << peak.op << " (" << op_kind_name(op.kind) << ", op " << op.source_index << ")";
  } else if (peak.op >= 0) {
    out << " at step " << peak.op;
  }
  out << "\n";
  out << "over lower bound: " << plan.arena_size - peak.bytes << " bytes\n";
  out << "buffers: " << records.size() << "\n";
}

void write_buffers(std::ostringstream& out, const Graph& graph, const std::vector<BufferRecord>& records,
                   const MemoryPlan& plan) {
  std::vector<size_t> order(records.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (plan.offsets[a] != plan.offsets[b]) return plan.offsets[a] < plan.offsets[b];
    return records[a].tensor_id != records[b].tensor_id ? records[a].tensor_id < records[b].tensor_id : a < b;
  });
  out << "\n" << std::setw(7) << "tensor" << std::setw(12) << "offset" << std::setw(12) << "size" << std::setw(7)
      << "align" << std::setw(7) << "first" << std::setw(7) << "last" << "  name\n";
  for (size_t i : order) {
    const BufferRecord& r = records[i];
    out << std::setw(7) << r.tensor_id << std::setw(12) << plan.offsets[i] << std::setw(12) << r.size
        << std::setw(7) << r.alignment << std::setw(7) << r.first_op << std::setw(7) << r.last_op << "  "
        << graph.tensor(r.tensor_id).name << "\n";
  }
}

void write_aliases(std::ostringstream& out, const Graph& graph) {
  bool header = false;
  for (int id = 0; id < static_cast<int>(graph.tensors.size()); ++id) {
    if (graph.tensors[id].alias_of < 0) continue;
    if (!header) out << "\naliases (share the storage of another tensor):\n";
    header = true;
    int owner = graph.storage_of(id);
    out << "  tensor " << id << " '" << graph.tensors[id].name << "' alias of tensor " << owner << " '"
        << graph.tensors[owner].name << "'" << (graph.tensors[owner].is_constant ? " (constant)" : "") << "\n";
  }
}

}  // namespace

std::string format_memory_plan(const Graph& graph, const std::vector<BufferRecord>& records,
                               const MemoryPlan& plan) {
  MICROAOT_CHECK(plan.offsets.size() == records.size(), "memory plan does not match its records");
  std::ostringstream out;
  write_summary(out, graph, records, plan);
  write_buffers(out, graph, records, plan);
  write_aliases(out, graph);
  return out.str();
}

}  // namespace microaot
