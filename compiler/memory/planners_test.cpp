#include "memory/planners.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "memory/liveness.h"
#include "memory/plan_check.h"

namespace microaot {
namespace {

BufferRecord rec(int id, int64_t size, int64_t alignment, int first, int last) {
  return BufferRecord{id, size, alignment, first, last};
}

std::string join(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines) text += line + "\n";
  return text;
}

bool mentions(const std::vector<std::string>& problems, const std::string& a, const std::string& b = "") {
  for (const std::string& p : problems) {
    if (p.find(a) != std::string::npos && p.find(b) != std::string::npos) return true;
  }
  return false;
}

// Random lifetime sets: sometimes unaligned sizes, zero sizes, long and one-op lifetimes.
std::vector<BufferRecord> random_records(std::mt19937& rng) {
  static const int64_t kAlignments[] = {1, 2, 4, 8, 16, 64};
  std::uniform_int_distribution<int> count_dist(0, 20), op_dist(0, 14), len_dist(0, 6), size_dist(0, 2000);
  std::uniform_int_distribution<int> align_dist(0, 5), coin(0, 7);
  bool round_sizes = coin(rng) < 4;  // what analyze_lifetimes produces
  std::vector<BufferRecord> records;
  int count = count_dist(rng);
  for (int i = 0; i < count; ++i) {
    int first = op_dist(rng);
    int64_t alignment = kAlignments[align_dist(rng)];
    int64_t size = coin(rng) == 0 ? 0 : size_dist(rng);
    if (round_sizes) size = align_up(size, alignment);
    records.push_back(rec(100 + i, size, alignment, first, first + len_dist(rng)));
  }
  return records;
}

class PlannerTest : public ::testing::TestWithParam<std::string> {
 protected:
  MemoryPlan plan(const std::vector<BufferRecord>& records) {
    PlannerFn planner = find_planner(GetParam());
    EXPECT_NE(planner, nullptr);
    MemoryPlan result = planner(records);
    EXPECT_EQ(result.planner, GetParam());
    EXPECT_EQ(result.offsets.size(), records.size());
    return result;
  }
  // Plans, checks with the independent checker and against the lower bound.
  MemoryPlan expect_valid(const std::vector<BufferRecord>& records) {
    MemoryPlan result = plan(records);
    std::vector<std::string> problems = check_plan(records, result);
    EXPECT_TRUE(problems.empty()) << join(problems);
    EXPECT_GE(result.arena_size, peak_live_bytes(records).bytes);
    return result;
  }
};

TEST_P(PlannerTest, EmptyInputGivesAnEmptyArena) {
  MemoryPlan p = expect_valid({});
  EXPECT_EQ(p.arena_size, 0);
}

TEST_P(PlannerTest, SingleBufferStartsTheArena) {
  MemoryPlan p = expect_valid({rec(7, 100, 16, 0, 3)});
  EXPECT_EQ(p.offsets[0], 0);
  EXPECT_EQ(p.arena_size, 100);
}

TEST_P(PlannerTest, BuffersLiveTogetherGetDisjointBytes) {
  MemoryPlan p = expect_valid({rec(0, 10, 1, 0, 5), rec(1, 20, 1, 2, 3), rec(2, 30, 1, 3, 9)});
  EXPECT_EQ(p.arena_size, 60);  // all three are live at op 3, and sizes need no padding
}

TEST_P(PlannerTest, LifetimesTouchingAtOneOpConflict) {
  MemoryPlan p = expect_valid({rec(0, 64, 16, 0, 1), rec(1, 64, 16, 1, 2)});
  EXPECT_NE(p.offsets[0], p.offsets[1]);
  EXPECT_GE(p.arena_size, 128);
}

TEST_P(PlannerTest, OffsetsHonourEachBuffersAlignment) {
  std::vector<BufferRecord> records = {rec(0, 3, 1, 0, 4), rec(1, 16, 16, 0, 4), rec(2, 5, 8, 0, 4),
                                       rec(3, 1, 64, 1, 2), rec(4, 7, 4, 2, 2)};
  MemoryPlan p = expect_valid(records);
  for (size_t i = 0; i < records.size(); ++i) EXPECT_EQ(p.offsets[i] % records[i].alignment, 0) << i;
}

TEST_P(PlannerTest, ZeroSizedBuffersAreHarmless) {
  expect_valid({rec(0, 0, 16, 0, 3), rec(1, 32, 16, 0, 3), rec(2, 0, 4, 1, 1), rec(3, 16, 16, 2, 5)});
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
  expect_valid(analyze_lifetimes(g, 16));
}

TEST_P(PlannerTest, IsDeterministic) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 50; ++trial) {
    std::vector<BufferRecord> records = random_records(rng);
    MemoryPlan a = plan(records);
    MemoryPlan b = plan(records);
    ASSERT_EQ(a.offsets, b.offsets);
    ASSERT_EQ(a.arena_size, b.arena_size);
  }
}

