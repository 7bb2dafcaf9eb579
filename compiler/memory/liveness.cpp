#include "memory/liveness.h"

#include <algorithm>
#include <utility>

namespace microaot {

namespace {

// What the ops and the graph interface do with one storage (a tensor and all its aliases).
struct StorageUse {
  int first = -1;  // first op that reads or writes it, -1 if none
  int last = -1;   // last op that reads or writes it
  bool written = false;
  bool is_input = false;
  bool is_output = false;
};

void touch(StorageUse& use, int op) {
  if (use.first < 0 || op < use.first) use.first = op;
  use.last = std::max(use.last, op);
}

std::vector<StorageUse> collect_uses(const Graph& graph) {
  std::vector<StorageUse> uses(graph.tensors.size());
  for (int op = 0; op < static_cast<int>(graph.ops.size()); ++op) {
    for (int id : graph.ops[op].inputs) {
      if (id != kNoTensor) touch(uses[graph.storage_of(id)], op);
    }
    for (int id : graph.ops[op].outputs) {
      StorageUse& use = uses[graph.storage_of(id)];
      touch(use, op);
      use.written = true;
    }
  }
  for (int id : graph.inputs) uses[graph.storage_of(id)].is_input = true;
  for (int id : graph.outputs) uses[graph.storage_of(id)].is_output = true;
  return uses;
}

}  // namespace

std::vector<BufferRecord> analyze_lifetimes(const Graph& graph, int64_t alignment) {
  MICROAOT_CHECK(alignment > 0, "arena alignment must be positive");
  const int last_op = std::max(0, static_cast<int>(graph.ops.size()) - 1);
  std::vector<StorageUse> uses = collect_uses(graph);
  std::vector<BufferRecord> records;
  for (int id = 0; id < static_cast<int>(graph.tensors.size()); ++id) {
    const Tensor& tensor = graph.tensors[id];
    const StorageUse& use = uses[id];
    if (tensor.alias_of >= 0 || tensor.is_constant || tensor.is_persistent) continue;  // persistent: own region
    if (use.first < 0 && !use.is_input && !use.is_output) continue;  // mentioned nowhere
    MICROAOT_CHECK(tensor.byte_size() >= 0, "tensor " + std::to_string(id) + " has a negative byte size");
    BufferRecord record;
    record.tensor_id = id;
    record.alignment = std::max<int64_t>(alignment, static_cast<int64_t>(dtype_size(tensor.dtype)));
    record.size = align_up(tensor.byte_size(), record.alignment);
    // Contents set before run() (inputs, or storage no op writes) must survive from the first op on.
    record.first_op = (use.is_input || !use.written) ? 0 : use.first;
    record.last_op = use.is_output ? last_op : std::max(use.last, record.first_op);
    records.push_back(record);
  }
  return records;
}

PeakInfo peak_live_bytes(const std::vector<BufferRecord>& records) {
  // Sweep over lifetime starts (+size at first_op) and ends (-size at last_op + 1); after all events at a
  // position, `live` is what is live during that op.
  std::vector<std::pair<int64_t, int64_t>> events;
  for (const BufferRecord& r : records) {
    events.emplace_back(r.first_op, r.size);
    events.emplace_back(static_cast<int64_t>(r.last_op) + 1, -r.size);
  }
  std::sort(events.begin(), events.end());
  PeakInfo peak;
  int64_t live = 0;
  for (size_t i = 0; i < events.size();) {
    int64_t position = events[i].first;
    for (; i < events.size() && events[i].first == position; ++i) live += events[i].second;
    if (peak.op < 0 || live > peak.bytes) {
      peak.bytes = live;
      peak.op = static_cast<int>(position);
    }
  }
  return peak;
}

PeakInfo classic_bound(const std::vector<BufferRecord>& records) {
  std::vector<BufferRecord> tensors;
  for (const BufferRecord& r : records) {
    if (r.kind == BufferKind::kTensor) tensors.push_back(r);
  }
  return peak_live_bytes(tensors);
}

std::vector<size_t> live_records_at(const std::vector<BufferRecord>& records, int op) {
  std::vector<size_t> live;
  for (size_t i = 0; i < records.size(); ++i) {
    if (records[i].first_op <= op && records[i].last_op >= op && records[i].size != 0) live.push_back(i);
  }
  return live;
}

}  // namespace microaot
