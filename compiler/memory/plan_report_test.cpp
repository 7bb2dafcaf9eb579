#include "memory/plan_report.h"

#include <gtest/gtest.h>

#include <sstream>

#include "memory/liveness.h"
#include "memory/planners.h"

namespace microaot {
namespace {

int add_tensor(Graph& g, const std::string& name, int64_t bytes, int alias_of = -1) {
  Tensor t;
  t.name = name;
  t.dtype = DType::kInt8;
  t.shape = {static_cast<int32_t>(bytes)};
  t.alias_of = alias_of;
  g.tensors.push_back(t);
  return static_cast<int>(g.tensors.size()) - 1;
}

// in(10) -FC-> fc_out(4) -RESHAPE alias-> reshaped -SOFTMAX-> probs(4)
Graph chain_graph() {
  Graph g;
  int in = add_tensor(g, "in", 10);
  int fc = add_tensor(g, "fc_out", 4);
  int reshaped = add_tensor(g, "reshaped", 4, fc);
  int probs = add_tensor(g, "probs", 4);
  g.ops.push_back(Op{OpKind::FullyConnected, 0, 1, {in}, {fc}, NoOptions{}});
  g.ops.push_back(Op{OpKind::Reshape, 1, 1, {fc}, {reshaped}, NoOptions{}});
  g.ops.push_back(Op{OpKind::Softmax, 2, 1, {reshaped}, {probs}, NoOptions{}});
  g.inputs = {in};
  g.outputs = {probs};
  return g;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::vector<std::string> words_of(const std::string& line) {
  std::vector<std::string> words;
  std::istringstream in(line);
  for (std::string word; in >> word;) words.push_back(word);
  return words;
}

TEST(PlanReport, ListsSummaryBuffersByOffsetAndAliases) {
  Graph g = chain_graph();
  std::vector<BufferRecord> records = analyze_lifetimes(g, 16);
  MemoryPlan plan = plan_greedy_by_size(records);
  std::string text = format_memory_plan(g, records, plan);
  std::vector<std::string> lines = lines_of(text);
  ASSERT_GE(lines.size(), 12u) << text;
  EXPECT_EQ(lines[0], "planner: greedy_by_size");
  // in [0,0], fc_out [0,2], probs [2,2], 16 bytes each: in and probs share offset 0, fc_out sits above.
  EXPECT_EQ(lines[1], "arena size: 32 bytes");
  EXPECT_EQ(lines[2], "lower bound (peak live bytes): 32 bytes at step 0 (FULLY_CONNECTED, op 0)");
  EXPECT_EQ(lines[3], "over lower bound: 0 bytes");
  EXPECT_EQ(lines[4], "buffers: 3");
  EXPECT_EQ(words_of(lines[6]), (std::vector<std::string>{"tensor", "offset", "size", "align", "first", "last",
                                                          "name"}));
  EXPECT_EQ(words_of(lines[7]), (std::vector<std::string>{"0", "0", "16", "16", "0", "0", "in"}));
  EXPECT_EQ(words_of(lines[8]), (std::vector<std::string>{"3", "0", "16", "16", "2", "2", "probs"}));
  EXPECT_EQ(words_of(lines[9]), (std::vector<std::string>{"1", "16", "16", "16", "0", "2", "fc_out"}));
  EXPECT_NE(text.find("  tensor 2 'reshaped' alias of tensor 1 'fc_out'\n"), std::string::npos) << text;
  EXPECT_EQ(text, format_memory_plan(g, records, plan));
}

TEST(PlanReport, EmptyPlanHasNoPeakOp) {
  Graph g;
  std::string text = format_memory_plan(g, {}, plan_linear({}));
  EXPECT_NE(text.find("lower bound (peak live bytes): 0 bytes\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("alias"), std::string::npos) << text;
}

}  // namespace
}  // namespace microaot
