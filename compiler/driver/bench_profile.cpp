#include "driver/bench_profile.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "driver/bench_cycles.h"
#include "support/diagnostics.h"

namespace microaot {

namespace {
using Json = nlohmann::ordered_json;

// Instructions per MAC to three decimals; null for a step (or type) without MACs.
Json per_mac(int64_t instructions, int64_t macs) {
  if (macs == 0) return nullptr;
  return std::round(1000.0 * static_cast<double>(instructions) / static_cast<double>(macs)) / 1000.0;
}

Json step_rows(const CompiledModel& model, const std::vector<BoardRun::Op>& ops) {
  if (ops.size() != model.calls.size()) {
    throw CompileError("the profiled run measured " + std::to_string(ops.size()) + " steps; the model has " +
                       std::to_string(model.calls.size()));
  }
  Json rows = Json::array();
  for (size_t step = 0; step < ops.size(); ++step) {
    MICROAOT_CHECK(ops[step].step == static_cast<int>(step), "the profiled run measured the steps in order");
    const Op& op = model.graph.ops[step];
    rows.push_back({{"step", step}, {"op", op_kind_name(op.kind)}, {"op_index", op.source_index},
                    {"kernel", model.calls[step].function()}, {"macs", model.macs[step]},
                    {"instructions", ops[step].instructions},
                    {"instructions_per_mac", per_mac(ops[step].instructions, model.macs[step])}});
  }
  return rows;
}

// One row per operator type, the most instructions first (m4-anchors.md's layout).
Json type_rows(const Json& steps) {
  struct Sum {
    int64_t count = 0, macs = 0, instructions = 0, cycles = 0;
    bool priced = false;  // the rows carry estimated cycles
  };
  std::map<std::string, Sum> sums;
  for (const Json& row : steps) {
    Sum& s = sums[row["op"].get<std::string>()];
    s.count += 1;
    if (row.contains("estimated_cycles")) s.cycles += row["estimated_cycles"].get<int64_t>(), s.priced = true;
    s.macs += row["macs"].get<int64_t>();
    s.instructions += row["instructions"].get<int64_t>();
  }
  std::vector<std::pair<std::string, Sum>> order(sums.begin(), sums.end());
  std::stable_sort(order.begin(), order.end(),
                   [](const auto& a, const auto& b) { return a.second.instructions > b.second.instructions; });
  Json rows = Json::array();
  for (const auto& [op, s] : order) {
    rows.push_back({{"op", op}, {"count", s.count}, {"macs", s.macs}, {"instructions", s.instructions},
                    {"instructions_per_mac", per_mac(s.instructions, s.macs)}});
    if (s.priced) rows.back()["estimated_cycles"] = s.cycles;
  }
  return rows;
}

std::string per_mac_text(const Json& value) {
  if (value.is_null()) return "";
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", value.get<double>());
  return text;
}

// The estimated-cycles column of a table whose rows carry them: its header (row null) or the row's cell.
std::string cycles_cell(const Json& rows, const Json* row) {
  if (rows.empty() || !rows[0].contains("estimated_cycles")) return "";
  char text[40];
  std::snprintf(text, sizeof text, " %14s", row == nullptr ? "est. cycles" : grouped((*row)["estimated_cycles"].get<int64_t>()).c_str());
  return text;
}

std::string percent(int64_t part, int64_t whole, int decimals) {
  char text[32];
  const double share = whole > 0 ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0;
  std::snprintf(text, sizeof text, "%.*f", decimals, share);
  return text;
}
}  // namespace

std::string grouped(int64_t n) {
  std::string digits = std::to_string(n < 0 ? -n : n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return n < 0 ? "-" + out : out;
}

void add_per_op_profile(Json& r, const CompiledModel& model, const CortexMBoard& board, const BuildTools& tools,
                        const CortexMImage& plain, const std::vector<uint8_t>& inputs, const BoardRun& plain_run,
                        const CycleCore* cycles) {
  const CortexMImage image = build_profiled_image(model, board, tools, plain);
  const std::string exec_log = cycles != nullptr ? image.dir + "/exec.log" : "";
  const BoardRun profiled = run_cortex_m_image(board, image, inputs, exec_log);
  if (profiled.outputs != plain_run.outputs) {
    throw CompileError("the build with the op hooks (MICROAOT_PROFILE) computed other outputs than the plain build");
  }
  MICROAOT_CHECK(profiled.sets.size() == 1, "one input set was profiled");
  Json steps = step_rows(model, profiled.sets[0].ops);
  if (cycles != nullptr) add_step_cycles(steps, *cycles, exec_log);
  int64_t sum = 0;
  for (const Json& row : steps) sum += row["instructions"].get<int64_t>();
  const int64_t total = r["instructions"].get<int64_t>();
  r["per_op"] = steps;
  r["per_op_types"] = type_rows(steps);
  r["per_op_instructions"] = sum;
  r["per_op_coverage"] = total > 0 ? std::round(1e5 * static_cast<double>(sum) / static_cast<double>(total)) / 1e5 : 0.0;
  r["per_op_hook_instructions"] = profiled.op_hook_instructions;
}

void print_per_op_profile(const Json& r) {
  const int64_t sum = r["per_op_instructions"].get<int64_t>();
  std::printf("\n  per operator (a second run with the op hooks, %s instructions of each begin/end pair removed;\n"
              "  the rows add up to %s of the instructions above)\n",
              grouped(r["per_op_hook_instructions"].get<int64_t>()).c_str(),
              (percent(sum, r["instructions"].get<int64_t>(), 2) + "%").c_str());
  int kernel_width = 6;
  for (const Json& row : r["per_op"]) kernel_width = std::max(kernel_width, static_cast<int>(row["kernel"].get<std::string>().size()));
  std::printf("  %4s %5s  %-20s %-*s %12s %14s %9s %6s%s\n", "step", "index", "operator", kernel_width, "kernel", "MACs",
              "instructions", "instr/MAC", "share%", cycles_cell(r["per_op"], nullptr).c_str());
  for (const Json& row : r["per_op"]) {
    const int64_t instructions = row["instructions"].get<int64_t>();
    std::printf("  %4d %5d  %-20s %-*s %12s %14s %9s %6s%s\n", row["step"].get<int>(), row["op_index"].get<int>(),
                row["op"].get<std::string>().c_str(), kernel_width, row["kernel"].get<std::string>().c_str(),
                grouped(row["macs"].get<int64_t>()).c_str(), grouped(instructions).c_str(),
                per_mac_text(row["instructions_per_mac"]).c_str(), percent(instructions, sum, 1).c_str(),
                cycles_cell(r["per_op"], &row).c_str());
  }
  std::printf("\n  per operator type\n  %-20s %5s %12s %14s %9s %6s%s\n", "operator", "count", "MACs", "instructions",
              "instr/MAC", "share%", cycles_cell(r["per_op_types"], nullptr).c_str());
  for (const Json& row : r["per_op_types"]) {
    const int64_t instructions = row["instructions"].get<int64_t>();
    std::printf("  %-20s %5d %12s %14s %9s %6s%s\n", row["op"].get<std::string>().c_str(), row["count"].get<int>(),
                grouped(row["macs"].get<int64_t>()).c_str(), grouped(instructions).c_str(),
                per_mac_text(row["instructions_per_mac"]).c_str(), percent(instructions, sum, 1).c_str(),
                cycles_cell(r["per_op_types"], &row).c_str());
  }
}

}  // namespace microaot
