#include "memory/plan_check.h"

#include <gtest/gtest.h>

#include <random>

#include "memory/memory_test_util.h"
#include "memory/planners.h"

namespace microaot {
namespace {

using testing_util::join;
using testing_util::mentions;
using testing_util::rec;

PlanRequest req(std::vector<BufferRecord> records, std::vector<OverlapPermit> permits = {}) {
  return PlanRequest{std::move(records), std::move(permits)};
}

MemoryPlan hand(std::vector<int64_t> offsets, int64_t arena) { return MemoryPlan{std::move(offsets), arena, "hand"}; }

TEST(PlanCheck, AcceptsSharedBytesWithDisjointLifetimesAndAdjacentBytes) {
  PlanRequest request = req({rec(0, 32, 16, 0, 1), rec(1, 32, 16, 2, 3), rec(2, 32, 16, 0, 3)});
  EXPECT_TRUE(check_plan(request, hand({0, 0, 32}, 64)).empty());
}

TEST(PlanCheck, CatchesOverlapsWhileBothLive) {
  PlanRequest request = req({rec(3, 32, 16, 0, 2), rec(5, 32, 16, 2, 4)});
  std::vector<std::string> problems = check_plan(request, hand({0, 16}, 48));
  ASSERT_EQ(problems.size(), 1u) << join(problems);
  EXPECT_TRUE(mentions(problems, "tensor 3", "tensor 5"));
  EXPECT_TRUE(mentions(problems, "overlaps"));
  // One shared byte is enough.
  request = req({rec(3, 32, 1, 0, 2), rec(5, 32, 1, 2, 4)});
  EXPECT_EQ(check_plan(request, hand({0, 31}, 63)).size(), 1u);
  EXPECT_EQ(check_plan(request, hand({31, 0}, 63)).size(), 1u);
  EXPECT_TRUE(check_plan(request, hand({32, 0}, 64)).empty());
}

TEST(PlanCheck, CatchesMisalignedNegativeAndOutOfArenaOffsets) {
  PlanRequest request = req({rec(1, 16, 16, 0, 0), rec(2, 16, 16, 1, 1), rec(4, 16, 4, 2, 2)});
  std::vector<std::string> problems = check_plan(request, hand({8, 32, -4}, 40));
  EXPECT_TRUE(mentions(problems, "tensor 1", "not aligned to 16")) << join(problems);
  EXPECT_TRUE(mentions(problems, "tensor 2", "beyond the arena")) << join(problems);
  EXPECT_TRUE(mentions(problems, "tensor 4", "negative offset")) << join(problems);
  EXPECT_EQ(problems.size(), 3u) << join(problems);
}

TEST(PlanCheck, CatchesBadRecordsAndAMismatchedPlan) {
  PlanRequest request = req({rec(1, -1, 16, 0, 0), rec(2, 16, 0, 0, 0), rec(3, 16, 16, 3, 2)});
  std::vector<std::string> problems = check_plan(request, hand({0, 0, 0}, 16));
  EXPECT_TRUE(mentions(problems, "tensor 1", "negative size")) << join(problems);
  EXPECT_TRUE(mentions(problems, "tensor 2", "alignment")) << join(problems);
  EXPECT_TRUE(mentions(problems, "tensor 3", "after last_op")) << join(problems);
  problems = check_plan(request, hand({0}, 16));
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_TRUE(mentions(problems, "1 offsets for 3 buffers"));
}

TEST(PlanCheck, NamesScratchBuffersByTheirOp) {
  PlanRequest request = req({rec(4, 32, 16, 0, 3), rec(-1, 32, 16, 2, 2, BufferKind::kScratch)});
  std::vector<std::string> problems = check_plan(request, hand({0, 0}, 32));
  ASSERT_EQ(problems.size(), 1u) << join(problems);
  EXPECT_TRUE(mentions(problems, "tensor 4", "scratch of op 2")) << join(problems);
}

TEST(PlanCheck, CutsLongProblemLists) {
  std::vector<BufferRecord> records;
  for (int i = 0; i < 30; ++i) records.push_back(rec(i, 8, 8, 0, 0));
  std::vector<std::string> problems = check_plan(req(records), hand(std::vector<int64_t>(30, 0), 8));
  ASSERT_EQ(problems.size(), kMaxPlanProblems + 1);
  EXPECT_EQ(problems.back(), "... and " + std::to_string(30 * 29 / 2 - kMaxPlanProblems) + " more problems");
}

// a (tensor 10) dies at op 1 where b (tensor 11) is produced; b may be written over a.
PlanRequest handover(int64_t max_shift) {
  return req({rec(10, 64, 1, 0, 1), rec(11, 64, 1, 1, 2)}, {{1, 0, max_shift}});
}

TEST(PlanCheck, PermitAllowsShiftsUpToMaxShift) {
  EXPECT_TRUE(check_plan(handover(0), hand({0, 0}, 64)).empty());
  EXPECT_TRUE(check_plan(handover(8), hand({0, 8}, 72)).empty());
  EXPECT_TRUE(check_plan(handover(8), hand({8, 0}, 72)).empty());  // any shift below is fine too
  EXPECT_TRUE(check_plan(handover(-8), hand({8, 0}, 72)).empty());
  EXPECT_TRUE(check_plan(handover(-8), hand({0, 64}, 128)).empty());  // no overlap needs no permit
}

TEST(PlanCheck, PermitRejectsShiftsAboveMaxShift) {
  std::vector<std::string> problems = check_plan(handover(8), hand({0, 9}, 73));
  ASSERT_EQ(problems.size(), 1u) << join(problems);
  EXPECT_TRUE(mentions(problems, "tensor 10", "overlaps")) << join(problems);
  EXPECT_TRUE(mentions(problems, "tensor 11 is written over tensor 10 at shift 9", "above the permitted 8"))
      << join(problems);
  problems = check_plan(handover(-8), hand({7, 0}, 71));
  EXPECT_TRUE(mentions(problems, "shift -7", "above the permitted -8")) << join(problems);
  problems = check_plan(handover(-8), hand({0, 0}, 64));
  EXPECT_TRUE(mentions(problems, "shift 0", "above the permitted -8")) << join(problems);
}

TEST(PlanCheck, PermitWorksInItsOwnDirectionOnly) {
  // The shift is offset(output) - offset(input), signed: 11 may start below 10 but not above it.
  EXPECT_TRUE(check_plan(handover(0), hand({8, 0}, 72)).empty());
  EXPECT_TRUE(mentions(check_plan(handover(0), hand({0, 8}, 72)), "at shift 8", "above the permitted 0"));
  // Naming 10 as the output instead is a different (here malformed) permit that allows nothing.
  PlanRequest swapped = req({rec(10, 64, 1, 0, 1), rec(11, 64, 1, 1, 2)}, {{0, 1, 64}});
  std::vector<std::string> problems = check_plan(swapped, hand({8, 0}, 72));
  EXPECT_TRUE(mentions(problems, "overlap permit 0", "dies at op 2, not at op 0")) << join(problems);
  EXPECT_TRUE(mentions(problems, "tensor 10", "overlaps")) << join(problems);
}

TEST(PlanCheck, RejectsMalformedPermits) {
  std::vector<BufferRecord> records = {rec(10, 64, 1, 0, 1), rec(11, 64, 1, 1, 2),
                                       rec(-1, 16, 1, 1, 1, BufferKind::kScratch)};
  MemoryPlan apart = hand({0, 64, 128}, 144);
  EXPECT_TRUE(check_plan(req(records, {{1, 0, 0}}), apart).empty());
  EXPECT_TRUE(mentions(check_plan(req(records, {{3, 0, 0}}), apart), "overlap permit 0", "refers to record 3"));
  EXPECT_TRUE(mentions(check_plan(req(records, {{1, 1, 0}}), apart), "overlap permit 0", "same buffer twice"));
  EXPECT_TRUE(mentions(check_plan(req(records, {{2, 0, 0}}), apart), "scratch of op 1 over tensor 10",
                       "involves a scratch"));
  // A permit between buffers that are not handed over at one op: 10 dies at op 1, 12 starts at op 2.
  records.push_back(rec(12, 64, 1, 2, 3));
  std::vector<std::string> problems = check_plan(req(records, {{3, 0, 0}}), hand({0, 64, 128, 0}, 144));
  EXPECT_TRUE(mentions(problems, "tensor 12 over tensor 10", "dies at op 1, not at op 2")) << join(problems);
}

TEST(PlanCheck, MalformedPermitAllowsNothing) {
  // 10 lives 0..2, 11 is produced at op 1: 10 does not die there, so writing 11 over it is a bug.
  PlanRequest request = req({rec(10, 64, 1, 0, 2), rec(11, 64, 1, 1, 2)}, {{1, 0, 64}});
  std::vector<std::string> problems = check_plan(request, hand({0, 0}, 64));
  EXPECT_TRUE(mentions(problems, "overlap permit 0", "dies at op 2, not at op 1")) << join(problems);
  EXPECT_TRUE(mentions(problems, "tensor 10", "overlaps")) << join(problems);
  EXPECT_EQ(problems.size(), 2u) << join(problems);
}

// Corrupting a valid plan must be caught: the checker does not just trust the planner.
TEST(PlanCheck, CatchesCorruptedPlansOfEveryPlanner) {
  std::mt19937 rng(99);
  int overlaps = 0, misaligned = 0;
  for (int trial = 0; trial < 30; ++trial) {
    PlanRequest request = testing_util::random_request(rng);
    request.permits.clear();  // any overlap is then an error
    const std::vector<BufferRecord>& records = request.records;
    for (const MemoryPlan& good : run_all_planners(request)) {
      for (size_t i = 0; i < records.size(); ++i) {
        for (size_t j = 0; j < records.size(); ++j) {
          if (i == j || records[i].size == 0 || records[j].size == 0) continue;
          if (records[i].last_op < records[j].first_op || records[j].last_op < records[i].first_op) continue;
          // j on top of i, then j sharing only i's last byte, then only i's first byte.
          const int64_t moves[] = {good.offsets[i], good.offsets[i] + records[i].size - 1,
                                   good.offsets[i] - records[j].size + 1};
          for (int64_t offset : moves) {
            if (offset < 0) continue;
            MemoryPlan bad = good;
            bad.offsets[j] = offset;
            bad.arena_size = std::max(bad.arena_size, offset + records[j].size);
            std::vector<std::string> problems = check_plan(request, bad);
            ASSERT_TRUE(mentions(problems, "overlaps", testing_util::buffer_name(records[j])))
                << "trial " << trial << "\n" << join(problems);
            ++overlaps;
          }
        }
        if (records[i].alignment > 1) {
          MemoryPlan bad = good;
          bad.offsets[i] += 1;
          bad.arena_size += 1;
          ASSERT_TRUE(mentions(check_plan(request, bad), "not aligned", testing_util::buffer_name(records[i])));
          ++misaligned;
        }
      }
    }
  }
  EXPECT_GT(overlaps, 100);
  EXPECT_GT(misaligned, 100);
}

}  // namespace
}  // namespace microaot
