#include "memory/plan_report.h"

#include <algorithm>
#include <locale>
#include <numeric>
#include <set>
#include <sstream>
#include <tuple>

#include "memory/liveness.h"

namespace microaot {

namespace {

constexpr size_t kLineWidth = 120;   // no line is longer
constexpr size_t kMinNameWidth = 24;  // names wrap at this width at the least

std::string pad_left(const std::string& text, size_t width) {
  return text.size() >= width ? text : std::string(width - text.size(), ' ') + text;
}

std::string pad_right(const std::string& text, size_t width) {
  return text.size() >= width ? text : text + std::string(width - text.size(), ' ');
}

// Names come from the model file: control characters would break the lines, so they become '?'.
std::string printable(std::string text) {
  for (char& c : text) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
  }
  return text;
}

// Where to end a line of at most `width` characters of text[at..]: after the last ';' (TFLite joins the
// fused TF ops' names with it), else after the last '/', when that keeps at least half the width.
size_t wrap_point(const std::string& text, size_t at, size_t width) {
  if (text.size() - at <= width) return text.size();
  for (char separator : {';', '/'}) {
    const size_t found = text.rfind(separator, at + width - 1);
    if (found != std::string::npos && found + 1 >= at + width / 2) return found + 1;
  }
  return at + width;
}

std::vector<std::string> wrap(const std::string& text, size_t width) {
  std::vector<std::string> lines;
  for (size_t at = 0; at < text.size() || lines.empty();) {
    const size_t end = wrap_point(text, at, width);
    lines.push_back(text.substr(at, end - at));
    at = end;
  }
  return lines;
}

int64_t total_bytes(const MemoryPlan& plan, const PoolLayout& pools) {
  if (pools.empty()) return plan.arena_size;
  int64_t total = 0;
  for (const PoolReport& p : pools.pools) total += p.used;
  return total;
}

std::string pool_name(const PoolLayout& pools, size_t record) {
  return pools.empty() ? std::string() : pools.pools.at(pools.pool_of.at(record)).name;
}

void write_pools(std::ostringstream& out, const MemoryPlan& plan, const PoolLayout& pools) {
  if (pools.empty()) {
    out << "planner:      " << plan.planner << "\n";
    out << "arena:        " << plan.arena_size << " bytes\n";
    return;
  }
  size_t name_width = 0;
  for (const PoolReport& p : pools.pools) name_width = std::max(name_width, p.name.size());
  for (size_t k = 0; k < pools.pools.size(); ++k) {
    const PoolReport& p = pools.pools[k];
    out << (k == 0 ? "pools:        " : "              ") << pad_right(p.name, name_width) << "  " << p.used
        << " of " << p.size << " bytes used";
    if (!p.planner.empty()) out << ", planner " << p.planner;
    out << " (" << (k == 0 ? "the arena, " : "") << p.symbol << ")\n";
  }
  out << "total:        " << total_bytes(plan, pools) << " bytes in " << pools.pools.size() << " pools\n";
}

void write_peak(std::ostringstream& out, const Graph& graph, const std::vector<BufferRecord>& records,
                const PoolLayout& pools) {
  const PeakInfo peak = classic_bound(records);
  if (peak.op < 0) {
    out << "peak:         none (no buffers)\n";
    return;
  }
  const std::vector<size_t> live = peak_buffers(records);
  out << "peak:         step " << peak.op;
  if (peak.op < static_cast<int>(graph.ops.size())) {
    const Op& op = graph.ops[peak.op];
    out << " (" << op_kind_name(op.kind) << ", op " << op.source_index << ")";
  }
  out << ": " << peak.bytes << " bytes in " << live.size() << " tensors\n";
  for (size_t i : live) {
    out << "              " << pad_right(buffer_tag(records[i]), 8) << pad_left(std::to_string(records[i].size), 10);
    if (!pools.empty()) out << "  " << pool_name(pools, i);
    out << "\n";
  }
}

void write_summary(std::ostringstream& out, const Graph& graph, const PlanRequest& request, const MemoryPlan& plan,
                   const PoolLayout& pools, const std::vector<InPlaceUse>& in_place) {
  const std::vector<BufferRecord>& records = request.records;
  const int64_t bound = classic_bound(records).bytes;
  const int64_t total = total_bytes(plan, pools);
  write_pools(out, plan, pools);
  out << "lower bound:  " << bound << " bytes (most tensor bytes live at once in this op order, without in-place"
      << " reuse)\n";
  if (total < bound) {
    out << "in-place:     saves " << bound - total << " bytes below the lower bound (" << in_place.size()
        << " buffers written over an input)\n";
  } else {
    out << "over bound:   " << total - bound << " bytes";
    if (!in_place.empty()) out << " (" << in_place.size() << " buffers written over an input)";
    out << "\n";
  }
  write_peak(out, graph, records, pools);
  size_t scratch = 0, empty = 0;
  for (const BufferRecord& r : records) {
    scratch += r.kind == BufferKind::kScratch ? 1 : 0;
    empty += r.size == 0 ? 1 : 0;
  }
  out << "buffers:      " << records.size() << " (" << records.size() - scratch << " tensors, " << scratch
      << " scratch, " << empty << " empty)\n";
}

// The buffer table: one row per record, by pool, offset, first op and record index.
void write_buffers(std::ostringstream& out, const Graph& graph, const PlanRequest& request, const MemoryPlan& plan,
                   const PoolLayout& pools, const std::vector<InPlaceUse>& in_place) {
  const std::vector<BufferRecord>& records = request.records;
  std::vector<std::string> notes(records.size());
  for (const InPlaceUse& use : in_place) {
    if (notes[use.output].empty()) {
      notes[use.output] = "over " + buffer_tag(records[use.input]) + " (shift " + std::to_string(use.shift) + ")";
    }
  }
  size_t step_width = 5, note_width = 0, number_width = 6, pool_width = pools.empty() ? 0 : 4;
  for (size_t i = 0; i < records.size(); ++i) {
    step_width = std::max({step_width, step_label(graph, records[i].first_op).size(),
                           step_label(graph, records[i].last_op).size()});
    note_width = std::max(note_width, notes[i].size());
    number_width = std::max(number_width, std::to_string(plan.offsets[i] + records[i].size).size());
    if (!pools.empty()) pool_width = std::max(pool_width, pool_name(pools, i).size());
  }
  std::vector<size_t> order(records.size());
  std::iota(order.begin(), order.end(), size_t{0});
  const auto key = [&](size_t i) {
    return std::make_tuple(pools.empty() ? 0 : pools.pool_of[i], plan.offsets[i], records[i].first_op, i);
  };
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return key(a) < key(b); });
  auto row = [&](const std::vector<std::string>& cells) {  // tag, pool, offset, end, size, align, first, last, note
    const size_t w = number_width + 2;
    std::string line = pad_right(cells[0], 9);
    if (pool_width > 0) line += pad_right(cells[1], pool_width + 2);
    line += pad_left(cells[2], w) + pad_left(cells[3], w) + pad_left(cells[4], w) + pad_left(cells[5], 6) + "  " +
            pad_right(cells[6], step_width) + "  " + pad_right(cells[7], step_width);
    if (note_width > 0) line += "  " + cells[8];
    return line.substr(0, line.find_last_not_of(' ') + 1) + "\n";
  };
  out << "\n" << row({"buffer", "pool", "offset", "end", "size", "align", "first", "last", "in place"});
  for (size_t i : order) {
    const BufferRecord& r = records[i];
    const int64_t offset = plan.offsets[i];
    out << row({buffer_tag(r), pools.empty() ? "" : pool_name(pools, i), std::to_string(offset),
                std::to_string(offset + r.size), std::to_string(r.size), std::to_string(r.alignment),
                step_label(graph, r.first_op), step_label(graph, r.last_op), notes[i]});
  }
}

