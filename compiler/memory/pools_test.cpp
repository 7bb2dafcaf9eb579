#include "memory/pools.h"

#include <gtest/gtest.h>

#include <random>

#include "memory/memory_test_util.h"
#include "memory/placement.h"
#include "memory/plan_check.h"

namespace microaot {
namespace {

using testing_util::join;
using testing_util::mentions;
using testing_util::rec;

#ifdef MICROAOT_SLOW_TESTS
constexpr int kTrials = 150;
#else
constexpr int kTrials = 1000;
#endif

// A chain a -> b -> c -> d with a 16-byte skip buffer s living through all of it.
PlanRequest chain() {
  return PlanRequest{{rec(0, 64, 16, 0, 1), rec(1, 128, 16, 1, 2), rec(2, 64, 16, 2, 3), rec(3, 32, 16, 3, 4),
                      rec(4, 16, 16, 0, 4)},
                     {}};
}

TEST(PoolPlan, EverythingInTheFirstPoolWhenItFits) {
  PlanRequest request = chain();
  std::vector<PoolSpec> pools = {{"sram", 1000, 16}, {"sdram", 1000, 16}};
  PooledPlan plan = plan_pools(request, pools, plan_greedy_by_size);
  ASSERT_TRUE(plan.ok);
  EXPECT_EQ(plan.pool, (std::vector<size_t>(5, 0)));
  EXPECT_EQ(plan.used, (std::vector<int64_t>{plan_greedy_by_size(request).arena_size, 0}));
  EXPECT_EQ(plan.planners, (std::vector<std::string>{"greedy_by_size", ""}));
  EXPECT_TRUE(check_pooled_plan(request, pools, plan).empty()) << join(check_pooled_plan(request, pools, plan));
}

TEST(PoolPlan, SpillsTheCrowdedBufferToTheNextPool) {
  PlanRequest request = chain();
  ASSERT_EQ(plan_best(request).arena_size, 208);  // b + c + s at op 2
  std::vector<PoolSpec> pools = {{"sram", 100, 16}, {"sdram", 1000, 16}};
  PooledPlan plan = plan_pools(request, pools, plan_best);
  ASSERT_TRUE(plan.ok);
  EXPECT_EQ(plan.pool[1], 1u);  // the 128-byte b cannot fit in 100 bytes at all
  EXPECT_LE(plan.used[0], 100);
  EXPECT_TRUE(check_pooled_plan(request, pools, plan).empty()) << join(check_pooled_plan(request, pools, plan));
}

TEST(PoolPlan, MovesTheSmallestBufferThatCoversTheExcess) {
  // Live together: 64 + 48 + 16 = 128 in a 120-byte pool; moving the 16-byte buffer is enough.
  PlanRequest request{{rec(0, 64, 16, 0, 1), rec(1, 48, 16, 0, 1), rec(2, 16, 16, 0, 1)}, {}};
  std::vector<PoolSpec> pools = {{"fast", 120, 16}, {"slow", 64, 16}};
  PooledPlan plan = plan_pools(request, pools, plan_best);
  ASSERT_TRUE(plan.ok);
  EXPECT_EQ(plan.pool, (std::vector<size_t>{0, 0, 1}));
  EXPECT_EQ(plan.used, (std::vector<int64_t>{112, 16}));
}

TEST(PoolPlan, FailsWhenNothingFitsAndSaysHowMuchIsNeeded) {
  PlanRequest request = chain();
  std::vector<PoolSpec> pools = {{"sram", 100, 16}, {"sdram", 90, 16}};
  PooledPlan plan = plan_pools(request, pools, plan_best);
  EXPECT_FALSE(plan.ok);
  EXPECT_EQ(plan.required_bytes, 208);
  EXPECT_EQ(plan.available_bytes, 190);
  // One pool is the plain RAM budget case.
  plan = plan_pools(request, {{"ram", 207, 16}}, plan_best);
  EXPECT_FALSE(plan.ok);
  EXPECT_EQ(plan.required_bytes, 208);
  EXPECT_TRUE(plan_pools(request, {{"ram", 208, 16}}, plan_best).ok);
}

TEST(PoolPlan, HonoursThePoolAlignment) {
  PlanRequest request{{rec(0, 10, 1, 0, 1), rec(1, 10, 1, 0, 1), rec(2, 10, 4, 1, 2)}, {}};
  std::vector<PoolSpec> pools = {{"dma", 1000, 32}};
  PooledPlan plan = plan_pools(request, pools, plan_greedy_by_size);
  ASSERT_TRUE(plan.ok);
  for (int64_t offset : plan.offsets) EXPECT_EQ(offset % 32, 0);
  EXPECT_TRUE(check_pooled_plan(request, pools, plan).empty());
}

TEST(PoolPlan, PermitsApplyInsideOnePoolOnly) {
  // b over a in place: one pool needs 64 bytes; split across pools the permit does not matter.
  PlanRequest request{{rec(0, 64, 16, 0, 1), rec(1, 64, 16, 1, 2)}, {{1, 0, 0}}};
  PooledPlan plan = plan_pools(request, {{"sram", 64, 16}, {"sdram", 64, 16}}, plan_best);
  ASSERT_TRUE(plan.ok);
  EXPECT_EQ(plan.pool, (std::vector<size_t>{0, 0}));
  EXPECT_EQ(plan.used[0], 64);
  // A hand-made split with overlapping offsets in different pools is fine.
  PooledPlan split{true, {0, 1}, {0, 0}, {64, 64}, {"hand", "hand"}, 0, 0};
  EXPECT_TRUE(check_pooled_plan(request, {{"sram", 64, 16}, {"sdram", 64, 16}}, split).empty());
}

TEST(PoolPlan, CheckerCatchesBadPooledPlans) {
  PlanRequest request = chain();
  std::vector<PoolSpec> pools = {{"sram", 100, 16}, {"sdram", 1000, 16}};
  PooledPlan good = plan_pools(request, pools, plan_best);
  ASSERT_TRUE(good.ok);
  PooledPlan bad = good;
  bad.pool[0] = 2;
  EXPECT_TRUE(mentions(check_pooled_plan(request, pools, bad), "tensor 0", "in pool 2 of 2"));
  bad = good;
  bad.used[0] = 101;
  EXPECT_TRUE(mentions(check_pooled_plan(request, pools, bad), "pool sram", "uses 101 bytes of its 100"));
  bad = good;
  bad.used[1] = 0;
  EXPECT_TRUE(mentions(check_pooled_plan(request, pools, bad), "pool sdram", "beyond the arena"));
  bad = good;
  bad.offsets[3] = good.offsets[2];  // d over c while both live, both in sram
  ASSERT_EQ(good.pool[3], 0u);
  ASSERT_EQ(good.pool[2], 0u);
  EXPECT_TRUE(mentions(check_pooled_plan(request, pools, bad), "overlaps", "tensor 3"));
  bad = good;
  bad.pool.pop_back();
  EXPECT_TRUE(mentions(check_pooled_plan(request, pools, bad), "4 pool indices"));
}

TEST(PoolPlan, RandomRequestsGiveValidPooledPlans) {
  std::mt19937 rng(123);
  int spilled = 0, failed = 0;
  for (int trial = 0; trial < kTrials; ++trial) {
    PlanRequest request = testing_util::random_request(rng);
    for (BufferRecord& r : request.records) r.size = align_up(r.size, r.alignment);
    int64_t single = plan_greedy_by_size(request).arena_size;
    int64_t apart = plan_linear(request).arena_size;
    std::uniform_int_distribution<int64_t> fraction(0, 100);
    std::vector<PoolSpec> pools = {{"a", single * fraction(rng) / 100, 1}, {"b", apart * fraction(rng) / 100, 16},
                                   {"c", apart, 4}};
    PooledPlan plan = plan_pools(request, pools, plan_greedy_by_size);
    if (!plan.ok) {
      ++failed;
      ASSERT_EQ(plan.required_bytes, plan_greedy_by_size(request).arena_size) << "trial " << trial;
      continue;
    }
    std::vector<std::string> problems = check_pooled_plan(request, pools, plan);
    ASSERT_TRUE(problems.empty()) << "trial " << trial << "\n" << join(problems);
    for (size_t p = 0; p < pools.size(); ++p) ASSERT_LE(plan.used[p], pools[p].size);
    spilled += plan.used[1] + plan.used[2] > 0;
    // A first pool as large as the single-pool plan keeps everything in it.
    if (pools[0].size >= single) {
      ASSERT_EQ(plan.used[1] + plan.used[2], 0) << "trial " << trial;
    }
  }
  EXPECT_GT(spilled, kTrials / 4);
  std::cout << spilled << " spilled, " << failed << " failed of " << kTrials << "\n";
}

TEST(PoolPlan, IsDeterministic) {
  std::mt19937 rng(8);
  for (int trial = 0; trial < 50; ++trial) {
    PlanRequest request = testing_util::random_request(rng);
    std::vector<PoolSpec> pools = {{"a", plan_best(request).arena_size / 2, 16}, {"b", 1 << 20, 16}};
    PooledPlan x = plan_pools(request, pools, plan_best);
    PooledPlan y = plan_pools(request, pools, plan_best);
    ASSERT_EQ(x.ok, y.ok);
    ASSERT_EQ(x.pool, y.pool);
    ASSERT_EQ(x.offsets, y.offsets);
    ASSERT_EQ(x.used, y.used);
  }
}

}  // namespace
}  // namespace microaot
