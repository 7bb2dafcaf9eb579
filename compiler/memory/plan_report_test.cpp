#include "memory/plan_report.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include "compile/compile_model.h"
#include "memory/liveness.h"
#include "memory/report_test_graph.h"

namespace microaot {
namespace {

using report_test::add_tensor;
using report_test::example;
using Words = std::vector<std::string>;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

Words words_of(const std::string& line) {
  Words words;
  std::istringstream in(line);
  for (std::string word; in >> word;) words.push_back(word);
  return words;
}

// The table rows: lines after the header that starts with "buffer", up to the first empty line.
std::vector<Words> table_rows(const std::string& text) {
  std::vector<Words> rows;
  bool in_table = false;
  for (const std::string& line : lines_of(text)) {
    if (in_table && line.empty()) break;
    if (in_table) rows.push_back(words_of(line));
    if (line.compare(0, 6, "buffer") == 0 && line.find("offset") != std::string::npos) in_table = true;
  }
  return rows;
}

TEST(PlanReport, SummaryNamesBoundPeakAndSavings) {
  report_test::Example e = example();
  std::vector<std::string> lines = lines_of(format_memory_plan(e.graph, e.request, e.plan));
  ASSERT_GE(lines.size(), 8u);
  EXPECT_EQ(words_of(lines[0]), (Words{"planner:", "by_hand"}));
  EXPECT_EQ(words_of(lines[1]), (Words{"arena:", "56", "bytes"}));
  EXPECT_EQ(lines[2].find("lower bound:  64 bytes"), 0u) << lines[2];
  EXPECT_EQ(lines[3].find("in-place:     saves 8 bytes below the lower bound (1 buffers"), 0u) << lines[3];
  EXPECT_EQ(lines[4], "peak:         step 1 (ADD, op 1): 64 bytes live in 2 buffers");
  EXPECT_EQ(words_of(lines[5]), (Words{"t1", "32", "a"}));
  EXPECT_EQ(words_of(lines[6]), (Words{"t2", "32", "b"}));
  EXPECT_EQ(lines[7], "buffers:      5 (4 tensors, 1 scratch, 0 empty)");
}

TEST(PlanReport, ListsEveryBufferByOffsetWithLifetimeAndInPlaceInput) {
  report_test::Example e = example();
  const std::string text = format_memory_plan(e.graph, e.request, e.plan);
  const std::vector<Words> rows = table_rows(text);
  ASSERT_EQ(rows.size(), 5u) << text;
  // Offsets 0, 0, 32, 32, 48; equal offsets by first op.
  EXPECT_EQ(rows[0], (Words{"t1", "0", "32", "32", "16", "0", "CONV_2D", "1", "ADD", "a"}));
  EXPECT_EQ(rows[1], (Words{"t2", "0", "32", "32", "16", "1", "ADD", "3", "FULLY_CONNECTED", "over", "t1",
                            "(shift", "0)", "b"}));
  EXPECT_EQ(rows[2], (Words{"t0", "32", "48", "16", "16", "0", "CONV_2D", "0", "CONV_2D", "in"}));
  EXPECT_EQ(rows[3], (Words{"t4", "32", "48", "16", "16", "3", "FULLY_CONNECTED", "3", "FULLY_CONNECTED", "out"}));
  EXPECT_EQ(rows[4], (Words{"scratch", "48", "56", "8", "8", "3", "FULLY_CONNECTED", "3", "FULLY_CONNECTED",
                            "kernel", "scratch"}));
  EXPECT_NE(text.find("\n  t3 'c' alias of t2 'b'\n"), std::string::npos) << text;
  EXPECT_EQ(text, format_memory_plan(e.graph, e.request, e.plan));
}

TEST(PlanReport, ArenaAboveTheBoundSaysBy) {
  report_test::Example e = example();
  e.request.permits.clear();  // a and b may no longer share: move b above everything
  e.plan.offsets[2] = 64;
  e.plan.arena_size = 96;
  const std::string text = format_memory_plan(e.graph, e.request, e.plan);
  EXPECT_NE(text.find("\nover bound:   32 bytes\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("over t1"), std::string::npos) << text;
}

TEST(PlanReport, UsedInPlaceOnlyWhenBytesAndLifetimesMeet) {
  report_test::Example e = example();
  std::vector<InPlaceUse> used = used_in_place(e.request, e.plan);
  ASSERT_EQ(used.size(), 1u);
  EXPECT_EQ(used[0].output, 2u);
  EXPECT_EQ(used[0].input, 1u);
  EXPECT_EQ(used[0].shift, 0);
  e.plan.offsets[2] = 16;  // b [16, 48) over a [0, 32): still shares bytes
  used = used_in_place(e.request, e.plan);
  ASSERT_EQ(used.size(), 1u);
  EXPECT_EQ(used[0].shift, 16);
  e.plan.offsets[2] = 32;  // touching, not sharing
  EXPECT_TRUE(used_in_place(e.request, e.plan).empty());
  e.plan.offsets[2] = 0;
  e.request.records[2].first_op = 2;  // no longer live together
  EXPECT_TRUE(used_in_place(e.request, e.plan).empty());
}

TEST(PlanReport, LongNamesAreShortenedToFitTheLine) {
  report_test::Example e = example();
  e.graph.tensors[1].name = std::string(200, 'x') + "_tail";
  const std::string text = format_memory_plan(e.graph, e.request, e.plan);
  for (const std::string& line : lines_of(text)) EXPECT_LE(line.size(), 120u) << line;
  const std::vector<Words> rows = table_rows(text);
  ASSERT_EQ(rows.size(), 5u);
  const std::string shortened = rows[0].back();
  EXPECT_LT(shortened.size(), 60u) << text;
  EXPECT_EQ(shortened.substr(shortened.size() - 8), "xxx_tail") << text;
  EXPECT_NE(shortened.find("x...x"), std::string::npos) << text;
}

TEST(PlanReport, EmptyPlanHasNoPeakOp) {
  Graph g;
  MemoryPlan plan;
  plan.planner = "linear";
  const std::string text = format_memory_plan(g, PlanRequest{}, plan);
  EXPECT_NE(text.find("lower bound:  0 bytes"), std::string::npos) << text;
  EXPECT_NE(text.find("peak:         none (no buffers)\n"), std::string::npos) << text;
  EXPECT_NE(text.find("buffers:      0 (0 tensors, 0 scratch, 0 empty)\n"), std::string::npos) << text;
  EXPECT_TRUE(table_rows(text).empty()) << text;
  EXPECT_EQ(text.find("alias"), std::string::npos) << text;
}

TEST(PlanReport, ZeroSizeBufferIsListed) {
  Graph g;
  const int t = add_tensor(g, "nothing", 0);
  g.ops.push_back(Op{OpKind::Softmax, 0, 1, {t}, {t}, NoOptions{}});
  MemoryPlan plan;
  plan.offsets = {0};
  const std::string text = format_memory_plan(g, PlanRequest{{{t, 0, 16, 0, 0, BufferKind::kTensor}}, {}}, plan);
  ASSERT_EQ(table_rows(text).size(), 1u) << text;
  EXPECT_EQ(table_rows(text)[0], (Words{"t0", "0", "0", "0", "16", "0", "SOFTMAX", "0", "SOFTMAX", "nothing"}));
  EXPECT_NE(text.find("(1 tensors, 0 scratch, 1 empty)"), std::string::npos) << text;
}

// A real model: every record has its row, the peak op is named, and the bound is the liveness peak.
TEST(PlanReport, RealModelListsEveryBuffer) {
  const std::filesystem::path path = std::filesystem::path(MICROAOT_SHARED_DIR) / "models/kws_dscnn_int8/model.tflite";
  if (!std::filesystem::exists(path)) {
    if (std::getenv("CI") != nullptr) ADD_FAILURE() << path << " is missing";
    GTEST_SKIP() << path << " is missing";
  }
  std::ifstream in(path, std::ios::binary);
  const std::vector<uint8_t> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  const CompiledModel model = compile_model(bytes, CompileOptions{});
  const PlanRequest request{model.buffers, model.permits};
  const std::string text = format_memory_plan(model.graph, request, model.plan);
  const std::vector<Words> rows = table_rows(text);
  ASSERT_EQ(rows.size(), request.records.size()) << text;
  for (size_t i = 0; i < request.records.size(); ++i) {
    const BufferRecord& r = request.records[i];
    const std::string offset = std::to_string(model.plan.offsets[i]);
    size_t matches = 0;
    for (const Words& row : rows) {
      matches += row[0] == buffer_tag(r) && row[1] == offset && row[5] == std::to_string(r.first_op);
    }
    EXPECT_EQ(matches, 1u) << "record " << i;
  }
  const PeakInfo peak = classic_bound(request.records);
  EXPECT_NE(text.find("lower bound:  " + std::to_string(peak.bytes) + " bytes"), std::string::npos) << text;
  EXPECT_NE(text.find("peak:         step " + std::to_string(peak.op) + " (" +
                      op_kind_name(model.graph.ops[peak.op].kind) + ", op "),
            std::string::npos)
      << text;
  for (const std::string& line : lines_of(text)) EXPECT_LE(line.size(), 120u) << line;
}

}  // namespace
}  // namespace microaot
