#include "memory/plan_svg.h"

#include <algorithm>
#include <cmath>
#include <locale>
#include <sstream>
#include <vector>

#include "memory/liveness.h"
#include "memory/plan_report.h"

namespace microaot {

namespace {

constexpr double kLeft = 84, kTop = 84, kRight = 200, kBottom = 160, kPlotHeight = 420;
constexpr double kTopWithPools = 104, kPanelGap = 40, kMinPanelHeight = 140;  // room for each pool's title
constexpr double kPlotWidth = 960, kMinStepWidth = 6, kMaxStepWidth = 120, kMinLabelGap = 12;
constexpr double kMinWidth = 760, kCharWidth = 6;

struct Style {
  const char* css_class;
  const char* fill;
  const char* stroke;
  const char* legend;
};
const Style kTensor = {"tensor", "#8fb8e8", "#2f5f95", "intermediate tensor"};
const Style kScratch = {"scratch", "#f2c27a", "#9a6512", "kernel scratch"};
const Style kInput = {"input", "#92d19a", "#2e7d3a", "model input"};
const Style kOutput = {"output", "#e3a1c8", "#8e2f68", "model output"};

// Fixed point, at most two decimals, trailing zeros dropped; independent of the C/C++ locale.
std::string num(double value) {
  long long hundredths = std::llround(value * 100.0);
  std::string sign = hundredths < 0 ? "-" : "";
  hundredths = hundredths < 0 ? -hundredths : hundredths;
  std::string text = sign + std::to_string(hundredths / 100);
  const long long frac = hundredths % 100;
  if (frac != 0) text += "." + std::to_string(frac / 10) + (frac % 10 != 0 ? std::to_string(frac % 10) : "");
  return text == "-0" ? "0" : text;
}

// Length of the valid UTF-8 sequence starting at text[at], 0 if invalid (names come from untrusted files).
size_t utf8_length(const std::string& text, size_t at) {
  const auto byte = [&](size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(at);
  const size_t length = lead < 0x80 ? 1 : (lead >> 5) == 0x6 ? 2 : (lead >> 4) == 0xE ? 3 : (lead >> 3) == 0x1E ? 4 : 0;
  if (length == 0 || at + length > text.size()) return 0;
  for (size_t i = 1; i < length; ++i) {
    if ((byte(at + i) & 0xC0) != 0x80) return 0;
  }
  return length;
}

// Text and attribute escaping; control characters (invalid in XML 1.0) and invalid UTF-8 become '?'.
std::string xml(const std::string& text) {
  std::string out;
  for (size_t at = 0; at < text.size();) {
    const size_t length = utf8_length(text, at);
    const char c = text[at];
    if (length > 1) {
      out += text.substr(at, length);
    } else if (length == 0 || (static_cast<unsigned char>(c) < 0x20 && c != '\n')) {
      out += '?';
    } else if (c == '&') {
      out += "&amp;";
    } else if (c == '<') {
      out += "&lt;";
    } else if (c == '>') {
      out += "&gt;";
    } else if (c == '"') {
      out += "&quot;";
    } else if (c == '\'') {
      out += "&apos;";
    } else {
      out += c;
    }
    at += length == 0 ? 1 : length;
  }
  return out;
}

const Style& style_of(const Graph& graph, const BufferRecord& r) {
  if (r.kind == BufferKind::kScratch || r.tensor_id < 0) return kScratch;
  for (int id : graph.inputs) {
    if (graph.storage_of(id) == r.tensor_id) return kInput;
  }
  for (int id : graph.outputs) {
    if (graph.storage_of(id) == r.tensor_id) return kOutput;
  }
  return kTensor;
}

// The panel a record is drawn in: its pool's (the only one with one arena).
size_t panel_of(const PoolLayout& pools, size_t record) { return pools.empty() ? 0 : pools.pool_of.at(record); }

void write_legend(std::ostringstream& out, const MemoryPlan& plan, const PoolLayout& pools, int64_t bound) {
  out << "<text x=\"" << num(kLeft) << "\" y=\"22\" font-size=\"14\" font-weight=\"bold\">memory map: ";
  if (pools.empty()) {
    out << "planner " << xml(plan.planner) << ", arena " << plan.arena_size << " bytes";
  } else {
    int64_t total = 0;
    for (const PoolReport& p : pools.pools) total += p.used;
    out << pools.pools.size() << " pools, " << total << " bytes in all";
  }
  out << ", lower bound " << bound << " bytes</text>\n";
  double x = kLeft;
  for (const Style* s : {&kTensor, &kScratch, &kInput, &kOutput}) {
    out << "<rect class=\"legend\" x=\"" << num(x) << "\" y=\"34\" width=\"12\" height=\"12\" fill=\"" << s->fill
        << "\" stroke=\"" << s->stroke << "\"/><text x=\"" << num(x + 16) << "\" y=\"44\">" << s->legend
        << "</text>\n";
    x += 16 + kCharWidth * static_cast<double>(std::string(s->legend).size()) + 18;
  }
  out << "<text x=\"" << num(kLeft) << "\" y=\"62\">y: byte offset" << (pools.empty() ? "" : " in each pool")
      << ", 0 at the bottom; x: op step; dashed outline: written in place over its input; green strip: fused"
      << " bands</text>\n";
}

void write_panel_axes(std::ostringstream& out, const SvgLayout& l, const SvgPanel& panel) {
  const double right = l.x(l.steps);
  out << "<g stroke=\"#dddddd\" stroke-width=\"1\">\n";
  for (int64_t b = panel.tick_bytes; b <= panel.top_bytes; b += panel.tick_bytes) {
    out << "<line x1=\"" << num(l.left) << "\" y1=\"" << num(panel.y(b)) << "\" x2=\"" << num(right) << "\" y2=\""
        << num(panel.y(b)) << "\"/>\n";
  }
  out << "</g>\n<g font-size=\"10\" text-anchor=\"end\">\n";
  for (int64_t b = 0; b <= panel.top_bytes; b += panel.tick_bytes) {
    out << "<text x=\"" << num(l.left - 6) << "\" y=\"" << num(panel.y(b) + 3) << "\">" << b << "</text>\n";
  }
  out << "</g>\n";
  out << "<rect class=\"frame\" x=\"" << num(l.left) << "\" y=\"" << num(panel.top) << "\" width=\""
      << num(right - l.left) << "\" height=\"" << num(panel.plot_height) << "\" fill=\"none\" stroke=\"#333333\"/>\n";
}

// Each pool's panel is titled with its name, what it holds and its symbol.
void write_panel_titles(std::ostringstream& out, const SvgLayout& l, const PoolLayout& pools) {
  for (size_t k = 0; k < pools.pools.size(); ++k) {
    const PoolReport& p = pools.pools[k];
    out << "<text class=\"pool\" x=\"" << num(l.left) << "\" y=\"" << num(l.panels[k].top - 18)
        << "\" font-weight=\"bold\">pool " << xml(p.name) << (k == 0 ? " (the arena)" : "") << ": " << p.used
        << " of " << p.size << " bytes used" << (p.planner.empty() ? "" : ", planner " + xml(p.planner)) << ", "
        << xml(p.symbol) << "</text>\n";
  }
}

void write_axes(std::ostringstream& out, const Graph& graph, const SvgLayout& l) {
  for (const SvgPanel& panel : l.panels) write_panel_axes(out, l, panel);
  const double bottom = l.bottom();
  out << "<g font-size=\"10\">\n";
  for (int s = 0; s < l.steps; s += l.label_every) {
    const double cx = l.x(s + 0.5), ty = bottom + 8;
    out << "<text x=\"" << num(cx + 3) << "\" y=\"" << num(ty) << "\" text-anchor=\"end\" transform=\"rotate(-90 "
        << num(cx + 3) << " " << num(ty) << ")\">" << xml(step_label(graph, s)) << "</text>\n";
  }
  out << "</g>\n";
  out << "<text x=\"" << num(l.left) << "\" y=\"" << num(l.height - 8) << "\">op step (execution order), "
      << (l.label_every > 1 ? "labelled every " + std::to_string(l.label_every) + " steps" : "every step labelled")
      << "</text>\n";
  const double middle = (l.panels.front().top + bottom) / 2;
  out << "<text x=\"14\" y=\"" << num(middle) << "\" transform=\"rotate(-90 14 " << num(middle)
      << ")\" text-anchor=\"middle\">byte offset (0 at the bottom)</text>\n";
}

// Drawn over the boxes, translucent and transparent to the mouse so their tooltips still work.
void write_peak_band(std::ostringstream& out, const SvgLayout& l, const PeakInfo& peak) {
  if (peak.op < 0 || peak.op >= l.steps) return;
  for (const SvgPanel& panel : l.panels) {
    out << "<rect class=\"peak\" x=\"" << num(l.x(peak.op)) << "\" y=\"" << num(panel.top) << "\" width=\""
        << num(l.step_width) << "\" height=\"" << num(panel.plot_height)
        << "\" fill=\"#e53935\" fill-opacity=\"0.12\" pointer-events=\"none\"/>\n";
  }
  out << "<text x=\"" << num(l.x(peak.op + 0.5)) << "\" y=\"" << num(l.panels.front().top - 4)
      << "\" font-size=\"9\" text-anchor=\"middle\" fill=\"#c62828\">peak " << peak.bytes << "</text>\n";
}

// A line buffer's rows for its tooltip ("" for any other buffer): the output of a chain's layer but the last.
std::string line_buffer_note(const Graph& graph, const std::vector<FusedChain>& chains, const BufferRecord& r) {
  if (r.kind != BufferKind::kTensor) return "";
  for (const FusedChain& c : chains) {
    for (size_t i = 0; i < c.schedule.line_rows.size() && i < c.layers.size(); ++i) {
      const Op& op = graph.ops.at(static_cast<size_t>(c.first_step) + i);
      if (graph.storage_of(op.outputs[0]) != r.tensor_id) continue;
      return "\nline buffer: " + std::to_string(c.schedule.line_rows[i]) + " of " +
             std::to_string(c.layers[i].output_rows) + " rows (fused bands, steps " + std::to_string(c.first_step) +
             "-" + std::to_string(c.last_step) + ")";
    }
  }
  return "";
}

// Drawn over the boxes like the peak, transparent to the mouse: each chain's steps, its band height above.
void write_chains(std::ostringstream& out, const SvgLayout& l, const std::vector<FusedChain>& chains) {
  for (const FusedChain& c : chains) {
    const double x = l.x(c.first_step), w = l.x(c.last_step + 1) - x;
    for (const SvgPanel& panel : l.panels) {
      out << "<rect class=\"chain\" x=\"" << num(x) << "\" y=\"" << num(panel.top) << "\" width=\"" << num(w)
          << "\" height=\"" << num(panel.plot_height) << "\" fill=\"#43a047\" fill-opacity=\"0.1\" stroke=\"#2e7d32\""
          << " stroke-dasharray=\"2,2\" pointer-events=\"none\"/>\n";
    }
    out << "<text class=\"chain\" x=\"" << num(x + 2) << "\" y=\"" << num(l.panels.front().top - 14)
        << "\" font-size=\"9\" fill=\"#2e7d32\">bands of " << c.band_rows << " rows, steps " << c.first_step << "-"
        << c.last_step << "</text>\n";
  }
}

void write_buffers(std::ostringstream& out, const Graph& graph, const PlanRequest& request, const MemoryPlan& plan,
                   const PoolLayout& pools, const SvgLayout& l, const std::vector<FusedChain>& chains) {
  const std::vector<BufferRecord>& records = request.records;
  std::vector<std::string> in_place(records.size());
  for (const InPlaceUse& use : used_in_place(request, plan, pools)) {
    if (in_place[use.output].empty()) {
      in_place[use.output] = "\nover " + buffer_tag(records[use.input]) + " (shift " + std::to_string(use.shift) + ")";
    }
  }
  out << "<g stroke-width=\"0.75\" font-size=\"9\">\n";
  for (size_t i = 0; i < records.size(); ++i) {
    const BufferRecord& r = records[i];
    if (r.size <= 0) continue;
    const Style& s = style_of(graph, r);
    const SvgPanel& panel = l.panels[panel_of(pools, i)];
    const int64_t offset = plan.offsets[i];
    const double x = l.x(r.first_op), y = panel.y(static_cast<double>(offset + r.size));
    const double w = l.x(r.last_op + 1) - x, h = panel.y(static_cast<double>(offset)) - y;
    out << "<rect id=\"buf" << i << "\" class=\"" << s.css_class << "\" x=\"" << num(x) << "\" y=\"" << num(y)
        << "\" width=\"" << num(w) << "\" height=\"" << num(h) << "\" fill=\"" << s.fill << "\" stroke=\""
        << s.stroke << "\"" << (in_place[i].empty() ? "" : " stroke-dasharray=\"3,2\"") << "><title>"
        << xml(buffer_tag(r) + " " + buffer_name(graph, r)) << "\n"
        << r.size << " bytes at [" << offset << ", " << offset + r.size << ")"
        << (pools.empty() ? "" : " in pool " + xml(panel.pool)) << ", align " << r.alignment << "\nsteps "
        << xml(step_label(graph, r.first_op)) << " .. " << xml(step_label(graph, r.last_op)) << in_place[i]
        << line_buffer_note(graph, chains, r) << "</title></rect>\n";
    const std::string tag = buffer_tag(r);
    if (w >= kCharWidth * static_cast<double>(tag.size()) + 4 && h >= 11) {
      out << "<text x=\"" << num(x + 2) << "\" y=\"" << num(y + h / 2 + 3) << "\">" << tag << "</text>\n";
    }
  }
  out << "</g>\n";
}

// A horizontal line across a panel at `bytes`, labelled on the right (above it, or below when `below`).
void write_level(std::ostringstream& out, const SvgLayout& l, const SvgPanel& panel, const char* css_class,
                 int64_t bytes, const std::string& label, bool dashed, bool below) {
  const double right = l.x(l.steps), y = panel.y(static_cast<double>(bytes));
  const char* colour = dashed ? "#555555" : "#c62828";
  out << "<line class=\"" << css_class << "\" x1=\"" << num(l.left) << "\" y1=\"" << num(y) << "\" x2=\""
      << num(right + 6) << "\" y2=\"" << num(y) << "\" stroke=\"" << colour << "\" stroke-width=\"1.5\""
      << (dashed ? " stroke-dasharray=\"6,3\"" : "") << "/>\n";
  out << "<text x=\"" << num(right + 8) << "\" y=\"" << num(y + (below ? 11 : -3)) << "\" fill=\"" << colour << "\">"
      << label << "</text>\n";
}

// One arena: its size and the lower bound. Pools: each pool's bytes used (the bound is for all of them).
void write_levels(std::ostringstream& out, const SvgLayout& l, const MemoryPlan& plan, const PoolLayout& pools,
                  int64_t bound) {
  if (pools.empty()) {
    const bool arena_higher = plan.arena_size >= bound;
    write_level(out, l, l.panels[0], "arena", plan.arena_size, "arena " + std::to_string(plan.arena_size) + " bytes",
                false, !arena_higher);
    write_level(out, l, l.panels[0], "bound", bound, "lower bound " + std::to_string(bound) + " bytes", true,
                arena_higher);
    return;
  }
  for (size_t k = 0; k < pools.pools.size(); ++k) {
    const int64_t used = pools.pools[k].used;
    write_level(out, l, l.panels[k], "used", used, std::to_string(used) + " bytes used", false, false);
  }
}

// The y scale of a panel whose highest address is max_bytes.
void scale_panel(SvgPanel& panel, int64_t max_bytes) {
  while (panel.tick_bytes * 8 < max_bytes) panel.tick_bytes *= 2;
  panel.top_bytes = std::max<int64_t>(1, (max_bytes + panel.tick_bytes - 1) / panel.tick_bytes) * panel.tick_bytes;
}

}  // namespace

SvgLayout memory_svg_layout(const Graph& graph, const PlanRequest& request, const MemoryPlan& plan,
                            const PoolLayout& pools) {
  SvgLayout l;
  const size_t panels = pools.empty() ? 1 : pools.pools.size();
  std::vector<int64_t> max_bytes(panels, 0);
  if (pools.empty()) max_bytes[0] = std::max(plan.arena_size, classic_bound(request.records).bytes);
  for (size_t k = 0; k < pools.pools.size(); ++k) max_bytes[k] = pools.pools[k].used;
  l.steps = std::max(1, static_cast<int>(graph.ops.size()));
  for (size_t i = 0; i < request.records.size(); ++i) {
    l.steps = std::max(l.steps, request.records[i].last_op + 1);
    int64_t& top = max_bytes[panel_of(pools, i)];
    if (i < plan.offsets.size()) top = std::max(top, plan.offsets[i] + request.records[i].size);
  }
  l.step_width = std::clamp(std::floor(kPlotWidth / l.steps), kMinStepWidth, kMaxStepWidth);
  // 1, 2, 5, 10, 20, 50, ...: the first spacing that keeps rotated labels kMinLabelGap apart.
  for (int decade = 1; l.label_every * l.step_width < kMinLabelGap; decade *= 10) {
    for (int n : {1, 2, 5}) {
      l.label_every = n * decade;
      if (l.label_every * l.step_width >= kMinLabelGap) break;
    }
  }
  const double height = std::max(kMinPanelHeight, kPlotHeight / static_cast<double>(panels));
  for (size_t k = 0; k < panels; ++k) {
    SvgPanel panel;
    panel.pool = pools.empty() ? "" : pools.pools[k].name;
    scale_panel(panel, max_bytes[k]);
    panel.top = (pools.empty() ? kTop : kTopWithPools) + static_cast<double>(k) * (height + kPanelGap);
    panel.plot_height = height;
    l.panels.push_back(panel);
  }
  l.left = kLeft;
  l.width = std::max(kMinWidth, kLeft + l.steps * l.step_width + kRight);
  l.height = l.bottom() + kBottom;
  return l;
}

std::string render_memory_svg(const Graph& graph, const PlanRequest& request, const MemoryPlan& plan,
                              const PoolLayout& pools, const std::vector<FusedChain>& chains) {
  MICROAOT_CHECK(plan.offsets.size() == request.records.size(), "memory plan does not match its records");
  MICROAOT_CHECK(pools.empty() || pools.pool_of.size() == request.records.size(), "pools do not match the records");
  const SvgLayout l = memory_svg_layout(graph, request, plan, pools);
  const PeakInfo peak = classic_bound(request.records);
  std::ostringstream out;
  out.imbue(std::locale::classic());  // no digit grouping whatever the global locale
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"" << num(l.width) << "\" height=\""
      << num(l.height) << "\" viewBox=\"0 0 " << num(l.width) << " " << num(l.height) << "\">\n"
      << "<title>memory map (" << xml(plan.planner) << ")</title>\n"
      << "<rect class=\"background\" width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n"
      << "<g font-family=\"monospace\" font-size=\"11\" fill=\"#222222\">\n";
  write_legend(out, plan, pools, peak.bytes);
  write_axes(out, graph, l);
  write_panel_titles(out, l, pools);
  write_buffers(out, graph, request, plan, pools, l, chains);
  write_chains(out, l, chains);
  write_peak_band(out, l, peak);
  write_levels(out, l, plan, pools, peak.bytes);
  if (request.records.empty()) {
    out << "<text x=\"" << num(l.left + 8) << "\" y=\"" << num(l.panels[0].top + 20) << "\">no buffers</text>\n";
  }
  out << "</g>\n</svg>\n";
  return out.str();
}

}  // namespace microaot
