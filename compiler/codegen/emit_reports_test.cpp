// Reports that add up: memory_plan.txt, network_info.txt and report.json of several shared models and pool
// configurations, read back and compared figure by figure with the CompiledModel they were written from.
// Expected values are recomputed here from the plan (buffers, offsets, pools), not copied from the
// emitters' helpers.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <set>

#include "codegen/emit.h"
#include "compile/compile_model.h"
#include "ir/ir_dump.h"
#include "kernels/select_kernels.h"
#include "memory/report_text_test_util.h"

namespace microaot {
namespace {

using report_text::lines_of;
using report_text::Words;
using report_text::words_of;

struct Case {
  std::string model;
  std::vector<PoolOption> pools;
  bool io_in_arena = true;
};

std::vector<Case> cases() {
  return {
      {"kws_dscnn_int8", {}, true},
      {"kws_dscnn_int8", {{"main", 9000, 16}, {"sram2", 16000, 16}}, true},   // the configuration
      {"kws_dscnn_int8", {{"dtcm", 4096, 16}, {"sram", 8704, 16}, {"sdram", 65536, 32}}, true},
      {"vww_mobilenet_int8", {{"dtcm", 16384, 16}, {"sram", 262144, 16}}, true},
      {"ic_resnet8_int8", {}, false},
      {"ic_resnet8_int8", {{"fast", 20000, 16}, {"slow", 65536, 16}}, false},
      {"ad_autoencoder_int8", {}, true},
      {"micro_speech_int8", {{"a", 4096, 16}, {"b", 4096, 16}}, true},
      {"hello_world_f32", {}, false},
  };
}

std::string describe(const Case& c) {
  std::string text = c.model;
  for (const PoolOption& p : c.pools) text += " --pool " + p.name + ":" + std::to_string(p.size);
  return text + (c.io_in_arena ? "" : " --io-in-arena off");
}

// --- What the reports must say, recomputed from the plan ---------------------------------------------------

size_t pool_index(const CompiledModel& m, size_t record) { return m.pool_of.empty() ? 0 : m.pool_of[record]; }

std::string tag(const BufferRecord& r) {
  return r.kind == BufferKind::kScratch ? "scratch" : "t" + std::to_string(r.tensor_id);
}

int64_t pools_total(const CompiledModel& m) {
  int64_t total = 0;
  for (int64_t used : m.pool_used) total += used;
  return m.pool_used.empty() ? m.plan.arena_size : total;
}

// What the executor adds: the arena header (a pointer-sized last-writer record, rounded up to the alignment;
// none without an arena) and, with pools or I/O outside the arena, a 4-byte record for the static buffers.
int64_t header_bytes(const CompiledModel& m) {
  const int64_t a = m.options.alignment;
  return m.plan.arena_size == 0 ? 0 : (8 + a - 1) / a * a;
}
int64_t record_bytes(const CompiledModel& m) { return m.options.pools.size() > 1 || !m.options.io_in_arena ? 4 : 0; }

int64_t io_bytes(const CompiledModel& m) {
  if (m.options.io_in_arena) return 0;
  int64_t total = 0;
  for (const std::vector<int>* ids : {&m.graph.inputs, &m.graph.outputs}) {
    for (int id : *ids) {
      const int64_t a = m.options.alignment;
      total += (m.graph.tensor(id).byte_size() + a - 1) / a * a;
    }
  }
  return total;
}

bool live_at(const BufferRecord& r, int step) { return r.first_op <= step && step <= r.last_op; }

int64_t live_bytes(const CompiledModel& m, int step) {
  int64_t total = 0;
  for (const BufferRecord& r : m.buffers) total += live_at(r, step) ? r.size : 0;
  return total;
}

// The tensors live at the bound's step, and the bound itself from them.
std::vector<size_t> peak_records(const CompiledModel& m) {
  std::vector<size_t> live;
  for (size_t i = 0; i < m.buffers.size(); ++i) {
    const BufferRecord& r = m.buffers[i];
    if (r.kind == BufferKind::kTensor && r.size > 0 && live_at(r, m.lower_bound.op)) live.push_back(i);
  }
  return live;
}

struct Overlap {
  size_t output, input;
  int64_t shift, shared;
};

// The permits whose two buffers share bytes in one memory, in permit order.
std::vector<Overlap> overlaps(const CompiledModel& m) {
  std::vector<Overlap> list;
  for (const OverlapPermit& p : m.permits) {
    if (pool_index(m, p.output) != pool_index(m, p.input)) continue;
    const int64_t out = m.plan.offsets[p.output], in = m.plan.offsets[p.input];
    const int64_t shared =
        std::min(out + m.buffers[p.output].size, in + m.buffers[p.input].size) - std::max(out, in);
    if (shared > 0) list.push_back({p.output, p.input, out - in, shared});
  }
  return list;
}

int64_t param_bytes(const CompiledModel& m, size_t step) {
  int64_t total = 0;
  for (int id : m.calls[step].args) {
    if (id != kNoTensor && m.graph.tensor(id).is_constant) total += m.graph.tensor(id).byte_size();
  }
  const KernelCall& call = m.calls[step];
  for (const ParamField& field : call.info().params->fields) {
    const ParamValue* value = call.params.find(field.name);
    if (value == nullptr) continue;
    const std::map<ParamKind, int64_t> element = {
        {ParamKind::kI8Array, 1}, {ParamKind::kI16Array, 2}, {ParamKind::kI32Array, 4}, {ParamKind::kF32Array, 4}};
    const auto bytes = element.find(field.kind);
    if (bytes == element.end()) continue;  // a scalar, inside the params struct
    total += bytes->second * static_cast<int64_t>(value->integers.size() + value->reals.size());
  }
  return total;
}

int64_t flash_weights(const CompiledModel& m) {
  std::set<int> constants;
  for (const KernelCall& call : m.calls) {
    for (int id : call.args) {
      if (id != kNoTensor && m.graph.tensor(id).is_constant) constants.insert(id);
    }
  }
  int64_t total = 0;
  for (int id : constants) total += m.graph.tensor(id).byte_size();
  if (m.options.executor == "graph") return total;
  for (size_t step = 0; step < m.calls.size(); ++step) {  // weights.c's params arrays: param_bytes less tensors
    if (m.calls[step].custom) continue;
    total += param_bytes(m, step);
    for (int id : m.calls[step].args) {
      if (id != kNoTensor && m.graph.tensor(id).is_constant) total -= m.graph.tensor(id).byte_size();
    }
  }
  return total;
}

std::string step_words(const CompiledModel& m, int step) {
  return std::to_string(step) + " " + op_kind_name(m.graph.ops[step].kind);
}

// The classic bound, recomputed: the most tensor bytes live at one step (the first such step).
PeakInfo tensor_peak(const CompiledModel& m) {
  PeakInfo peak;
  for (int step = 0; step < static_cast<int>(m.graph.ops.size()); ++step) {
    int64_t live = 0;
    for (const BufferRecord& r : m.buffers) live += r.kind == BufferKind::kTensor && live_at(r, step) ? r.size : 0;
    if (peak.op < 0 || live > peak.bytes) peak = {live, step};
  }
  return peak;
}

// --- memory_plan.txt -----------------------------------------------------------------------------------------

void check_peak(const CompiledModel& m, const std::string& value) {
  const std::vector<std::string> lines = lines_of(value);
  const std::vector<size_t> live = peak_records(m);
  ASSERT_EQ(lines.size(), live.size() + 1) << value;
  const Op& op = m.graph.ops.at(m.lower_bound.op);
  EXPECT_EQ(lines[0], "step " + std::to_string(m.lower_bound.op) + " (" + op_kind_name(op.kind) + ", op " +
                          std::to_string(op.source_index) + "): " + std::to_string(m.lower_bound.bytes) +
                          " bytes in " + std::to_string(live.size()) + " tensors");
  std::multiset<Words> listed, expected;
  int64_t sum = 0;
  for (size_t k = 1; k < lines.size(); ++k) listed.insert(words_of(lines[k]));
  for (size_t i : live) {
    const BufferRecord& r = m.buffers[i];
    const std::string pool = m.pool_of.empty() ? "" : " " + m.options.pools[m.pool_of[i]].name;
    expected.insert(words_of(tag(r) + " " + std::to_string(r.size) + pool));
    sum += r.size;
  }
  EXPECT_EQ(listed, expected);
  EXPECT_EQ(sum, m.lower_bound.bytes) << "the peak's tensors do not add up to the bound";
}

void check_pool_lines(const CompiledModel& m, const std::map<std::string, std::string>& v) {
  const std::vector<std::string> lines = lines_of(v.at("pools:"));
  ASSERT_EQ(lines.size(), m.options.pools.size());
  for (size_t k = 0; k < lines.size(); ++k) {
    const Words w = words_of(lines[k]);
    ASSERT_GE(w.size(), 5u) << lines[k];
    EXPECT_EQ(Words(w.begin(), w.begin() + 5), (Words{m.options.pools[k].name, std::to_string(m.pool_used[k]), "of",
                                                      std::to_string(m.options.pools[k].size), "bytes"}));
    if (m.pool_used[k] > 0) {
      EXPECT_NE(lines[k].find("planner " + m.pool_planners[k] + " ("), std::string::npos);
    }
  }
  EXPECT_EQ(v.at("total:"), std::to_string(pools_total(m)) + " bytes in " + std::to_string(lines.size()) + " pools");
}

void check_plan_summary(const CompiledModel& m, const std::string& text) {
  const std::map<std::string, std::string> v = report_text::summary(text);
  const int64_t bound = m.lower_bound.bytes, total = pools_total(m);
  if (m.pool_of.empty()) {
    EXPECT_EQ(v.at("planner:"), m.plan.planner);
    EXPECT_EQ(v.at("arena:"), std::to_string(m.plan.arena_size) + " bytes");
  } else {
    ASSERT_NO_FATAL_FAILURE(check_pool_lines(m, v));
  }
  EXPECT_EQ(words_of(v.at("lower bound:")).at(0), std::to_string(bound));
  const std::string reused = "(" + std::to_string(overlaps(m).size()) + " buffers written over an input)";
  if (total < bound) {
    EXPECT_EQ(v.at("in-place:"), "saves " + std::to_string(bound - total) + " bytes below the lower bound " + reused);
  } else {
    const std::string note = overlaps(m).empty() ? "" : " " + reused;
    EXPECT_EQ(v.at("over bound:"), std::to_string(total - bound) + " bytes" + note);
  }
  ASSERT_NO_FATAL_FAILURE(check_peak(m, v.at("peak:")));
  size_t scratch = 0, empty = 0;
  for (const BufferRecord& r : m.buffers) {
    scratch += r.kind == BufferKind::kScratch;
    empty += r.size == 0;
  }
  EXPECT_EQ(v.at("buffers:"), std::to_string(m.buffers.size()) + " (" + std::to_string(m.buffers.size() - scratch) +
                                  " tensors, " + std::to_string(scratch) + " scratch, " + std::to_string(empty) +
                                  " empty)");
}

// Every buffer's row: tag, pool, offset, end, size, alignment, first and last step, the input it is written
// over; rows ordered by pool, then offset.
void check_plan_table(const CompiledModel& m, const std::string& text) {
  std::vector<std::string> notes(m.buffers.size());
  for (const Overlap& o : overlaps(m)) {
    if (notes[o.output].empty()) {
      notes[o.output] = "over " + tag(m.buffers[o.input]) + " (shift " + std::to_string(o.shift) + ")";
    }
  }
  std::vector<Words> expected;
  for (size_t i = 0; i < m.buffers.size(); ++i) {
    const BufferRecord& r = m.buffers[i];
    const int64_t offset = m.plan.offsets[i];
    expected.push_back(words_of(tag(r) + (m.pool_of.empty() ? "" : " " + m.options.pools[m.pool_of[i]].name) + " " +
                                std::to_string(offset) + " " + std::to_string(offset + r.size) + " " +
                                std::to_string(r.size) + " " + std::to_string(r.alignment) + " " +
                                step_words(m, r.first_op) + " " + step_words(m, r.last_op) + " " + notes[i]));
  }
  std::vector<Words> rows = report_text::table_rows(text);
  const size_t offset_column = m.pool_of.empty() ? 1 : 2;
  for (size_t k = 1; k < rows.size(); ++k) {
    const auto pool_of_row = [&](const Words& row) {
      for (size_t p = 0; p < m.options.pools.size() && !m.pool_of.empty(); ++p) {
        if (m.options.pools[p].name == row.at(1)) return p;
      }
      return size_t{0};
    };
    const auto key = [&](const Words& row) {
      return std::make_pair(pool_of_row(row), std::stoll(row.at(offset_column)));
    };
    EXPECT_LE(key(rows[k - 1]), key(rows[k])) << "row " << k << " out of order";
  }
  std::sort(rows.begin(), rows.end());
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(rows, expected);
}

// Every tensor the table or the aliases mention, with its full name; every alias.
void check_plan_names(const CompiledModel& m, const std::string& text) {
  std::map<std::string, std::string> names;
  std::set<std::string> aliases;
  const auto name = [&](int id) { names["t" + std::to_string(id)] = m.graph.tensor(id).name; };
  for (const BufferRecord& r : m.buffers) {
    if (r.kind == BufferKind::kTensor) name(r.tensor_id);
  }
  for (int id = 0; id < static_cast<int>(m.graph.tensors.size()); ++id) {
    const int owner = m.graph.tensors[id].alias_of < 0 ? -1 : m.graph.storage_of(id);
    if (owner < 0) continue;
    name(id);
    name(owner);
    aliases.insert("t" + std::to_string(id) + " alias of t" + std::to_string(owner) +
                   (m.graph.tensor(owner).is_constant ? " (constant)" : ""));
  }
  EXPECT_EQ(report_text::names_table(text), names);
  std::set<std::string> listed;
  for (const std::string& line : report_text::section(text, "aliases ")) listed.insert(line.substr(2));
  EXPECT_EQ(listed, aliases);
  for (const std::string& line : lines_of(text)) EXPECT_LE(line.size(), 120u) << line;
}

// --- network_info.txt ----------------------------------------------------------------------------------------

// The words after `label` on the line that starts with it; empty when there is none.
Words after_label(const std::string& text, const std::string& label) {
  for (const std::string& line : lines_of(text)) {
    if (line.compare(0, label.size(), label) == 0) return words_of(line.substr(label.size()));
  }
  return {};
}

int64_t number_after(const std::string& text, const std::string& label) {
  const Words w = after_label(text, label);
  EXPECT_FALSE(w.empty()) << "no line '" << label << "'";
  return w.empty() ? -1 : std::stoll(w[0]);
}

void check_network_info(const CompiledModel& m, const std::string& text) {
  const std::vector<std::string> rows = report_text::section(text, "step ");
  ASSERT_EQ(rows.size(), m.calls.size()) << text;
  int64_t macs = 0;
  for (size_t step = 0; step < rows.size(); ++step) {
    const Words w = words_of(rows[step]);
    ASSERT_GE(w.size(), 8u) << rows[step];
    EXPECT_EQ(Words(w.begin(), w.begin() + 8),
              (Words{std::to_string(step), std::to_string(m.graph.ops[step].source_index),
                     op_kind_name(m.graph.ops[step].kind), m.calls[step].info().function(),
                     implementation_isa(m.calls[step].source), std::to_string(m.macs[step]),
                     std::to_string(param_bytes(m, step)), std::to_string(live_bytes(m, static_cast<int>(step)))}));
    macs += m.macs[step];
  }
  EXPECT_EQ(number_after(text, "total MACs:"), macs);
  std::vector<Words> chosen;  // each handler's choice for its layer, on its own line
  for (size_t step = 0; step < m.calls.size(); ++step) {
    if (!m.calls[step].specialisation.empty()) chosen.push_back(words_of(std::to_string(step) + " " + m.calls[step].specialisation));
  }
  std::vector<Words> printed;
  for (const std::string& line : report_text::section(text, "specialisation ")) printed.push_back(words_of(line));
  EXPECT_EQ(printed, chosen);
  EXPECT_EQ(number_after(text, "weights (flash):"), flash_weights(m));
  int64_t ram = 0;
  for (size_t k = 0; k < std::max<size_t>(1, m.pool_used.size()); ++k) {
    const std::string label = k == 0 ? "arena (RAM):" : "pool " + m.options.pools[k].name + " (RAM):";
    const int64_t used = m.pool_used.empty() ? m.plan.arena_size : m.pool_used[k];
    const std::string where = m.pool_used.empty() ? "" : k == 0 ? "(pool " + m.options.pools[0].name + ", " : "(";
    EXPECT_EQ(after_label(text, label), words_of(std::to_string(used) + " bytes" +
                                                 (where.empty() ? "" : " " + where +
                                                  std::to_string(m.options.pools[k].size) + " available)")));
    ram += used;
  }
  EXPECT_EQ(after_label(text, "I/O buffers (RAM):").empty(), m.options.io_in_arena);
  if (!m.options.io_in_arena) {
    EXPECT_EQ(number_after(text, "I/O buffers (RAM):"), io_bytes(m));
  }
  EXPECT_EQ(number_after(text, "arena header (RAM):"), header_bytes(m));
  EXPECT_EQ(after_label(text, "static record (RAM):").empty(), record_bytes(m) == 0);
  const int64_t contexts = number_after(text, "contexts (RAM):");
  EXPECT_GT(contexts, 0);
  EXPECT_EQ(number_after(text, "static RAM in all:"), ram + io_bytes(m) + header_bytes(m) + record_bytes(m) + contexts)
      << "the RAM lines do not add up";
}

// --- report.json ---------------------------------------------------------------------------------------------

size_t record_of(const CompiledModel& m, int tensor_id) {
  for (size_t i = 0; i < m.buffers.size(); ++i) {
    if (m.buffers[i].kind == BufferKind::kTensor && m.buffers[i].tensor_id == m.graph.storage_of(tensor_id)) return i;
  }
  ADD_FAILURE() << "no buffer holds tensor " << tensor_id;
  return 0;
}

void check_io_json(const CompiledModel& m, const nlohmann::json& list, const std::vector<int>& ids) {
  ASSERT_EQ(list.size(), ids.size());
  for (size_t k = 0; k < ids.size(); ++k) {
    const Tensor& t = m.graph.tensor(ids[k]);
    EXPECT_EQ(list[k]["name"], t.name);
    EXPECT_EQ(list[k]["dtype"], dtype_name(t.dtype));
    EXPECT_EQ(list[k]["shape"], nlohmann::json(t.shape));
    EXPECT_EQ(list[k]["bytes"], t.byte_size());
    const nlohmann::json offset =
        m.options.io_in_arena ? nlohmann::json(m.plan.offsets[record_of(m, ids[k])]) : nlohmann::json();
    EXPECT_EQ(list[k]["offset"], offset);
  }
}

void check_memory_json(const CompiledModel& m, const nlohmann::json& r) {
  EXPECT_EQ(r["arena_bytes"], m.plan.arena_size);
  EXPECT_EQ(r["lower_bound_bytes"], m.lower_bound.bytes);
  EXPECT_EQ(r["peak_step"], m.lower_bound.op);
  std::multiset<int> peak;
  for (size_t i : peak_records(m)) peak.insert(m.buffers[i].tensor_id);
  EXPECT_EQ(r["peak_tensors"].get<std::multiset<int>>(), peak);
  EXPECT_EQ(r["planner"], m.plan.planner);
  ASSERT_EQ(r["planners"].size(), m.planner_results.size());
  for (size_t k = 0; k < m.planner_results.size(); ++k) {
    EXPECT_EQ(r["planners"][k]["planner"], m.planner_results[k].planner);
    EXPECT_EQ(r["planners"][k]["arena_bytes"], m.planner_results[k].arena_size);
  }
  ASSERT_EQ(r["pools"].size(), m.pool_used.size());
  for (size_t k = 0; k < m.pool_used.size(); ++k) {
    EXPECT_EQ(r["pools"][k]["name"], m.options.pools[k].name);
    EXPECT_EQ(r["pools"][k]["size"], m.options.pools[k].size);
    EXPECT_EQ(r["pools"][k]["used_bytes"], m.pool_used[k]);
    EXPECT_EQ(r["pools"][k]["planner"], m.pool_planners[k]);
  }
  EXPECT_EQ(r["io_in_arena"], m.options.io_in_arena);
  EXPECT_EQ(r["io_buffer_bytes"], io_bytes(m));
  EXPECT_EQ(r["arena_header_bytes"], header_bytes(m));
  EXPECT_EQ(r["arena_buffer_bytes"], header_bytes(m) + m.plan.arena_size);
  EXPECT_EQ(r["static_record_bytes"], record_bytes(m));
  EXPECT_EQ(r["ram_bytes"], pools_total(m) + io_bytes(m) + header_bytes(m) + record_bytes(m) +
                                r["context_bytes"].get<int64_t>())
      << "ram_bytes";
  const std::vector<Overlap> used = overlaps(m);
  ASSERT_EQ(r["in_place"].size(), used.size());
  for (size_t k = 0; k < used.size(); ++k) {
    const nlohmann::json& e = r["in_place"][k];
    EXPECT_EQ(e["step"], m.buffers[used[k].output].first_op);
    EXPECT_EQ(e["output_tensor"], m.buffers[used[k].output].tensor_id);
    EXPECT_EQ(e["input_tensor"], m.buffers[used[k].input].tensor_id);
    EXPECT_EQ(e["shift"], used[k].shift);
    EXPECT_EQ(e["shared_bytes"], used[k].shared);
    if (!m.pool_of.empty()) {
      EXPECT_EQ(e["pool"], m.options.pools[m.pool_of[used[k].output]].name);
    }
  }
}

void check_report_json(const CompiledModel& m, const std::string& text, const std::string& network_info) {
  const nlohmann::json r = nlohmann::json::parse(text);
  ASSERT_NO_FATAL_FAILURE(check_memory_json(m, r));
  EXPECT_EQ(r["context_bytes"], number_after(network_info, "contexts (RAM):"));
  EXPECT_EQ(r["ram_bytes"], number_after(network_info, "static RAM in all:"));
  EXPECT_EQ(r["alignment"], m.options.alignment);
  EXPECT_EQ(r["flash_weights_bytes"], flash_weights(m));
  EXPECT_EQ(r["op_count"], m.calls.size());
  int64_t macs = 0;
  ASSERT_EQ(r["ops"].size(), m.calls.size());
  for (size_t step = 0; step < m.calls.size(); ++step) {
    const nlohmann::json& op = r["ops"][step];
    EXPECT_EQ(op["step"], step);
    EXPECT_EQ(op["op_index"], m.graph.ops[step].source_index);
    EXPECT_EQ(op["op"], op_kind_name(m.graph.ops[step].kind));
    EXPECT_EQ(op["kernel"], m.calls[step].info().function());
    const bool packed = m.calls[step].info().header == "microaot/kernels/packed.h";  // DSP-only, source in dsp/
    EXPECT_EQ(op["implementation"], packed ? "dsp-packed" : implementation_isa(m.calls[step].source));
    EXPECT_EQ(op["macs"], m.macs[step]);
    EXPECT_EQ(op["param_bytes"], param_bytes(m, step));
    EXPECT_EQ(op["live_bytes"], live_bytes(m, static_cast<int>(step)));
    macs += m.macs[step];
  }
  EXPECT_EQ(r["macs"], macs);
  ASSERT_NO_FATAL_FAILURE(check_io_json(m, r["inputs"], m.graph.inputs));
  ASSERT_NO_FATAL_FAILURE(check_io_json(m, r["outputs"], m.graph.outputs));
}

// --- the cases -----------------------------------------------------------------------------------------------

TEST(ReportsAddUp, EveryFigureMatchesThePlan) {
  for (const Case& c : cases()) {
    SCOPED_TRACE(describe(c));
    const std::filesystem::path path = std::filesystem::path(MICROAOT_SHARED_DIR) / "models" / c.model / "model.tflite";
    if (!std::filesystem::exists(path)) {
      if (std::getenv("CI") != nullptr) ADD_FAILURE() << path << " is missing";
      GTEST_SKIP() << path << " is missing";
    }
    std::ifstream in(path, std::ios::binary);
    CompileOptions options;
    options.pools = c.pools;
    options.io_in_arena = c.io_in_arena;
    options.source_name = "model.tflite";
    const std::vector<uint8_t> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    const CompiledModel m = compile_model(bytes, options);
    ASSERT_EQ(m.pool_of.empty(), c.pools.empty());
    const PeakInfo peak = tensor_peak(m);
    ASSERT_EQ(m.lower_bound.bytes, peak.bytes);
    ASSERT_EQ(m.lower_bound.op, peak.op);
    const FileSet files = emit_library(m);
    const std::string& plan = files.at("memory_plan.txt");
    ASSERT_NO_FATAL_FAILURE(check_plan_summary(m, plan)) << plan;
    ASSERT_NO_FATAL_FAILURE(check_plan_table(m, plan)) << plan;
    ASSERT_NO_FATAL_FAILURE(check_plan_names(m, plan)) << plan;
    ASSERT_NO_FATAL_FAILURE(check_network_info(m, files.at("network_info.txt"))) << files.at("network_info.txt");
    ASSERT_NO_FATAL_FAILURE(check_report_json(m, files.at("report.json"), files.at("network_info.txt")));
  }
}

}  // namespace
}  // namespace microaot
