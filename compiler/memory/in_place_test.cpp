#include "memory/in_place.h"

#include <gtest/gtest.h>

#include "memory/memory_test_util.h"

namespace microaot {
namespace {

using testing_util::rec;

// Tensor 1 dies at step 2 where tensor 2 is born; tensor 3 lives on; tensor 9 has no record (a constant).
std::vector<BufferRecord> records() {
  return {rec(1, 64, 16, 0, 2), rec(2, 64, 16, 2, 4), rec(3, 64, 16, 0, 4), rec(4, 32, 16, 2, 3)};
}

InPlaceOffer offer(size_t step, int in, int out, int64_t shift = 0, bool interface = false) {
  return InPlaceOffer{step, in, out, interface, shift};
}

TEST(InPlacePick, TakesAnInputThatDiesWhereTheOutputIsBorn) {
  const std::vector<InPlacePick> picks = pick_in_place(records(), {offer(2, 1, 2, -16)});
  ASSERT_EQ(picks.size(), 1u);
  EXPECT_EQ(picks[0].offer, 0u);
  EXPECT_EQ(picks[0].permit.output, 1u);
  EXPECT_EQ(picks[0].permit.input, 0u);
  EXPECT_EQ(picks[0].permit.max_shift, -16);
}

TEST(InPlacePick, LeavesOutLifetimesThatDoNotMeetAtTheStep) {
  // Tensor 3 still lives after step 2; tensor 4 is born at 2 but the offer names step 1.
  EXPECT_TRUE(pick_in_place(records(), {offer(2, 3, 2), offer(1, 1, 4)}).empty());
}

TEST(InPlacePick, LeavesOutSameStorageInterfacesAndConstants) {
  EXPECT_TRUE(pick_in_place(records(), {offer(2, 1, 1), offer(2, 1, 2, 0, true), offer(2, 9, 2)}).empty());
}

TEST(InPlacePick, KeepsTheFirstOfTwoOffersOfOnePairInOrder) {
  const std::vector<InPlacePick> picks = pick_in_place(records(), {offer(2, 1, 2, 0), offer(2, 1, 2, 8), offer(2, 1, 4)});
  ASSERT_EQ(picks.size(), 2u);
  EXPECT_EQ(picks[0].offer, 0u);
  EXPECT_EQ(picks[0].permit.max_shift, 0);
  EXPECT_EQ(picks[1].offer, 2u);
  EXPECT_EQ(picks[1].permit.output, 3u);
}

TEST(InPlacePick, IgnoresScratchRecordsWhenLookingUpStorage) {
  std::vector<BufferRecord> r = records();
  r.insert(r.begin(), rec(-1, 16, 16, 2, 2, BufferKind::kScratch));
  const std::vector<InPlacePick> picks = pick_in_place(r, {offer(2, 1, 2)});
  ASSERT_EQ(picks.size(), 1u);
  EXPECT_EQ(picks[0].permit.output, 2u);
  EXPECT_EQ(picks[0].permit.input, 1u);
}

TEST(PlannedOverlap, CountsSharedBytesWithinOnePoolOnly) {
  const PlanRequest request{{rec(1, 64, 16, 0, 2), rec(2, 64, 16, 2, 4)}, {}};
  const MemoryPlan plan{{0, 48}, 112, "hand"};
  EXPECT_EQ(planned_overlap(request, plan, {}, 0, 1), 16);
  EXPECT_EQ(planned_overlap(request, plan, {0, 0}, 1, 0), 16);
  EXPECT_EQ(planned_overlap(request, plan, {0, 1}, 0, 1), 0);
  EXPECT_EQ(planned_overlap(request, MemoryPlan{{0, 64}, 128, "hand"}, {}, 0, 1), 0);
}

TEST(PermitsUsed, OnlyOfferedPermitsWhoseBuffersShareBytes) {
  const PlanRequest request{{rec(1, 64, 16, 0, 2), rec(2, 64, 16, 2, 4), rec(3, 32, 16, 2, 3)}, {}};
  const std::vector<OverlapPermit> permits{{1, 0, 0}, {2, 0, 0}, {1, 0, 0}};
  const MemoryPlan plan{{0, 0, 64}, 96, "hand"};
  EXPECT_EQ(permits_used(permits, {true, true, false}, request, plan), (std::vector<bool>{true, false, false}));
}

}  // namespace
}  // namespace microaot