// The checker is the oracle; the arena must also respect the lower bound and never exceed what
// placing every buffer apart (with worst-case padding) would take.
TEST_P(PlannerTest, RandomLifetimesAlwaysGiveValidPlans) {
  std::mt19937 rng(20240611);
  for (int trial = 0; trial < 2000; ++trial) {
    std::vector<BufferRecord> records = random_records(rng);
    MemoryPlan p = plan(records);
    std::vector<std::string> problems = check_plan(records, p);
    ASSERT_TRUE(problems.empty()) << "trial " << trial << "\n" << join(problems);
    ASSERT_GE(p.arena_size, peak_live_bytes(records).bytes) << "trial " << trial;
    int64_t apart = 0;
    for (const BufferRecord& r : records) apart += r.size + r.alignment - 1;
    ASSERT_LE(p.arena_size, apart) << "trial " << trial;
  }
}

// Corrupting a valid plan must be caught: the checker does not just trust the planner.
TEST_P(PlannerTest, CheckerCatchesCorruptedPlans) {
  std::mt19937 rng(99);
  int overlaps = 0, misaligned = 0;
  for (int trial = 0; trial < 50; ++trial) {
    std::vector<BufferRecord> records = random_records(rng);
    MemoryPlan good = plan(records);
    for (size_t i = 0; i < records.size(); ++i) {
      for (size_t j = 0; j < records.size(); ++j) {
        if (i == j || records[i].size == 0 || records[j].size == 0) continue;
        if (!lifetimes_intersect(records[i], records[j])) continue;
        // j on top of i, then j sharing only i's last byte, then only i's first byte.
        const int64_t moves[] = {good.offsets[i], good.offsets[i] + records[i].size - 1,
                                 good.offsets[i] - records[j].size + 1};
        for (int64_t offset : moves) {
          if (offset < 0) continue;
          MemoryPlan bad = good;
          bad.offsets[j] = offset;
          bad.arena_size = std::max(bad.arena_size, offset + records[j].size);
          std::vector<std::string> problems = check_plan(records, bad);
          ASSERT_TRUE(mentions(problems, "overlaps", "tensor " + std::to_string(records[j].tensor_id)))
              << "trial " << trial << "\n" << join(problems);
          ++overlaps;
        }
      }
      if (records[i].alignment > 1) {
        MemoryPlan bad = good;
        bad.offsets[i] += 1;
        bad.arena_size += 1;
        ASSERT_TRUE(mentions(check_plan(records, bad), "not aligned", "tensor " + std::to_string(records[i].tensor_id)));
        ++misaligned;
      }
    }
  }
  EXPECT_GT(overlaps, 100);
  EXPECT_GT(misaligned, 100);
}

std::vector<std::string> planner_names() {
  std::vector<std::string> names;
  for (const auto& entry : planners()) names.push_back(entry.first);
  return names;
}

