#include "memory/planners.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <random>

#include "memory/liveness.h"
#include "memory/memory_test_util.h"
#include "memory/placement.h"
#include "memory/plan_check.h"

namespace microaot {
namespace {

using testing_util::join;
using testing_util::mentions;
using testing_util::random_request;
using testing_util::RandomShape;
using testing_util::rec;

// Property-test trial counts (memory_test_util.h defines MICROAOT_SLOW_TESTS for sanitizer/debug builds).
#ifdef MICROAOT_SLOW_TESTS
constexpr int kRandomTrials = 300;
#else
constexpr int kRandomTrials = 2000;
#endif

PlanRequest req(std::vector<BufferRecord> records, std::vector<OverlapPermit> permits = {}) {
  return PlanRequest{std::move(records), std::move(permits)};
}

class PlannerTest : public ::testing::TestWithParam<std::string> {
 protected:
  MemoryPlan plan(const PlanRequest& request) {
    PlannerFn planner = find_planner(GetParam());
    EXPECT_NE(planner, nullptr);
    MemoryPlan result = planner(request);
    if (GetParam() != "best") {
      EXPECT_EQ(result.planner, GetParam());
    }
    EXPECT_EQ(result.offsets.size(), request.records.size());
    return result;
  }
  // Plans, checks with the independent checker and against the lower bounds.
  MemoryPlan expect_valid(const PlanRequest& request) {
    MemoryPlan result = plan(request);
    std::vector<std::string> problems = check_plan(request, result);
    EXPECT_TRUE(problems.empty()) << join(problems);
    EXPECT_GE(result.arena_size, plan_lower_bound(request));
    if (request.permits.empty()) {
      EXPECT_GE(result.arena_size, peak_live_bytes(request.records).bytes);
    }
    return result;
  }
  bool reuses() const { return GetParam() != "linear"; }
};

TEST_P(PlannerTest, EmptyInputGivesAnEmptyArena) {
  MemoryPlan p = expect_valid(req({}));
  EXPECT_EQ(p.arena_size, 0);
}

TEST_P(PlannerTest, SingleBufferStartsTheArena) {
  MemoryPlan p = expect_valid(req({rec(7, 100, 16, 0, 3)}));
  EXPECT_EQ(p.offsets[0], 0);
  EXPECT_EQ(p.arena_size, 100);
}

TEST_P(PlannerTest, BuffersLiveTogetherGetDisjointBytes) {
  MemoryPlan p = expect_valid(req({rec(0, 10, 1, 0, 5), rec(1, 20, 1, 2, 3), rec(2, 30, 1, 3, 9)}));
  EXPECT_EQ(p.arena_size, 60);  // all three are live at op 3, and sizes need no padding
}

TEST_P(PlannerTest, LifetimesTouchingAtOneOpConflict) {
  MemoryPlan p = expect_valid(req({rec(0, 64, 16, 0, 1), rec(1, 64, 16, 1, 2)}));
  EXPECT_NE(p.offsets[0], p.offsets[1]);
  EXPECT_GE(p.arena_size, 128);
}

TEST_P(PlannerTest, OffsetsHonourEachBuffersAlignment) {
  PlanRequest request = req({rec(0, 3, 1, 0, 4), rec(1, 16, 16, 0, 4), rec(2, 5, 8, 0, 4), rec(3, 1, 64, 1, 2),
                             rec(4, 7, 4, 2, 2)});
  MemoryPlan p = expect_valid(request);
  for (size_t i = 0; i < request.records.size(); ++i) EXPECT_EQ(p.offsets[i] % request.records[i].alignment, 0) << i;
}

TEST_P(PlannerTest, ZeroSizedBuffersAreHarmless) {
  expect_valid(req({rec(0, 0, 16, 0, 3), rec(1, 32, 16, 0, 3), rec(2, 0, 4, 1, 1), rec(3, 16, 16, 2, 5)}));
}

TEST_P(PlannerTest, PlansTheLifetimesOfARealGraph) {
  Graph g;
  for (int i = 0; i < 5; ++i) {
    Tensor t;
    t.name = "t" + std::to_string(i);
    t.dtype = DType::kInt8;
    t.shape = {1, 10 * (i + 1)};
    g.tensors.push_back(t);
  }
  for (int i = 0; i < 4; ++i) g.ops.push_back(Op{OpKind::Softmax, i, 1, {i}, {i + 1}, NoOptions{}});
  g.inputs = {0};
  g.outputs = {4};
  expect_valid(req(analyze_lifetimes(g, 16)));
}

// An element-wise op writing over its dying input: with the permit the arena drops below the classic bound.
TEST_P(PlannerTest, PermitGoesBelowTheClassicBound) {
  PlanRequest request = req({rec(0, 96, 16, 0, 1), rec(1, 96, 16, 1, 2), rec(2, 32, 16, 0, 2)}, {{1, 0, 0}});
  ASSERT_EQ(peak_live_bytes(request.records).bytes, 224);
  MemoryPlan p = expect_valid(request);
  if (reuses()) {
    EXPECT_EQ(p.arena_size, 128);
    EXPECT_TRUE(p.proven_optimal);
  }
}

// A kernel that must write 16 bytes behind its read head: the output may start at most 16 bytes lower.
TEST_P(PlannerTest, NegativeShiftKeepsTheOutputBehindTheInput) {
  PlanRequest request = req({rec(0, 64, 16, 0, 1), rec(1, 64, 16, 1, 2)}, {{1, 0, -16}});
  MemoryPlan p = expect_valid(request);
  if (GetParam() == "best" || GetParam() == "branch_and_bound" || GetParam() == "hill_climb") {
    EXPECT_EQ(p.arena_size, 80);
    EXPECT_EQ(p.offsets[0] - p.offsets[1], 16);
  }
}

TEST_P(PlannerTest, IsDeterministic) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 50; ++trial) {
    PlanRequest request = random_request(rng);
    MemoryPlan a = plan(request);
    MemoryPlan b = plan(request);
    ASSERT_EQ(a.offsets, b.offsets);
    ASSERT_EQ(a.arena_size, b.arena_size);
    ASSERT_EQ(a.planner, b.planner);
    ASSERT_EQ(a.proven_optimal, b.proven_optimal);
  }
}

