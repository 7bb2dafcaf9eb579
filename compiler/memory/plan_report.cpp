#include "memory/plan_report.h"

#include <algorithm>
#include <locale>
#include <numeric>
#include <sstream>

#include "memory/liveness.h"

namespace microaot {

namespace {

constexpr size_t kLineWidth = 118;    // the table's target width; names are shortened to fit
constexpr size_t kMinNameWidth = 16;  // ... but never below this

std::string pad_left(const std::string& text, size_t width) {
  return text.size() >= width ? text : std::string(width - text.size(), ' ') + text;
}

std::string pad_right(const std::string& text, size_t width) {
  return text.size() >= width ? text : text + std::string(width - text.size(), ' ');
}

// Long TFLite names are often ';'-joined lists of fused TF ops whose first entry is the telling one:
// keep that ("a/b/Relu;..."), and shorten what is still too long in the middle ("abcd...wxyz").
std::string shorten(const std::string& name, size_t width) {
  if (name.size() <= width || width < 8) return name;
  const size_t semicolon = name.find(';');
  const std::string text = semicolon == std::string::npos ? name : name.substr(0, semicolon) + ";...";
  if (text.size() <= width) return text;
  const size_t head = (width - 3) / 2;
  return text.substr(0, head) + "..." + text.substr(text.size() - (width - 3 - head));
}

std::string in_place_note(const std::vector<BufferRecord>& records, const InPlaceUse& use) {
  return "over " + buffer_tag(records[use.input]) + " (shift " + std::to_string(use.shift) + ")";
}

void write_peak(std::ostringstream& out, const Graph& graph, const std::vector<BufferRecord>& records,
                const PeakInfo& peak) {
  if (peak.op < 0) {
    out << "peak:         none (no buffers)\n";
    return;
  }
  std::vector<size_t> live;
  for (size_t i = 0; i < records.size(); ++i) {
    if (records[i].first_op <= peak.op && peak.op <= records[i].last_op) live.push_back(i);
  }
  std::stable_sort(live.begin(), live.end(), [&](size_t a, size_t b) { return records[a].size > records[b].size; });
  out << "peak:         step " << peak.op;
  if (peak.op < static_cast<int>(graph.ops.size())) {
    const Op& op = graph.ops[peak.op];
    out << " (" << op_kind_name(op.kind) << ", op " << op.source_index << ")";
  }
  out << ": " << peak.bytes << " bytes live in " << live.size() << " buffers\n";
  for (size_t i : live) {
    out << "              " << pad_right(buffer_tag(records[i]), 8) << pad_left(std::to_string(records[i].size), 10)
        << "  " << shorten(buffer_name(graph, records[i]), kLineWidth - 34) << "\n";
  }
}

void write_summary(std::ostringstream& out, const Graph& graph, const PlanRequest& request, const MemoryPlan& plan,
                   const std::vector<InPlaceUse>& in_place) {
  const std::vector<BufferRecord>& records = request.records;
  const PeakInfo peak = classic_bound(records);
  out << "planner:      " << plan.planner << "\n";
  out << "arena:        " << plan.arena_size << " bytes\n";
  out << "lower bound:  " << peak.bytes << " bytes (largest live set in this op order, no in-place reuse)\n";
  if (plan.arena_size < peak.bytes) {
    out << "in-place:     saves " << peak.bytes - plan.arena_size << " bytes below the lower bound ("
        << in_place.size() << " buffers written over an input)\n";
  } else {
    out << "over bound:   " << plan.arena_size - peak.bytes << " bytes";
    if (!in_place.empty()) out << " (" << in_place.size() << " buffers written over an input)";
    out << "\n";
  }
  write_peak(out, graph, records, peak);
  size_t scratch = 0, empty = 0;
  for (const BufferRecord& r : records) {
    scratch += r.kind == BufferKind::kScratch ? 1 : 0;
    empty += r.size == 0 ? 1 : 0;
  }
  out << "buffers:      " << records.size() << " (" << records.size() - scratch << " tensors, " << scratch
      << " scratch, " << empty << " empty)\n";
}

void write_buffers(std::ostringstream& out, const Graph& graph, const PlanRequest& request, const MemoryPlan& plan,
                   const std::vector<InPlaceUse>& in_place) {
  const std::vector<BufferRecord>& records = request.records;
  std::vector<std::string> notes(records.size());
  for (const InPlaceUse& use : in_place) {
    if (notes[use.output].empty()) notes[use.output] = in_place_note(records, use);
  }
  size_t step_width = 5, note_width = 0, number_width = 6;
  for (size_t i = 0; i < records.size(); ++i) {
    step_width = std::max({step_width, step_label(graph, records[i].first_op).size(),
                           step_label(graph, records[i].last_op).size()});
    note_width = std::max(note_width, notes[i].size());
    number_width = std::max(number_width, std::to_string(plan.offsets[i] + records[i].size).size());
  }
  std::vector<size_t> order(records.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (plan.offsets[a] != plan.offsets[b]) return plan.offsets[a] < plan.offsets[b];
    return records[a].first_op != records[b].first_op ? records[a].first_op < records[b].first_op : a < b;
  });
  auto row = [&](const std::string& tag, const std::string& offset, const std::string& end, const std::string& size,
                 const std::string& align, const std::string& first, const std::string& last,
                 const std::string& note) {
    const size_t w = number_width + 2;
    std::string line = pad_right(tag, 7) + pad_left(offset, w) + pad_left(end, w) + pad_left(size, w) +
                       pad_left(align, 6) + "  " + pad_right(first, step_width) + "  " + pad_right(last, step_width);
    if (note_width > 0) line += "  " + pad_right(note, note_width);
    return line + "  ";
  };
  const std::string header = row("buffer", "offset", "end", "size", "align", "first", "last", "in place");
  const size_t name_width = std::max(kMinNameWidth, kLineWidth > header.size() ? kLineWidth - header.size() : 0);
  out << "\n" << header << "name\n";
  for (size_t i : order) {
    const BufferRecord& r = records[i];
    const int64_t offset = plan.offsets[i];
    out << row(buffer_tag(r), std::to_string(offset), std::to_string(offset + r.size), std::to_string(r.size),
               std::to_string(r.alignment), step_label(graph, r.first_op), step_label(graph, r.last_op), notes[i])
        << (r.kind == BufferKind::kScratch ? "kernel scratch" : shorten(buffer_name(graph, r), name_width))
        << "\n";
  }
}

void write_aliases(std::ostringstream& out, const Graph& graph) {
  bool header = false;
  for (int id = 0; id < static_cast<int>(graph.tensors.size()); ++id) {
    if (graph.tensors[id].alias_of < 0) continue;
    if (!header) out << "\naliases (views sharing the storage of another tensor):\n";
    header = true;
    const int owner = graph.storage_of(id);
    out << "  t" << id << " '" << shorten(graph.tensors[id].name, 48) << "' alias of t" << owner << " '"
        << shorten(graph.tensors[owner].name, 48) << "'" << (graph.tensors[owner].is_constant ? " (constant)" : "")
        << "\n";
  }
}

}  // namespace