// Every tensor the report mentions (buffers, aliases and what they alias), by id, with its full name.
void write_names(std::ostringstream& out, const Graph& graph, const std::vector<BufferRecord>& records) {
  std::set<int> ids;
  for (const BufferRecord& r : records) {
    if (r.kind == BufferKind::kTensor && r.tensor_id >= 0) ids.insert(r.tensor_id);
  }
  for (int id = 0; id < static_cast<int>(graph.tensors.size()); ++id) {
    if (graph.tensors[id].alias_of < 0) continue;
    ids.insert(id);
    ids.insert(graph.storage_of(id));
  }
  if (ids.empty()) return;
  const size_t tag_width = ("t" + std::to_string(*ids.rbegin())).size();
  const size_t indent = 2 + tag_width + 2;
  const size_t width = std::max(kMinNameWidth, kLineWidth - indent);
  out << "\nnames (full tensor names; a long one continues on the next lines, indented):\n";
  for (int id : ids) {
    const std::vector<std::string> lines = wrap(printable(graph.tensors[id].name), width);
    out << "  " << pad_right("t" + std::to_string(id), tag_width) << "  " << lines[0] << "\n";
    for (size_t k = 1; k < lines.size(); ++k) out << std::string(indent, ' ') << lines[k] << "\n";
  }
}

