#include "memory/band_choice.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

namespace microaot {
namespace {

constexpr int kSteps = 40;

// Random tensor records (and a few scratch ones, which the live bytes leave out) over kSteps steps.
std::vector<BufferRecord> random_records(std::mt19937& rng) {
  std::vector<BufferRecord> records;
  std::uniform_int_distribution<int> step(0, kSteps), size(1, 5000), count(10, 60);
  for (int n = count(rng), id = 0; id < n; ++id) {
    BufferRecord r;
    r.tensor_id = id;
    r.first_op = step(rng);
    r.last_op = std::min(kSteps, r.first_op + step(rng) % 8);
    r.size = size(rng);
    r.alignment = id % 3 == 0 ? 16 : 1;
    r.kind = id % 7 == 6 ? BufferKind::kScratch : BufferKind::kTensor;
    records.push_back(r);
  }
  return records;
}

// A span over steps [first, last] whose line buffers are records that live inside it (as a chain's
// intermediate maps do), shrunk at random, and a random overlap of its output over its input.
ChainSpan random_span(std::mt19937& rng, const std::vector<BufferRecord>& records, int first, int last) {
  ChainSpan s;
  s.first_step = first;
  s.last_step = last;
  for (const BufferRecord& r : records) {
    if (r.kind != BufferKind::kTensor || r.first_op < first || r.first_op >= last || r.last_op > last) continue;
    if (rng() % 2) s.line_buffers.push_back({r.tensor_id, static_cast<int64_t>(rng() % (r.size + 1))});
  }
  s.overlap_bytes = static_cast<int64_t>(rng() % 300);
  return s;
}

// Disjoint spans of 2 to 8 steps, in random order.
std::vector<ChainSpan> random_disjoint_spans(std::mt19937& rng, const std::vector<BufferRecord>& records) {
  std::vector<ChainSpan> spans;
  for (int step = static_cast<int>(rng() % 4); step + 1 < kSteps;) {
    const int last = std::min(kSteps - 1, step + 1 + static_cast<int>(rng() % 7));
    if (rng() % 3 != 0) spans.push_back(random_span(rng, records, step, last));
    step = last + 1 + static_cast<int>(rng() % 3);
  }
  std::shuffle(spans.begin(), spans.end(), rng);
  return spans;
}

// The score the choice's incremental walk keeps must be the one from scratch: live bytes of the banded records.
std::vector<int64_t> from_scratch(const std::vector<BufferRecord>& records, const std::vector<ChainSpan>& spans) {
  return live_bytes(band_records(records, spans), spans, kSteps);
}

TEST(BandChoice, DeltasOfDisjointSpansAddUpToTheScoreFromScratch) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 300; ++trial) {
    const std::vector<BufferRecord> records = random_records(rng);
    const std::vector<ChainSpan> spans = random_disjoint_spans(rng, records);
    std::vector<int64_t> live = live_bytes(records, {}, kSteps);
    for (const ChainSpan& s : spans) {
      const std::vector<int64_t> delta = span_delta(records, s);
      ASSERT_EQ(delta.size(), static_cast<size_t>(s.last_step - s.first_step + 1));
      for (size_t k = 0; k < delta.size(); ++k) live[s.first_step + k] += delta[k];
    }
    const std::vector<int64_t> expected = from_scratch(records, spans);
    ASSERT_EQ(live, expected) << "trial " << trial;
    const LiveScore a = live_score(live), b = live_score(expected);
    EXPECT_EQ(a.peak, b.peak);
    EXPECT_EQ(a.squares, b.squares);
  }
}

TEST(BandChoice, TheChosenSetScoresAsFromScratchAndMeetsItsLimits) {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 100; ++trial) {
    const std::vector<BufferRecord> records = random_records(rng);
    BandChoiceRequest request;
    request.live = live_bytes(records, {}, kSteps);
    std::vector<ChainSpan> spans;
    // Overlapping options: every span of 2-6 steps from a few heads, at two band heights, and their sub-spans
    // (what a cut finds).
    for (int first = 0; first + 1 < kSteps; first += 1 + static_cast<int>(rng() % 4)) {
      for (int last = first + 1; last < std::min(kSteps, first + 6); ++last) {
        for (int rows : {1, 4}) {
          spans.push_back(random_span(rng, records, first, last));
          request.options.push_back({first, last, rows, 0, 100 + static_cast<int64_t>(rng() % 5000),
                                     span_delta(records, spans.back())});
        }
      }
    }
    request.max_extra = trial % 2 ? INT64_MAX / 4 : 20000;
    request.target_bytes = trial % 3 == 0 ? live_score(request.live).peak * 8 / 10 : 0;
    const BandChoice choice = choose_chains(request);
    std::vector<ChainSpan> chosen;
    int64_t extra = 0;
    for (size_t k = 0; k < choice.options.size(); ++k) {
      const ChainOption& o = request.options[choice.options[k]];
      if (k > 0) {
        ASSERT_GT(o.first_step, request.options[choice.options[k - 1]].last_step) << "not disjoint, by step";
      }
      chosen.push_back(spans[choice.options[k]]);
      extra += o.extra_instructions;
    }
    const LiveScore s = live_score(from_scratch(records, chosen));
    EXPECT_EQ(choice.score.peak, s.peak) << "trial " << trial;
    EXPECT_EQ(choice.score.squares, s.squares) << "trial " << trial;
    EXPECT_EQ(choice.extra_instructions, extra);
    EXPECT_LE(extra, request.max_extra);
    EXPECT_LE(s.peak, live_score(request.live).peak);
  }
}