// The checker is the oracle; the arena must also respect the lower bounds and never exceed what placing
// every buffer apart (with worst-case padding) would take.
TEST_P(PlannerTest, RandomRequestsAlwaysGiveValidPlans) {
  std::mt19937 rng(20240611);
  int with_permits = 0, below_classic = 0;
  for (int trial = 0; trial < kRandomTrials; ++trial) {
    PlanRequest request = random_request(rng);
    MemoryPlan p = plan(request);
    std::vector<std::string> problems = check_plan(request, p);
    ASSERT_TRUE(problems.empty()) << "trial " << trial << "\n" << join(problems);
    ASSERT_GE(p.arena_size, plan_lower_bound(request)) << "trial " << trial;
    int64_t classic = peak_live_bytes(request.records).bytes;
    if (request.permits.empty()) {
      ASSERT_GE(p.arena_size, classic) << "trial " << trial;
    }
    with_permits += !request.permits.empty();
    below_classic += p.arena_size < classic;
    int64_t apart = 0;
    for (const BufferRecord& r : request.records) apart += r.size + r.alignment - 1;
    ASSERT_LE(p.arena_size, apart) << "trial " << trial;
  }
  EXPECT_GT(with_permits, kRandomTrials / 3);
  if (reuses()) {
    EXPECT_GT(below_classic, kRandomTrials / 20);
  }
}

