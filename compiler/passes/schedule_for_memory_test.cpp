#include <gtest/gtest.h>

#include <string>

#include "passes/pass.h"

namespace microaot {
namespace {

// A graph of ADD-like ops over int8 activations of the given element counts; op i reads `inputs[i]`.
struct GraphMaker {
  Graph graph;
  int tensor(int64_t elements, const std::string& name) {
    Tensor t;
    t.name = name;
    t.dtype = DType::kInt8;
    t.shape = {static_cast<int32_t>(elements)};
    graph.tensors.push_back(t);
    return static_cast<int>(graph.tensors.size()) - 1;
  }
  void op(std::vector<int> inputs, std::vector<int> outputs) {
    Op o;
    o.kind = OpKind::Add;
    o.source_index = static_cast<int>(graph.ops.size());
    o.inputs = std::move(inputs);
    o.outputs = std::move(outputs);
    graph.ops.push_back(o);
  }
};

std::vector<int> source_order(const Graph& graph) {
  std::vector<int> order;
  for (const Op& op : graph.ops) order.push_back(op.source_index);
  return order;
}

// Two branches from x (an input: it dies after its last reader). Given order: peak at op 2 = x + b + big =
// 1210. Running the branch with the huge intermediate first holds only x beside it: x + big + big2 = 1020.
TEST(ScheduleForMemory, RunsTheBranchWithTheHugeIntermediateFirst) {
  GraphMaker m;
  int x = m.tensor(10, "x");
  int big = m.tensor(1000, "big");
  int big2 = m.tensor(10, "big2");
  int a = m.tensor(500, "a");
  int b = m.tensor(200, "b");
  int y = m.tensor(10, "y");
  m.op({x}, {a});        // 0
  m.op({a}, {b});        // 1
  m.op({x}, {big});      // 2
  m.op({big}, {big2});   // 3
  m.op({b, big2}, {y});  // 4
  m.graph.inputs = {x};
  m.graph.outputs = {y};
  PassContext ctx;
  EXPECT_TRUE(schedule_for_memory(m.graph, ctx));
  EXPECT_EQ(source_order(m.graph), (std::vector<int>{2, 3, 0, 1, 4}));
}

TEST(ScheduleForMemory, DelaysAProducerWhoseResultIsReadLate) {
  GraphMaker m;
  int x = m.tensor(100, "x");
  int early = m.tensor(400, "early");   // produced first, read only at the end
  int c1 = m.tensor(300, "c1");
  int c2 = m.tensor(300, "c2");
  int y = m.tensor(10, "y");
  m.op({x}, {early});      // 0
  m.op({x}, {c1});         // 1
  m.op({c1}, {c2});        // 2
  m.op({early, c2}, {y});  // 3
  m.graph.inputs = {x};
  m.graph.outputs = {y};
  // Given order: early + c1 + c2 = 1000 at op 2. Running op 0 after op 2: x + c1 + c2 = 700 at op 2, then
  // x + c2 + early = 800 at op 0.
  PassContext ctx;
  EXPECT_TRUE(schedule_for_memory(m.graph, ctx));
  EXPECT_EQ(source_order(m.graph), (std::vector<int>{1, 2, 0, 3}));
}

TEST(ScheduleForMemory, KeepsEveryProducerBeforeItsReaders) {
  GraphMaker m;
  int x = m.tensor(64, "x");
  std::vector<int> branch;
  for (int i = 0; i < 6; ++i) {
    int t = m.tensor(64 * (i + 1), "t" + std::to_string(i));
    m.op({x}, {t});
    branch.push_back(t);
  }
  int y = m.tensor(8, "y");
  m.op(branch, {y});
  m.graph.inputs = {x};
  m.graph.outputs = {y};
  PassContext ctx;
  schedule_for_memory(m.graph, ctx);
  ASSERT_EQ(m.graph.ops.size(), 7u);
  EXPECT_EQ(m.graph.ops.back().source_index, 6);
}

TEST(ScheduleForMemory, LeavesAChainAlone) {
  GraphMaker m;
  int prev = m.tensor(16, "in");
  m.graph.inputs = {prev};
  for (int i = 0; i < 5; ++i) {
    int next = m.tensor(16 * (i + 2), "t" + std::to_string(i));
    m.op({prev}, {next});
    prev = next;
  }
  m.graph.outputs = {prev};
  PassContext ctx;
  EXPECT_FALSE(schedule_for_memory(m.graph, ctx));
}

}  // namespace
}  // namespace microaot