// One peak at step 2: chain 1-3 lowers it to 50 for 5000 instructions, chain 2-3 to 60 for 100. By bytes per
// instruction the short one comes first; the long one replaces it when the cost allows and the target asks;
// the walk stops once the target is met.
TEST(BandChoice, PicksTheMostBytesPerInstructionWithinTheCostAndStopsAtTheTarget) {
  BandChoiceRequest request;
  request.live = {10, 50, 100, 50, 10};
  request.options = {ChainOption{1, 3, 1, 0, 5000, {0, -50, 0}}, ChainOption{2, 3, 1, 0, 100, {-40, 0}}};
  request.max_extra = 1000;
  BandChoice c = choose_chains(request);
  EXPECT_EQ(c.options, std::vector<int>{1});
  EXPECT_EQ(c.score.peak, 60);
  EXPECT_EQ(c.extra_instructions, 100);
  request.max_extra = 1000000;
  c = choose_chains(request);
  EXPECT_EQ(c.options, std::vector<int>{0});
  EXPECT_EQ(c.score.peak, 50);
  EXPECT_EQ(c.extra_instructions, 5000);
  request.target_bytes = 60;
  EXPECT_EQ(choose_chains(request).options, std::vector<int>{1});
  request.target_bytes = 100;  // already met: nothing
  EXPECT_TRUE(choose_chains(request).options.empty());
}

// Maps of gigabytes (a fuzzed model): the squares do not overflow, the choice still lowers the peak.
TEST(BandChoice, MapsOfGigabytesScoreWithoutOverflow) {
  const int64_t gb = int64_t{5} << 30;
  BandChoiceRequest request;
  request.live = {gb, 3 * gb, 2 * gb, gb};
  request.options = {ChainOption{1, 2, 1, 0, 100, {-2 * gb, -gb}}};
  request.max_extra = 1000;
  const BandChoice c = choose_chains(request);
  EXPECT_EQ(c.options, std::vector<int>{0});
  EXPECT_EQ(c.score.peak, gb);
}

// Under a budget the plans compare as placed, their estimate including the variant switches outside the chains:
// one that fits beats any that does not, the cheaper of two that fit wins even when larger, and of two that do
// not fit the smaller (the one check_budget reports).
TEST(BandChoice, PlacedPlansCompareByFitThenCost) {
  const int64_t budget = 1000;
  const PlacedBands fits_cheap{990, 50}, fits_small_dear{800, 60}, fits_cheap_smaller{900, 50};
  const PlacedBands over_small{1100, 10}, over_large{1200, 0};
  EXPECT_TRUE(better_placed(fits_cheap, fits_small_dear, budget));
  EXPECT_FALSE(better_placed(fits_small_dear, fits_cheap, budget));
  EXPECT_TRUE(better_placed(fits_cheap_smaller, fits_cheap, budget));  // equal cost: the smaller
  EXPECT_TRUE(better_placed(fits_small_dear, over_small, budget));
  EXPECT_FALSE(better_placed(over_small, fits_small_dear, budget));
  EXPECT_TRUE(better_placed(over_small, over_large, budget));
  EXPECT_FALSE(better_placed(fits_cheap, fits_cheap, budget));  // a tie keeps the first
  EXPECT_TRUE(better_placed(PlacedBands{1000, -5}, fits_cheap, budget));  // at the budget is within it
}

TEST(BandChoiceDeathTest, ALineBufferOutlivingItsChainIsABug) {
  BufferRecord r;
  r.tensor_id = 3;
  r.size = 100;
  r.first_op = 1;
  r.last_op = 5;
  ChainSpan s;
  s.first_step = 1;
  s.last_step = 3;
  s.line_buffers = {{3, 10}};
  EXPECT_DEATH(span_delta({r}, s), "line buffer lives beyond its chain");
}

}  // namespace
}  // namespace microaot