// Real models have up to ~100 buffers and the default planner runs them all: each must give a valid plan on
// 100 buffers that all conflict with each other. Work is bounded by fixed budgets; the time printed is for
// reading only (timed assertions would be flaky on a loaded machine).
TEST_P(PlannerTest, HundredBuffersPlanValidly) {
  std::mt19937 rng(3);
  RandomShape dense{100, 10, 30, 4000, true};
  RandomShape chain{100, 100, 3, 4000, true};
  for (const RandomShape& shape : {dense, chain}) {
    PlanRequest request;
    while (request.records.size() < 90) request = random_request(rng, shape);
    auto start = std::chrono::steady_clock::now();
    MemoryPlan p = plan(request);
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    EXPECT_TRUE(check_plan(request, p).empty());
    std::cout << GetParam() << ": " << request.records.size() << " buffers, " << request.permits.size()
              << " permits: arena " << p.arena_size << " (bound " << plan_lower_bound(request) << ") in " << ms
              << " ms\n";
  }
}

std::vector<std::string> planner_names() {
  std::vector<std::string> names;
  for (const auto& entry : planners()) names.push_back(entry.first);
  return names;
}

INSTANTIATE_TEST_SUITE_P(AllPlanners, PlannerTest, ::testing::ValuesIn(planner_names()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

TEST(PlannerRegistry, NamesAreUniqueAndFindable) {
  std::vector<std::string> names = planner_names();
  EXPECT_EQ(names, (std::vector<std::string>{"best", "greedy_by_size", "greedy_by_conflicts", "hill_climb",
                                             "branch_and_bound", "linear"}));
  for (const auto& entry : planners()) EXPECT_EQ(find_planner(entry.first), entry.second) << entry.first;
  EXPECT_EQ(find_planner("no_such_planner"), nullptr);
}

TEST(PlannerRegistry, RunAllPlannersSkipsBestInTableOrder) {
  PlanRequest request = req({rec(0, 100, 1, 0, 1), rec(1, 80, 1, 1, 3), rec(2, 90, 1, 2, 2)});
  std::vector<MemoryPlan> plans = run_all_planners(request);
  ASSERT_EQ(plans.size(), planners().size() - 1);
  for (size_t k = 0; k < plans.size(); ++k) EXPECT_EQ(plans[k].planner, planners()[k + 1].first);
}

// best = the smallest of the others (linear aside), and it names the winner.
TEST(BestPlan, NeverWorseThanAnyOtherPlanner) {
  std::mt19937 rng(11);
  for (int trial = 0; trial < kRandomTrials / 10; ++trial) {
    PlanRequest request = random_request(rng);
    MemoryPlan best = plan_best(request);
    int64_t smallest = INT64_MAX;
    std::string winner;
    for (const MemoryPlan& p : run_all_planners(request)) {
      if (p.planner == "linear") continue;
      ASSERT_LE(best.arena_size, p.arena_size) << p.planner << " trial " << trial;
      if (p.arena_size < smallest) {
        smallest = p.arena_size;
        winner = p.planner;
      }
    }
    ASSERT_EQ(best.arena_size, smallest);
    ASSERT_EQ(best.planner, winner) << "trial " << trial;
  }
}

TEST(PeakLiveBytesWithoutPermits, IsTheClassicBound) {
  PlanRequest request = req({rec(0, 96, 16, 0, 1), rec(1, 96, 16, 1, 2)}, {{1, 0, 0}});
  EXPECT_EQ(peak_live_bytes_without_permits(request), 192);
  EXPECT_EQ(plan_lower_bound(request), 96);
  EXPECT_EQ(plan_lower_bound(req(request.records)), 192);
}

TEST(GreedyBySizePlan, ReusesTheBytesOfDeadBuffers) {
  // Disjoint lifetimes: everything at 0, arena = the largest buffer.
  MemoryPlan p = plan_greedy_by_size(req({rec(0, 10, 1, 0, 0), rec(1, 30, 1, 1, 1), rec(2, 20, 1, 2, 2)}));
  EXPECT_EQ(p.offsets, (std::vector<int64_t>{0, 0, 0}));
  EXPECT_EQ(p.arena_size, 30);
  // A chain a -> b -> c: a and c share offset 0 (placed first, being larger), b goes above them.
  p = plan_greedy_by_size(req({rec(0, 100, 16, 0, 1), rec(1, 48, 16, 1, 2), rec(2, 96, 16, 2, 3)}));
  EXPECT_EQ(p.offsets, (std::vector<int64_t>{0, 112, 0}));  // 100 rounded up to 16 is 112
  EXPECT_EQ(p.arena_size, 160);
}

TEST(GreedyBySizePlan, FillsAHoleBetweenLargerBuffers) {
  // a [0,1] at 0 and c [1,2] right above it; b [2,3] fits at 0 once a is dead, below c.
  MemoryPlan p = plan_greedy_by_size(req({rec(0, 64, 16, 0, 1), rec(1, 32, 16, 2, 3), rec(2, 48, 16, 1, 2)}));
  EXPECT_EQ(p.offsets, (std::vector<int64_t>{0, 0, 64}));
  EXPECT_EQ(p.arena_size, 112);
}

TEST(GreedyBySizePlan, TakesAGapThatFitsExactly) {
  // Placed by size: a [0,1] at 0, c [2,2] at 0 (a is dead by then), b [1,3] above both at 100; d [2,3]
  // conflicts with c (0..90) and b (100..180) and fills the 10-byte gap between them exactly.
  MemoryPlan p = plan_greedy_by_size(
      req({rec(0, 100, 1, 0, 1), rec(1, 80, 1, 1, 3), rec(2, 90, 1, 2, 2), rec(3, 10, 1, 2, 3)}));
  EXPECT_EQ(p.offsets, (std::vector<int64_t>{0, 100, 0, 90}));
  EXPECT_EQ(p.arena_size, 180);  // = peak at op 2: 80 + 90 + 10
  EXPECT_TRUE(p.proven_optimal);
}

TEST(GreedyBySizePlan, TakesThePermittedOverlap) {
  // b is produced over a (which dies at op 1) with a shift of at most 32: lowest fit puts it at a's offset.
  MemoryPlan p = plan_greedy_by_size(req({rec(0, 128, 16, 0, 1), rec(1, 64, 16, 1, 2), rec(2, 16, 16, 0, 2)},
                                         {{1, 0, 32}}));
  EXPECT_EQ(p.offsets, (std::vector<int64_t>{0, 0, 128}));
  EXPECT_EQ(p.arena_size, 144);
}

TEST(GreedyBySizePlan, NeverWorseThanNoReuseWhenSizesAreAligned) {
  std::mt19937 rng(5);
  for (int trial = 0; trial < 500; ++trial) {
    PlanRequest request = random_request(rng);
    for (BufferRecord& r : request.records) {
      r.alignment = 16;
      r.size = align_up(r.size, 16);
    }
    ASSERT_LE(plan_greedy_by_size(request).arena_size, plan_linear(request).arena_size) << "trial " << trial;
  }
}

TEST(GreedyByConflictsPlan, OrdersByTheBytesThatMustCoexist) {
  // Weights: a 80 (alone), b 40+30+20, c 30+40+20, d 20+40+30 = 90 each; ties go to the larger.
  PlanRequest request = req({rec(0, 80, 1, 0, 0), rec(1, 40, 1, 1, 3), rec(2, 30, 1, 2, 3), rec(3, 20, 1, 3, 4)});
  PlacementContext context(request);
  EXPECT_EQ(greedy_by_conflicts_order(context), (std::vector<size_t>{1, 2, 3, 0}));
  MemoryPlan p = plan_greedy_by_conflicts(request);
  EXPECT_TRUE(check_plan(request, p).empty());
  EXPECT_EQ(p.arena_size, 90);
}

TEST(LinearPlan, PlacesEveryBufferApartInRecordOrder) {
  MemoryPlan p = plan_linear(req({rec(0, 10, 1, 0, 0), rec(1, 5, 8, 5, 5), rec(2, 3, 4, 9, 9)}));
  EXPECT_EQ(p.offsets, (std::vector<int64_t>{0, 16, 24}));
  EXPECT_EQ(p.arena_size, 27);
}

}  // namespace
}  // namespace microaot