INSTANTIATE_TEST_SUITE_P(AllPlanners, PlannerTest, ::testing::ValuesIn(planner_names()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

TEST(PlannerRegistry, NamesAreUniqueAndFindable) {
  ASSERT_GE(planners().size(), 2u);
  EXPECT_EQ(planners().front().first, "greedy_by_size");
  for (const auto& entry : planners()) EXPECT_EQ(find_planner(entry.first), entry.second) << entry.first;
  EXPECT_NE(find_planner("linear"), nullptr);
  EXPECT_EQ(find_planner("no_such_planner"), nullptr);
}

TEST(GreedyBySizePlan, ReusesTheBytesOfDeadBuffers) {
  // Disjoint lifetimes: everything at 0, arena = the largest buffer.
  MemoryPlan p = plan_greedy_by_size({rec(0, 10, 1, 0, 0), rec(1, 30, 1, 1, 1), rec(2, 20, 1, 2, 2)});
  EXPECT_EQ(p.offsets, (std::vector<int64_t>{0, 0, 0}));
  EXPECT_EQ(p.arena_size, 30);
  // A chain a -> b -> c: a and c share offset 0 (placed first, being larger), b goes above them.
  p = plan_greedy_by_size({rec(0, 100, 16, 0, 1), rec(1, 48, 16, 1, 2), rec(2, 96, 16, 2, 3)});
  EXPECT_EQ(p.offsets, (std::vector<int64_t>{0, 112, 0}));  // 100 rounded up to 16 is 112
  EXPECT_EQ(p.arena_size, 160);
}

TEST(GreedyBySizePlan, FillsAHoleBetweenLargerBuffers) {
  // a [0,1] at 0 and c [1,2] right above it; b [2,3] fits at 0 once a is dead, below c.
  MemoryPlan p = plan_greedy_by_size({rec(0, 64, 16, 0, 1), rec(1, 32, 16, 2, 3), rec(2, 48, 16, 1, 2)});
  EXPECT_EQ(p.offsets, (std::vector<int64_t>{0, 0, 64}));
  EXPECT_EQ(p.arena_size, 112);
}

TEST(GreedyBySizePlan, TakesAGapThatFitsExactly) {
  // Placed by size: a [0,1] at 0, c [2,2] at 0 (a is dead by then), b [1,3] above both at 100; d [2,3]
  // conflicts with c (0..90) and b (100..180) and fills the 10-byte gap between them exactly.
  MemoryPlan p = plan_greedy_by_size({rec(0, 100, 1, 0, 1), rec(1, 80, 1, 1, 3), rec(2, 90, 1, 2, 2),
                                      rec(3, 10, 1, 2, 3)});
  EXPECT_EQ(p.offsets, (std::vector<int64_t>{0, 100, 0, 90}));
  EXPECT_EQ(p.arena_size, 180);  // = peak at op 2: 80 + 90 + 10
}

TEST(GreedyBySizePlan, NeverWorseThanNoReuseWhenSizesAreAligned) {
  std::mt19937 rng(5);
  for (int trial = 0; trial < 500; ++trial) {
    std::vector<BufferRecord> records = random_records(rng);
    for (BufferRecord& r : records) {
      r.alignment = 16;
      r.size = align_up(r.size, 16);
    }
    ASSERT_LE(plan_greedy_by_size(records).arena_size, plan_linear(records).arena_size) << "trial " << trial;
  }
}

TEST(LinearPlan, PlacesEveryBufferApartInRecordOrder) {
  MemoryPlan p = plan_linear({rec(0, 10, 1, 0, 0), rec(1, 5, 8, 5, 5), rec(2, 3, 4, 9, 9)});
  EXPECT_EQ(p.offsets, (std::vector<int64_t>{0, 16, 24}));
  EXPECT_EQ(p.arena_size, 27);
}

TEST(PlanCheck, AcceptsSharedBytesWithDisjointLifetimesAndAdjacentBytes) {
  std::vector<BufferRecord> records = {rec(0, 32, 16, 0, 1), rec(1, 32, 16, 2, 3), rec(2, 32, 16, 0, 3)};
  EXPECT_TRUE(check_plan(records, MemoryPlan{{0, 0, 32}, 64, "hand"}).empty());
}

TEST(PlanCheck, CatchesOverlapsWhileBothLive) {
  std::vector<BufferRecord> records = {rec(3, 32, 16, 0, 2), rec(5, 32, 16, 2, 4)};
  std::vector<std::string> problems = check_plan(records, MemoryPlan{{0, 16}, 48, "hand"});
  ASSERT_EQ(problems.size(), 1u) << join(problems);
  EXPECT_TRUE(mentions(problems, "tensor 3", "tensor 5"));
  EXPECT_TRUE(mentions(problems, "overlaps"));
  // One shared byte is enough.
  records = {rec(3, 32, 1, 0, 2), rec(5, 32, 1, 2, 4)};
  EXPECT_EQ(check_plan(records, MemoryPlan{{0, 31}, 63, "hand"}).size(), 1u);
  EXPECT_EQ(check_plan(records, MemoryPlan{{31, 0}, 63, "hand"}).size(), 1u);
  EXPECT_TRUE(check_plan(records, MemoryPlan{{32, 0}, 64, "hand"}).empty());
}

TEST(PlanCheck, CatchesMisalignedNegativeAndOutOfArenaOffsets) {
  std::vector<BufferRecord> records = {rec(1, 16, 16, 0, 0), rec(2, 16, 16, 1, 1), rec(4, 16, 4, 2, 2)};
  std::vector<std::string> problems = check_plan(records, MemoryPlan{{8, 32, -4}, 40, "hand"});
  EXPECT_TRUE(mentions(problems, "tensor 1", "not aligned to 16")) << join(problems);
  EXPECT_TRUE(mentions(problems, "tensor 2", "beyond the arena")) << join(problems);
  EXPECT_TRUE(mentions(problems, "tensor 4", "negative offset")) << join(problems);
  EXPECT_EQ(problems.size(), 3u) << join(problems);
}

TEST(PlanCheck, CatchesBadRecordsAndAMismatchedPlan) {
  std::vector<BufferRecord> records = {rec(1, -1, 16, 0, 0), rec(2, 16, 0, 0, 0), rec(3, 16, 16, 3, 2)};
  std::vector<std::string> problems = check_plan(records, MemoryPlan{{0, 0, 0}, 16, "hand"});
  EXPECT_TRUE(mentions(problems, "tensor 1", "negative size")) << join(problems);
  EXPECT_TRUE(mentions(problems, "tensor 2", "alignment")) << join(problems);
  EXPECT_TRUE(mentions(problems, "tensor 3", "after last_op")) << join(problems);
  problems = check_plan(records, MemoryPlan{{0}, 16, "hand"});
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_TRUE(mentions(problems, "1 offsets for 3 buffers"));
}

TEST(PlanCheck, CutsLongProblemLists) {
  std::vector<BufferRecord> records;
  for (int i = 0; i < 30; ++i) records.push_back(rec(i, 8, 8, 0, 0));
  std::vector<std::string> problems = check_plan(records, MemoryPlan{std::vector<int64_t>(30, 0), 8, "hand"});
  ASSERT_EQ(problems.size(), kMaxPlanProblems + 1);
  EXPECT_EQ(problems.back(), "... and " + std::to_string(30 * 29 / 2 - kMaxPlanProblems) + " more problems");
}

}  // namespace
}  // namespace microaot
