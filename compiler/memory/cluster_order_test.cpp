#include <gtest/gtest.h>

#include <chrono>
#include <iostream>

#include "memory/memory_test_util.h"
#include "memory/placement.h"
#include "memory/plan_check.h"
#include "memory/planners.h"

namespace microaot {
namespace {

using testing_util::join;
using testing_util::rec;

// A kws-like stack: conv (op 0) -> [dw -> pw] x blocks. Every activation is `act` bytes; a depthwise conv
// may write its output starting at most one row (`row` bytes) below its input (max_shift -row), a pointwise
// conv exactly over its input (max_shift 0); each dw/pw op has one row of scratch. Optionally a graph input
// (live at op 0 only) in the arena.
PlanRequest kws_chain(int blocks, int64_t act, int64_t row, bool with_input) {
  PlanRequest request;
  const int ops = 1 + 2 * blocks;
  for (int op = 0; op < ops; ++op) request.records.push_back(rec(op, act, 16, op, op + 1));  // output of `op`
  for (int op = 1; op < ops; ++op) {
    request.permits.push_back(OverlapPermit{size_t(op), size_t(op - 1), op % 2 == 1 ? -row : 0});
    request.records.push_back(rec(-1, row, 16, op, op, BufferKind::kScratch));
  }
  if (with_input) request.records.push_back(rec(1000, 496, 16, 0, 0));
  return request;
}

// Hand-computed optimum: every link's output starts at or below its input (or lies wholly apart, which
// needs 2 * act), each dw link at least one row lower: the first activation starts at >= blocks * row. Both
// bounds are reached: the chain descends one row per dw op down to 0, scratch and input fit beside it.
int64_t kws_optimum(int blocks, int64_t act, int64_t row) { return act + blocks * row; }

TEST(KwsChain, SearchingPlannersFollowTheInPlaceChainDown) {
  struct Case {
    int blocks;
    int64_t act, row;
    bool input;
  };
  for (const Case& c : {Case{4, 8000, 320, false}, Case{4, 8000, 320, true}, Case{2, 4096, 256, false},
                        Case{8, 6400, 320, true}, Case{13, 3200, 64, false}}) {
    const PlanRequest request = kws_chain(c.blocks, c.act, c.row, c.input);
    const int64_t optimum = kws_optimum(c.blocks, c.act, c.row);
    ASSERT_LT(optimum, 2 * c.act);
    for (PlannerFn planner : {plan_best, plan_hill_climb, plan_branch_and_bound}) {
      const MemoryPlan plan = planner(request);
      EXPECT_TRUE(check_plan(request, plan).empty()) << join(check_plan(request, plan));
      EXPECT_EQ(plan.arena_size, optimum) << plan.planner << " blocks " << c.blocks << " input " << c.input;
    }
  }
}

TEST(KwsChain, NoPlannerGoesBelowTheHandComputedOptimum) {
  const PlanRequest request = kws_chain(4, 8000, 320, true);
  for (const MemoryPlan& plan : run_all_planners(request)) EXPECT_GE(plan.arena_size, kws_optimum(4, 8000, 320));
}

// A long chain (133 records, 66 permits) still reaches the optimum within the planners' fixed work budgets
// (node counts, not time: the figures printed are for reading, not checked).
TEST(KwsChain, LongChainReachesTheOptimum) {
  const PlanRequest request = kws_chain(33, 12800, 320, true);
  for (PlannerFn planner : {plan_hill_climb, plan_branch_and_bound}) {
    const auto start = std::chrono::steady_clock::now();
    const MemoryPlan plan = planner(request);
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    EXPECT_EQ(plan.arena_size, kws_optimum(33, 12800, 320)) << plan.planner;
    std::cout << plan.planner << ": " << request.records.size() << " buffers in " << ms << " ms\n";
  }
}

TEST(PermitClusterOrder, PlacesEachChainFromItsEnd) {
  // Records 0 -> 1 -> 2 form a chain, 3 is alone and largest, 4 -> 5 another chain.
  PlanRequest request{{rec(0, 10, 1, 0, 1), rec(1, 10, 1, 1, 2), rec(2, 10, 1, 2, 3), rec(3, 50, 1, 0, 3),
                       rec(4, 20, 1, 3, 4), rec(5, 5, 1, 4, 5)},
                      {{1, 0, -1}, {2, 1, 0}, {5, 4, 0}}};
  PlacementContext context(request);
  const std::vector<size_t> base = {3, 4, 1, 0, 2, 5};
  const std::vector<size_t> expected = {3, 5, 4, 2, 1, 0};  // groups where their first member was
  EXPECT_EQ(permit_cluster_order(context, base), expected);
  EXPECT_EQ(permit_cluster_order(PlacementContext(PlanRequest{request.records, {}}), base), base);
}

TEST(PermitClusterOrder, SurvivesPermitCycles) {
  // Born and dying at the same op, each may be written over the other.
  PlanRequest request{{rec(0, 8, 1, 2, 2), rec(1, 8, 1, 2, 2), rec(2, 8, 1, 0, 1)}, {{0, 1, 0}, {1, 0, -4}}};
  PlacementContext context(request);
  std::vector<size_t> order = permit_cluster_order(context, {2, 1, 0});
  ASSERT_EQ(order.size(), 3u);
  EXPECT_EQ(order[0], 2u);
  EXPECT_NE(order[1], order[2]);
}

}  // namespace
}  // namespace microaot
