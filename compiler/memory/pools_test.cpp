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

TEST(PoolPlan, FailsWhenTheLiveBytesExceedAllPools) {
  PlanRequest request = chain();  // a + b + s = 208 live at op 1 (and b + c + s at op 2); each fits a pool
  std::vector<PoolSpec> pools = {{"sram", 130, 16}, {"sdram", 70, 16}};
  PooledPlan plan = plan_pools(request, pools, plan_best);
  ASSERT_FALSE(plan.ok);
  EXPECT_EQ(plan.failure.kind, PoolFailureKind::kTotal);
  EXPECT_EQ(plan.failure.op, 1);
  EXPECT_EQ(plan.failure.buffers, (std::vector<size_t>{0, 1, 4}));
  EXPECT_EQ(plan.failure.required_bytes, 208);
  EXPECT_EQ(plan.failure.available_bytes, 200);
}

TEST(PoolPlan, FailsWhenABufferFitsNoPool) {
  PooledPlan plan = plan_pools(chain(), {{"sram", 100, 16}, {"sdram", 120, 16}}, plan_best);
  ASSERT_FALSE(plan.ok);
  EXPECT_EQ(plan.failure.kind, PoolFailureKind::kTooLarge);
  EXPECT_EQ(plan.failure.buffers, (std::vector<size_t>{1}));  // the 128-byte b
  EXPECT_EQ(plan.failure.pool, 1u);
  EXPECT_EQ(plan.failure.required_bytes, 128);
  EXPECT_EQ(plan.failure.available_bytes, 120);
}

// kws_dscnn_int8 in miniature: two 80-byte tensors handed over in place with a shift of at most -8 need 88
// bytes together; the second pool is too small for either, so no split exists (the main:8000
// sram2:4096 case, where the old spill reported "Required: 9280, Available: 12096").
TEST(PoolPlan, FailsWhenBuffersForcedIntoOnePoolOverflowIt) {
  PlanRequest request{{rec(0, 80, 1, 0, 1), rec(1, 80, 1, 1, 2), rec(2, 8, 1, 1, 1, BufferKind::kScratch)},
                      {{1, 0, -8}}};
  std::vector<PoolSpec> pools = {{"main", 80, 1}, {"sram2", 40, 1}};
  PooledPlan plan = plan_pools(request, pools, plan_best);
  ASSERT_FALSE(plan.ok);
  EXPECT_EQ(plan.failure.kind, PoolFailureKind::kOnePoolOnly);
  EXPECT_EQ(plan.failure.pool, 0u);
  EXPECT_EQ(plan.failure.op, 1);
  EXPECT_EQ(plan.failure.buffers, (std::vector<size_t>{0, 1}));  // the scratch fits sram2
  EXPECT_EQ(plan.failure.required_bytes, 88);
  EXPECT_EQ(plan.failure.available_bytes, 80);
  pools[0].size = 88;  // now both fit in main, the scratch in sram2
  plan = plan_pools(request, pools, plan_best);
  ASSERT_TRUE(plan.ok);
  EXPECT_EQ(plan.pool, (std::vector<size_t>{0, 0, 1}));
  EXPECT_EQ(plan.used, (std::vector<int64_t>{88, 8}));
  EXPECT_TRUE(check_pooled_plan(request, pools, plan).empty()) << join(check_pooled_plan(request, pools, plan));
}

TEST(PoolPlan, OnePoolIsThePlainBudgetCase) {
  PlanRequest request = chain();
  PooledPlan plan = plan_pools(request, {{"ram", 207, 16}}, plan_best);
  ASSERT_FALSE(plan.ok);
  EXPECT_EQ(plan.failure.kind, PoolFailureKind::kOnePoolOnly);
  EXPECT_EQ(plan.failure.required_bytes, 208);
  EXPECT_TRUE(plan_pools(request, {{"ram", 208, 16}}, plan_best).ok);
}

// A buffer never goes to a pool too small for it: the old spill moved b (128 bytes) from a 100-byte pool
// to the 64-byte second pool and gave up, although the third could hold it.
TEST(PoolPlan, SkipsPoolsTooSmallForTheBuffer) {
  PlanRequest request = chain();
  std::vector<PoolSpec> pools = {{"sram", 100, 16}, {"dtcm", 64, 16}, {"sdram", 1000, 16}};
  PooledPlan plan = plan_pools(request, pools, plan_best);
  ASSERT_TRUE(plan.ok);
  EXPECT_EQ(plan.pool[1], 2u);
  EXPECT_TRUE(check_pooled_plan(request, pools, plan).empty()) << join(check_pooled_plan(request, pools, plan));
}

