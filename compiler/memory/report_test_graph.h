// Test helper for plan_report_test.cpp and plan_svg_test.cpp: a small graph with a hand-made plan that uses
// every feature the reports show (model input/output, in-place reuse, a scratch buffer, an alias, pools).
#pragma once

#include <string>

#include "ir/graph.h"
#include "memory/buffer.h"
#include "memory/plan_report.h"

namespace microaot::report_test {

inline int add_tensor(Graph& g, const std::string& name, int64_t bytes, int alias_of = -1) {
  Tensor t;
  t.name = name;
  t.dtype = DType::kInt8;
  t.shape = {static_cast<int32_t>(bytes)};
  t.alias_of = alias_of;
  g.tensors.push_back(t);
  return static_cast<int>(g.tensors.size()) - 1;
}

struct Example {
  Graph graph;
  PlanRequest request;
  MemoryPlan plan;
};

// step 0: in(t0, 16) -CONV_2D-> a(t1, 32)
// step 1: a + a -ADD-> b(t2, 32), written over a in place (permit, shift 0)
// step 2: b -RESHAPE-> c (t3, alias of b)
// step 3: c -FULLY_CONNECTED-> out(t4, 16), with an 8-byte scratch
// Live sets without reuse: 48, 64, 32, 56 -> lower bound 64 at step 1. The plan puts a and b both at 0
// (in place), in and out at 32, the scratch at 48: arena 56, 8 bytes below the bound.
inline Example example() {
  Example e;
  Graph& g = e.graph;
  const int in = add_tensor(g, "in", 16), a = add_tensor(g, "a", 32), b = add_tensor(g, "b", 32);
  const int c = add_tensor(g, "c", 32, b), out = add_tensor(g, "out", 16);
  g.ops.push_back(Op{OpKind::Conv2D, 0, 1, {in}, {a}, NoOptions{}});
  g.ops.push_back(Op{OpKind::Add, 1, 1, {a, a}, {b}, NoOptions{}});
  g.ops.push_back(Op{OpKind::Reshape, 2, 1, {b}, {c}, NoOptions{}});
  g.ops.push_back(Op{OpKind::FullyConnected, 3, 1, {c}, {out}, NoOptions{}});
  g.inputs = {in};
  g.outputs = {out};
  e.request.records = {
      {in, 16, 16, 0, 0, BufferKind::kTensor},  {a, 32, 16, 0, 1, BufferKind::kTensor},
      {b, 32, 16, 1, 3, BufferKind::kTensor},   {out, 16, 16, 3, 3, BufferKind::kTensor},
      {-1, 8, 8, 3, 3, BufferKind::kScratch},
  };
  e.request.permits = {{2, 1, 0}};
  e.plan.offsets = {32, 0, 0, 32, 48};
  e.plan.arena_size = 56;
  e.plan.planner = "by_hand";
  return e;
}

// The example over two pools: a, in and out in "fast"; b and the scratch in "slow" (b [0, 32), scratch
// [32, 40)). b's offset equals a's in another memory: not an overlap.
inline PoolLayout example_pools(Example& e) {
  e.plan.offsets = {32, 0, 0, 32, 32};
  PoolLayout pools;
  pools.pools = {{"fast", 64, 48, "by_hand", "m_static_arena"}, {"slow", 100, 40, "greedy", "m_pool_slow"}};
  pools.pool_of = {0, 0, 1, 0, 1};
  return pools;
}

}  // namespace microaot::report_test