std::vector<InPlaceUse> used_in_place(const PlanRequest& request, const MemoryPlan& plan) {
  const std::vector<BufferRecord>& records = request.records;
  std::vector<InPlaceUse> used;
  for (const OverlapPermit& permit : request.permits) {
    if (permit.output >= records.size() || permit.input >= records.size()) continue;
    if (permit.output >= plan.offsets.size() || permit.input >= plan.offsets.size()) continue;
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

std::string buffer_name(const Graph& graph, const BufferRecord& record) {
  if (record.kind == BufferKind::kScratch || record.tensor_id < 0) {
    return "scratch of " + step_label(graph, record.first_op).substr(std::to_string(record.first_op).size() + 1) +
           " (step " + std::to_string(record.first_op) + ")";
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

std::string format_memory_plan(const Graph& graph, const PlanRequest& request, const MemoryPlan& plan) {
  MICROAOT_CHECK(plan.offsets.size() == request.records.size(), "memory plan does not match its records");
  const std::vector<InPlaceUse> in_place = used_in_place(request, plan);
  std::ostringstream out;
  out.imbue(std::locale::classic());  // no digit grouping whatever the global locale
  write_summary(out, graph, request, plan, in_place);
  write_buffers(out, graph, request, plan, in_place);
  write_aliases(out, graph);
  return out.str();
}

}  // namespace microaot