// A chain of in-place hand-overs whose shifts add up (as kws_dscnn_int8's): moving the buffer in the middle
// of the chain shortens both halves, moving the first one only shortens the chain by one step.
TEST(PoolPlan, MovesTheBufferThatShrinksThePoolMost) {
  PlanRequest request;
  for (int i = 0; i < 5; ++i) request.records.push_back(rec(i, 100, 1, i, i + 1));
  for (size_t i = 1; i < 5; ++i) request.permits.push_back({i, i - 1, -10});
  ASSERT_EQ(plan_best(request).arena_size, 140);
  std::vector<PoolSpec> pools = {{"fast", 135, 1}, {"slow", 1000, 1}};
  PooledPlan plan = plan_pools(request, pools, plan_best);
  ASSERT_TRUE(plan.ok);
  EXPECT_EQ(plan.pool, (std::vector<size_t>{0, 0, 1, 0, 0}));
  EXPECT_EQ(plan.used, (std::vector<int64_t>{110, 100}));  // two chains of two: 100 + 10 each
}

// A move that a later move makes unnecessary is undone. Live bytes: op 2: a + s + c = 190, op 4: a + b = 175.
// The bound first moves c (the smallest buffer covering op 2's excess), then a (op 4's); with a gone, c fits
// in the fast pool again.
TEST(PoolPlan, MovesBuffersBackWhenTheyFitAgain) {
  PlanRequest request{{rec(0, 84, 1, 2, 5), rec(-1, 26, 1, 2, 2, BufferKind::kScratch), rec(2, 91, 1, 4, 4),
                       rec(3, 80, 1, 0, 2)},
                      {}};
  std::vector<PoolSpec> pools = {{"fast", 157, 1}, {"slow", 190, 1}};
  PooledPlan plan = plan_pools(request, pools, plan_best);
  ASSERT_TRUE(plan.ok);
  EXPECT_EQ(plan.pool, (std::vector<size_t>{1, 0, 0, 0}));
  EXPECT_EQ(plan.used, (std::vector<int64_t>{106, 84}));
  EXPECT_TRUE(check_pooled_plan(request, pools, plan).empty()) << join(check_pooled_plan(request, pools, plan));
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
  PooledPlan split{true, {0, 1}, {0, 0}, {64, 64}, {"hand", "hand"}, {}};
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

// The records `chosen` as a request of their own, with the permits between them.
PlanRequest only(const PlanRequest& request, const std::vector<size_t>& chosen) {
  PlanRequest sub;
  for (size_t i : chosen) sub.records.push_back(request.records[i]);
  for (const OverlapPermit& p : request.permits) {
    const auto out = std::find(chosen.begin(), chosen.end(), p.output);
    const auto in = std::find(chosen.begin(), chosen.end(), p.input);
    if (out == chosen.end() || in == chosen.end()) continue;
    sub.permits.push_back({size_t(out - chosen.begin()), size_t(in - chosen.begin()), p.max_shift});
  }
  return sub;
}

// Every failure but kNoPlacement is a proof, checked here from the records alone.
void expect_failure_is_proven(const PlanRequest& request, const std::vector<PoolSpec>& pools, const PoolFailure& f) {
  int64_t largest = 0, total = 0;
  for (const PoolSpec& p : pools) {
    largest = std::max(largest, p.size);
    total += p.size;
  }
  ASSERT_NE(f.kind, PoolFailureKind::kNone);
  if (f.kind == PoolFailureKind::kNoPlacement) return;
  ASSERT_FALSE(f.buffers.empty());
  if (f.kind == PoolFailureKind::kTooLarge) {
    EXPECT_EQ(f.required_bytes, request.records[f.buffers[0]].size);
    EXPECT_EQ(f.available_bytes, largest);
    EXPECT_GT(f.required_bytes, f.available_bytes);
    return;
  }
  for (size_t i : f.buffers) {
    const BufferRecord& r = request.records[i];
    EXPECT_TRUE(r.first_op <= f.op && f.op <= r.last_op) << "record " << i << " is not live at op " << f.op;
    for (size_t p = 0; p < pools.size() && f.kind == PoolFailureKind::kOnePoolOnly; ++p) {
      EXPECT_EQ(r.size <= pools[p].size, p == f.pool) << "record " << i << " and pool " << p;
    }
  }
  EXPECT_EQ(f.required_bytes, plan_lower_bound(only(request, f.buffers)));
  EXPECT_EQ(f.available_bytes, f.kind == PoolFailureKind::kTotal ? total : pools[f.pool].size);
  EXPECT_GT(f.required_bytes, f.available_bytes);
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
      ASSERT_NO_FATAL_FAILURE(expect_failure_is_proven(request, pools, plan.failure)) << "trial " << trial;
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