void write_aliases(std::ostringstream& out, const Graph& graph) {
  bool header = false;
  for (int id = 0; id < static_cast<int>(graph.tensors.size()); ++id) {
    if (graph.tensors[id].alias_of < 0) continue;
    if (!header) out << "\naliases (views sharing the storage of another tensor):\n";
    header = true;
    const int owner = graph.storage_of(id);
    out << "  t" << id << " alias of t" << owner << (graph.tensors[owner].is_constant ? " (constant)" : "") << "\n";
  }
}

}  // namespace

std::vector<InPlaceUse> used_in_place(const PlanRequest& request, const MemoryPlan& plan, const PoolLayout& pools) {
  const std::vector<BufferRecord>& records = request.records;
  std::vector<InPlaceUse> used;
  for (const OverlapPermit& permit : request.permits) {
    if (permit.output >= records.size() || permit.input >= records.size()) continue;
    if (permit.output >= plan.offsets.size() || permit.input >= plan.offsets.size()) continue;
    if (!pools.same_pool(permit.output, permit.input)) continue;  // offsets in different memories
    const BufferRecord& out = records[permit.output];
    const BufferRecord& in = records[permit.input];
    const int64_t out_offset = plan.offsets[permit.output];
    const int64_t in_offset = plan.offsets[permit.input];
    const bool share_bytes =
        out.size > 0 && in.size > 0 && out_offset < in_offset + in.size && in_offset < out_offset + out.size;
    if (share_bytes && lifetimes_intersect(out, in)) {
      used.push_back(InPlaceUse{permit.output, permit.input, out_offset - in_offset});
    }
  }
  return used;
}

std::vector<size_t> peak_buffers(const std::vector<BufferRecord>& records) {
  const PeakInfo peak = classic_bound(records);
  std::vector<size_t> live;
  for (size_t i = 0; i < records.size(); ++i) {
    const BufferRecord& r = records[i];
    if (r.kind == BufferKind::kTensor && r.size > 0 && r.first_op <= peak.op && peak.op <= r.last_op) {
      live.push_back(i);
    }
  }
  std::stable_sort(live.begin(), live.end(), [&](size_t a, size_t b) { return records[a].size > records[b].size; });
  return live;
}

std::string buffer_name(const Graph& graph, const BufferRecord& record) {
  if (record.kind == BufferKind::kScratch || record.tensor_id < 0) {
    const int step = scratch_step(record);
    return "scratch of " + step_label(graph, step).substr(std::to_string(step).size() + 1) + " (step " +
           std::to_string(step) + ")";
  }
  return graph.tensor(record.tensor_id).name;
}

std::string buffer_tag(const BufferRecord& record) {
  if (record.kind == BufferKind::kScratch || record.tensor_id < 0) return "scratch";
  return "t" + std::to_string(record.tensor_id);
}

std::string step_label(const Graph& graph, int step) {
  const std::string number = std::to_string(step);
  if (step < 0 || step >= static_cast<int>(graph.ops.size())) return number + " ?";
  return number + " " + op_kind_name(graph.ops[step].kind);
}

std::string format_memory_plan(const Graph& graph, const PlanRequest& request, const MemoryPlan& plan,
                               const PoolLayout& pools) {
  MICROAOT_CHECK(plan.offsets.size() == request.records.size(), "memory plan does not match its records");
  MICROAOT_CHECK(pools.empty() || pools.pool_of.size() == request.records.size(), "pools do not match the records");
  const std::vector<InPlaceUse> in_place = used_in_place(request, plan, pools);
  std::ostringstream out;
  out.imbue(std::locale::classic());  // no digit grouping whatever the global locale
  write_summary(out, graph, request, plan, pools, in_place);
  write_buffers(out, graph, request, plan, pools, in_place);
  write_names(out, graph, request.records);
  write_aliases(out, graph);
  return out.str();
}

}  // namespace microaot
