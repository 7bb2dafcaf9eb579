// branch_and_bound against a brute-force optimum written here from the overlap rules alone.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "memory/memory_test_util.h"
#include "memory/placement.h"
#include "memory/plan_check.h"
#include "memory/planners.h"

namespace microaot {
namespace {

using testing_util::join;
using testing_util::rec;

#ifdef MICROAOT_SLOW_TESTS
constexpr int kTrials = 150;
#else
constexpr int kTrials = 1000;
#endif

// Tries every aligned offset of every buffer (in record order) with a running-best cut.
class BruteForce {
 public:
  explicit BruteForce(const PlanRequest& request) : request_(request), offsets_(request.records.size(), 0) {
    for (const BufferRecord& r : request.records) best_ += r.size + r.alignment;  // beats any real plan
  }
  int64_t optimum() {
    search(0, 0);
    return best_;
  }

 private:
  bool clash(size_t i, size_t j) const {
    const BufferRecord& a = request_.records[i];
    const BufferRecord& b = request_.records[j];
    if (a.size == 0 || b.size == 0 || a.last_op < b.first_op || b.last_op < a.first_op) return false;
    if (offsets_[i] + a.size <= offsets_[j] || offsets_[j] + b.size <= offsets_[i]) return false;
    for (const OverlapPermit& p : request_.permits) {
      bool pair = (p.output == i && p.input == j) || (p.output == j && p.input == i);
      if (pair && offsets_[p.output] - offsets_[p.input] <= p.max_shift) return false;
    }
    return true;
  }
  void search(size_t i, int64_t top) {
    if (top >= best_) return;
    if (i == offsets_.size()) {
      best_ = top;
      return;
    }
    const BufferRecord& r = request_.records[i];
    // An empty buffer clashes with nothing: offset 0 is as good as any.
    for (int64_t offset = 0; offset + r.size < best_ && (r.size > 0 || offset == 0); offset += r.alignment) {
      offsets_[i] = offset;
      bool ok = true;
      for (size_t j = 0; j < i && ok; ++j) ok = !clash(i, j);
      if (ok) search(i + 1, std::max(top, offset + r.size));
    }
  }

  const PlanRequest& request_;
  std::vector<int64_t> offsets_;
  int64_t best_ = 0;
};

// Tiny requests: up to 6 buffers, small sizes, few ops; permits only between tensors handed over at an op.
PlanRequest tiny_request(std::mt19937& rng, bool permits) {
  static const int64_t kAlignments[] = {1, 2, 4};
  std::uniform_int_distribution<int> count(1, 6), op(0, 4), len(0, 2), size(0, 12), align(0, 2), coin(0, 3);
  PlanRequest request;
  int n = count(rng);
  for (int i = 0; i < n; ++i) {
    int first = op(rng);
    request.records.push_back(rec(i, size(rng), kAlignments[align(rng)], first, first + len(rng)));
  }
  for (size_t o = 0; permits && o < request.records.size(); ++o) {
    for (size_t i = 0; i < request.records.size(); ++i) {
      if (o == i || request.records[i].last_op != request.records[o].first_op || coin(rng) != 0) continue;
      std::uniform_int_distribution<int64_t> shift(-request.records[o].size, request.records[i].size);
      request.permits.push_back(OverlapPermit{o, i, shift(rng)});
    }
  }
  return request;
}

TEST(BranchAndBoundPlan, FindsAndProvesTheBruteForceOptimum) {
  std::mt19937 rng(2024);
  for (int trial = 0; trial < kTrials; ++trial) {
    PlanRequest request = tiny_request(rng, false);
    MemoryPlan p = plan_branch_and_bound(request);
    ASSERT_TRUE(check_plan(request, p).empty()) << join(check_plan(request, p));
    ASSERT_EQ(p.arena_size, BruteForce(request).optimum()) << "trial " << trial;
    ASSERT_TRUE(p.proven_optimal) << "trial " << trial;
  }
}

// With permits the search is not complete: never below the optimum, proven only when it is the optimum.
TEST(BranchAndBoundPlan, WithPermitsEveryPlannerRespectsTheOptimum) {
  std::mt19937 rng(77);
  int exact = 0, with_permits = 0;
  for (int trial = 0; trial < kTrials; ++trial) {
    PlanRequest request = tiny_request(rng, true);
    if (request.permits.empty()) continue;
    ++with_permits;
    int64_t optimum = BruteForce(request).optimum();
    ASSERT_LE(plan_lower_bound(request), optimum) << "trial " << trial;
    for (const MemoryPlan& p : run_all_planners(request)) {
      ASSERT_TRUE(check_plan(request, p).empty()) << p.planner << "\n" << join(check_plan(request, p));
      ASSERT_GE(p.arena_size, optimum) << p.planner << " trial " << trial;
      if (p.proven_optimal) {
        ASSERT_EQ(p.arena_size, optimum) << p.planner << " trial " << trial;
      }
    }
    exact += plan_branch_and_bound(request).arena_size == optimum;
  }
  std::cout << "branch_and_bound reached the optimum on " << exact << " of " << with_permits
            << " tiny requests with permits\n";
  EXPECT_GT(exact, with_permits * 9 / 10);
}

TEST(BranchAndBoundPlan, NeverWorseThanGreedy) {
  std::mt19937 rng(31);
  for (int trial = 0; trial < kTrials / 5; ++trial) {
    PlanRequest request = testing_util::random_request(rng);
    MemoryPlan p = plan_branch_and_bound(request);
    ASSERT_LE(p.arena_size, plan_greedy_by_size(request).arena_size) << "trial " << trial;
    ASSERT_LE(p.arena_size, plan_greedy_by_conflicts(request).arena_size) << "trial " << trial;
  }
}

// The search is worth having: some tiny request exists where greedy by size is not optimal.
TEST(BranchAndBoundPlan, BeatsGreedyOnSomeTinyRequest) {
  std::mt19937 rng(5);
  int beaten = 0;
  for (int trial = 0; trial < kTrials && beaten == 0; ++trial) {
    PlanRequest request = tiny_request(rng, false);
    MemoryPlan exact = plan_branch_and_bound(request);
    beaten += exact.arena_size < plan_greedy_by_size(request).arena_size;
  }
  EXPECT_GT(beaten, 0);
}

}  // namespace
}  // namespace microaot
