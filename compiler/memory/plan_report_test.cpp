#include "memory/plan_report.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "compile/compile_model.h"
#include "memory/liveness.h"
#include "memory/report_test_graph.h"
#include "memory/report_text_test_util.h"

namespace microaot {
namespace {

using report_test::add_tensor;
using report_test::example;
using report_text::lines_of;
using report_text::names_table;
using report_text::summary;
using report_text::table_rows;
using report_text::Words;
using report_text::words_of;

TEST(PlanReport, SummaryNamesBoundPeakAndSavings) {
  report_test::Example e = example();
  std::vector<std::string> lines = lines_of(format_memory_plan(e.graph, e.request, e.plan));
  ASSERT_GE(lines.size(), 8u);
  EXPECT_EQ(words_of(lines[0]), (Words{"planner:", "by_hand"}));
  EXPECT_EQ(words_of(lines[1]), (Words{"arena:", "56", "bytes"}));
  EXPECT_EQ(lines[2].find("lower bound:  64 bytes"), 0u) << lines[2];
  EXPECT_EQ(lines[3].find("in-place:     saves 8 bytes below the lower bound (1 buffers"), 0u) << lines[3];
  EXPECT_EQ(lines[4], "peak:         step 1 (ADD, op 1): 64 bytes in 2 tensors");
  EXPECT_EQ(words_of(lines[5]), (Words{"t1", "32"}));
  EXPECT_EQ(words_of(lines[6]), (Words{"t2", "32"}));
  EXPECT_EQ(lines[7], "buffers:      5 (4 tensors, 1 scratch, 0 empty)");
}

// The peak line lists exactly the tensors the bound adds up: a scratch buffer live there is not one of them.
TEST(PlanReport, PeakListsTheTensorsThatMakeTheBound) {
  report_test::Example e = example();
  e.request.records[4].first_op = e.request.records[4].last_op = 1;  // the scratch now lives at the peak step
  e.plan.offsets[4] = 32;
  const std::map<std::string, std::string> values = summary(format_memory_plan(e.graph, e.request, e.plan));
  const std::vector<std::string> peak = lines_of(values.at("peak:"));
  ASSERT_EQ(peak.size(), 3u) << values.at("peak:");
  EXPECT_EQ(peak[0], "step 1 (ADD, op 1): 64 bytes in 2 tensors");
  EXPECT_EQ(words_of(peak[1]), (Words{"t1", "32"}));
  EXPECT_EQ(words_of(peak[2]), (Words{"t2", "32"}));
  EXPECT_EQ(peak_buffers(e.request.records), (std::vector<size_t>{1, 2}));
}

TEST(PlanReport, ListsEveryBufferByOffsetWithLifetimeAndInPlaceInput) {
  report_test::Example e = example();
  const std::string text = format_memory_plan(e.graph, e.request, e.plan);
  const std::vector<Words> rows = table_rows(text);
  ASSERT_EQ(rows.size(), 5u) << text;
  // Offsets 0, 0, 32, 32, 48; equal offsets by first op.
  EXPECT_EQ(rows[0], (Words{"t1", "0", "32", "32", "16", "0", "CONV_2D", "1", "ADD"}));
  EXPECT_EQ(rows[1], (Words{"t2", "0", "32", "32", "16", "1", "ADD", "3", "FULLY_CONNECTED", "over", "t1", "(shift",
                            "0)"}));
  EXPECT_EQ(rows[2], (Words{"t0", "32", "48", "16", "16", "0", "CONV_2D", "0", "CONV_2D"}));
  EXPECT_EQ(rows[3], (Words{"t4", "32", "48", "16", "16", "3", "FULLY_CONNECTED", "3", "FULLY_CONNECTED"}));
  EXPECT_EQ(rows[4], (Words{"scratch", "48", "56", "8", "8", "3", "FULLY_CONNECTED", "3", "FULLY_CONNECTED"}));
  EXPECT_EQ(names_table(text), (std::map<std::string, std::string>{
                                   {"t0", "in"}, {"t1", "a"}, {"t2", "b"}, {"t3", "c"}, {"t4", "out"}}));
  EXPECT_NE(text.find("\n  t3 alias of t2\n"), std::string::npos) << text;
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

// "t23 over t22 (shift 960)" with t22 in another pool was the case: offsets of two memories.
TEST(PlanReport, PoolsHaveAColumnTheirOwnLinesAndATotal) {
  report_test::Example e = example();
  const PoolLayout pools = report_test::example_pools(e);
  EXPECT_TRUE(used_in_place(e.request, e.plan, pools).empty());
  const std::string text = format_memory_plan(e.graph, e.request, e.plan, pools);
  const std::vector<std::string> lines = lines_of(text);
  ASSERT_GE(lines.size(), 5u);
  EXPECT_EQ(lines[0], "pools:        fast  48 of 64 bytes used, planner by_hand (the arena, m_static_arena)");
  EXPECT_EQ(lines[1], "              slow  40 of 100 bytes used, planner greedy (m_pool_slow)");
  EXPECT_EQ(lines[2], "total:        88 bytes in 2 pools");
  EXPECT_NE(text.find("\nover bound:   24 bytes\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("planner:"), std::string::npos) << "one planner line per pool: " << text;
  const std::map<std::string, std::string> values = summary(text);
  EXPECT_EQ(lines_of(values.at("peak:"))[1], "t1              32  fast");
  EXPECT_EQ(lines_of(values.at("peak:"))[2], "t2              32  slow");
  const std::vector<Words> rows = table_rows(text);
  ASSERT_EQ(rows.size(), 5u) << text;
  // By pool, then offset: fast a 0, in 32, out 32; slow b 0, scratch 32. No "over t1" anywhere.
  EXPECT_EQ(rows[0], (Words{"t1", "fast", "0", "32", "32", "16", "0", "CONV_2D", "1", "ADD"}));
  EXPECT_EQ(rows[1], (Words{"t0", "fast", "32", "48", "16", "16", "0", "CONV_2D", "0", "CONV_2D"}));
  EXPECT_EQ(rows[2], (Words{"t4", "fast", "32", "48", "16", "16", "3", "FULLY_CONNECTED", "3", "FULLY_CONNECTED"}));
  EXPECT_EQ(rows[3], (Words{"t2", "slow", "0", "32", "32", "16", "1", "ADD", "3", "FULLY_CONNECTED"}));
  EXPECT_EQ(rows[4],
            (Words{"scratch", "slow", "32", "40", "8", "8", "3", "FULLY_CONNECTED", "3", "FULLY_CONNECTED"}));
  EXPECT_EQ(text.find("over t1"), std::string::npos) << text;
}

// Long names are given in full, wrapped after a ';' or '/' when one is near the end of the line, and never
// past 120 columns; control characters become '?'.
TEST(PlanReport, FullNamesAreWrappedNotCut) {
  report_test::Example e = example();
  std::string fused;
  for (int i = 0; i < 12; ++i) fused += "model/block_" + std::to_string(i) + "/conv/Relu6;";
  e.graph.tensors[1].name = fused + std::string(150, 'x') + "_tail";
  e.graph.tensors[2].name = fused + "b";
  e.graph.tensors[0].name = "in\x01\n";
  const std::string text = format_memory_plan(e.graph, e.request, e.plan);
  for (const std::string& line : lines_of(text)) EXPECT_LE(line.size(), 120u) << line;
  const std::map<std::string, std::string> names = names_table(text);
  EXPECT_EQ(names.at("t1"), e.graph.tensors[1].name);
  EXPECT_EQ(names.at("t2"), e.graph.tensors[2].name);
  EXPECT_EQ(names.at("t0"), "in??");
  EXPECT_NE(text.find("Relu6;\n"), std::string::npos) << "not wrapped after a ';': " << text;
  EXPECT_EQ(table_rows(text).size(), 5u);
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
  EXPECT_EQ(text.find("names"), std::string::npos) << text;
}

TEST(PlanReport, ZeroSizeBufferIsListed) {
  Graph g;
  const int t = add_tensor(g, "nothing", 0);
  g.ops.push_back(Op{OpKind::Softmax, 0, 1, {t}, {t}, NoOptions{}});
  MemoryPlan plan;
  plan.offsets = {0};
  const std::string text = format_memory_plan(g, PlanRequest{{{t, 0, 16, 0, 0, BufferKind::kTensor}}, {}}, plan);
  ASSERT_EQ(table_rows(text).size(), 1u) << text;
  EXPECT_EQ(table_rows(text)[0], (Words{"t0", "0", "0", "0", "16", "0", "SOFTMAX", "0", "SOFTMAX"}));
  EXPECT_EQ(names_table(text).at("t0"), "nothing");
  EXPECT_NE(text.find("(1 tensors, 0 scratch, 1 empty)"), std::string::npos) << text;
  EXPECT_NE(text.find("0 bytes in 0 tensors"), std::string::npos) << text;
}

}  // namespace
}  // namespace microaot
