#include "memory/plan_attempts.h"

#include <gtest/gtest.h>

#include "memory/memory_test_util.h"
#include "memory/planners.h"

namespace microaot {
namespace {

using testing_util::rec;

// Three steps: tensor 1 (records[0]) dies at step 1, where tensor 2 (records[1]) is born; step 1 may write it
// in place with 8 bytes of scratch for its flavor; step 2 has 20 bytes of scratch of its own and runs in step 1
// (a chain's later step).
RequestParts parts() {
  RequestParts p;
  p.tensors = {rec(1, 64, 16, 0, 1), rec(2, 64, 16, 1, 2)};
  p.step_scratch = {0, 0, 20};
  p.runs_in = {0, 1, 1};
  p.candidates = {{1, OverlapPermit{1, 0, 0}, 8}};
  p.chain_permits = {OverlapPermit{0, 1, 32}};
  return p;
}

TEST(AssembleRequest, AddsEachStepsScratchAfterTheTensorsAndTheOfferedPermitsBeforeTheChains) {
  std::vector<int> scratch_of;
  const PlanRequest request = assemble_request(parts(), {true}, scratch_of);
  ASSERT_EQ(request.records.size(), 4u);
  EXPECT_EQ(scratch_of, (std::vector<int>{-1, 2, 3}));
  EXPECT_EQ(request.records[2].size, 16);  // the candidate's 8 bytes, aligned
  EXPECT_EQ(request.records[2].kind, BufferKind::kScratch);
  EXPECT_EQ(request.records[3].size, 32);  // step 2's own 20 bytes, aligned
  EXPECT_EQ(request.records[3].first_op, 1);  // it runs in step 1
  EXPECT_EQ(request.records[3].last_op, 1);
  EXPECT_EQ(request.records[3].step, 2);
  ASSERT_EQ(request.permits.size(), 2u);
  EXPECT_EQ(request.permits[0].output, 1u);
  EXPECT_EQ(request.permits[1].max_shift, 32);  // the chain's, last
}

TEST(AssembleRequest, LeavesOutTheScratchAndPermitOfACandidateNotOffered) {
  std::vector<int> scratch_of;
  const PlanRequest request = assemble_request(parts(), {false}, scratch_of);
  EXPECT_EQ(scratch_of, (std::vector<int>{-1, -1, 2}));
  ASSERT_EQ(request.permits.size(), 1u);
  EXPECT_EQ(request.permits[0].max_shift, 32);
}

// A plan with the output over its input (offsets 0 and 0), the scratch after them.
MemoryPlan in_place_plan(const PlanRequest& request) {
  MemoryPlan plan;
  plan.offsets.assign(request.records.size(), 0);
  int64_t end = 64;
  for (size_t i = 2; i < request.records.size(); ++i) {
    plan.offsets[i] = end;
    end += request.records[i].size;
  }
  plan.arena_size = end;
  return plan;
}

TEST(PlaceWithRetry, KeepsTheFirstAttemptWhenItUsesEveryCandidate) {
  int calls = 0;
  const Placement<MemoryPlan> placed = place_with_retry<MemoryPlan>(parts(), [&](const PlanRequest& request) {
    ++calls;
    return in_place_plan(request);
  });
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(placed.used, (std::vector<bool>{true}));
  EXPECT_EQ(placed.request.records.size(), 4u);
}

TEST(PlaceWithRetry, DropsTheScratchOfACandidateTheFirstPlanDidNotUse) {
  RequestParts p = parts();
  p.chain_permits.clear();
  // plan_linear shares nothing: the first attempt reserves the candidate's scratch for nothing.
  const Placement<MemoryPlan> placed =
      place_with_retry<MemoryPlan>(p, [](const PlanRequest& request) { return plan_linear(request); });
  EXPECT_EQ(placed.used, (std::vector<bool>{false}));
  EXPECT_EQ(placed.request.records.size(), 3u);
  EXPECT_EQ(placed.scratch_of, (std::vector<int>{-1, -1, 2}));
  EXPECT_EQ(placed.plan.arena_size, 64 + 64 + 32);
}

TEST(PlaceWithRetry, KeepsTheFirstAttemptOnATie) {
  const Placement<MemoryPlan> placed = place_with_retry<MemoryPlan>(parts(), [](const PlanRequest& request) {
    MemoryPlan plan = plan_linear(request);
    plan.arena_size = 1000;  // both attempts alike
    return plan;
  });
  EXPECT_EQ(placed.request.records.size(), 4u);
  EXPECT_EQ(placed.used, (std::vector<bool>{false}));
}

PooledPlan one_pool(const PlanRequest& request, bool ok) {
  const MemoryPlan plan = plan_linear(request);
  PooledPlan pooled;
  pooled.ok = ok;
  pooled.pool.assign(request.records.size(), 0);
  pooled.offsets = plan.offsets;
  pooled.used = {plan.arena_size};
  pooled.planners = {"linear"};
  return pooled;
}

TEST(PlaceWithRetry, ReturnsAFirstPooledAttemptThatPlacesNothing) {
  int calls = 0;
  const Placement<PooledPlan> placed = place_with_retry<PooledPlan>(parts(), [&](const PlanRequest& request) {
    ++calls;
    return one_pool(request, false);
  });
  EXPECT_EQ(calls, 1);
  EXPECT_FALSE(placed.plan.ok);
  EXPECT_TRUE(placed.used.empty());
}

TEST(PlaceWithRetry, KeepsTheFirstPooledAttemptWhenTheRetryPlacesNothing) {
  int calls = 0;
  const Placement<PooledPlan> placed = place_with_retry<PooledPlan>(parts(), [&](const PlanRequest& request) {
    return one_pool(request, ++calls == 1);
  });
  EXPECT_EQ(calls, 2);
  EXPECT_TRUE(placed.plan.ok);
  EXPECT_EQ(placed.request.records.size(), 4u);
  EXPECT_EQ(placed_bytes(placed.plan), 64 + 64 + 16 + 32);
}

TEST(PlaceWithRetry, TakesTheSmallerPooledRetry) {
  RequestParts p = parts();
  p.chain_permits.clear();
  const Placement<PooledPlan> placed =
      place_with_retry<PooledPlan>(p, [](const PlanRequest& request) { return one_pool(request, true); });
  EXPECT_EQ(placed.request.records.size(), 3u);
  EXPECT_EQ(placed_bytes(placed.plan), 64 + 64 + 32);
}

}  // namespace
}  // namespace microaot
