#include "memory/arena_bounds.h"

#include <gtest/gtest.h>

#include "memory/liveness.h"

namespace microaot {
namespace {

// in -> A -> t1 -> B -> t2 -> C -> out, each tensor 100 int8 elements; the file lists C, A, B.
Graph chain_graph() {
  Graph g;
  for (int i = 0; i < 4; ++i) {
    Tensor t;
    t.name = "t" + std::to_string(i);
    t.dtype = DType::kInt8;
    t.shape = {100};
    g.tensors.push_back(t);
  }
  const int source[] = {1, 2, 0};
  for (int i = 0; i < 3; ++i) {
    Op op;
    op.inputs = {i};
    op.outputs = {i + 1};
    op.source_index = source[i];
    g.ops.push_back(op);
  }
  g.inputs = {0};
  g.outputs = {3};
  return g;
}

TEST(ArenaBounds, KnowsTheGraphInterface) {
  const Graph g = chain_graph();
  EXPECT_TRUE(is_graph_interface(g, 0));
  EXPECT_TRUE(is_graph_interface(g, 3));
  EXPECT_FALSE(is_graph_interface(g, 1));
}

TEST(ArenaBounds, LeavesTheInterfaceOutOfTheArenaOnlyWhenAsked) {
  const Graph g = chain_graph();
  EXPECT_EQ(arena_records(g, 16, true).size(), 4u);
  const std::vector<BufferRecord> inner = arena_records(g, 16, false);
  ASSERT_EQ(inner.size(), 2u);
  EXPECT_EQ(inner[0].tensor_id, 1);
  EXPECT_EQ(inner[1].tensor_id, 2);
}

TEST(ArenaBounds, SourceOrderBoundFollowsTheFileOrder) {
  const Graph g = chain_graph();
  // Executed as written, two 112-byte tensors are live together at most.
  EXPECT_EQ(classic_bound(arena_records(g, 16, true)).bytes, 224);
  // In the file's order (C, A, B) C reads t2 before B writes it: t2 lives from op 0 to 2, and at op 1 all
  // four tensors are live.
  EXPECT_EQ(source_order_bound(g, 16, true), 448);
}

}  // namespace
}  // namespace microaot
