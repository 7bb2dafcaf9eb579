// The fused bands' cost model (memory/bands.h, bands_cost; constants per family in memory/band_cost.def).
#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "memory/bands.h"

namespace microaot {
namespace {

const std::vector<BandFamily>& families() {
  static const std::vector<BandFamily> all = {
#define MICROAOT_BAND_FAMILY(id, name, call, call_per_channel, halo_milli, moved_milli, in_place_milli) BandFamily::id,
#include "memory/band_cost.def"
#undef MICROAOT_BAND_FAMILY
  };
  return all;
}

// A layer of `rows` rows of 96 bytes, 3x3 stride 1 pad 1 unless told, 8 channels.
BandLayer layer(BandFamily family, int64_t rows, int64_t extent = 3) {
  BandLayer l;
  l.family = family;
  l.input_rows = l.output_rows = rows;
  l.extent = extent;
  l.pad = extent / 2;
  l.input_row_bytes = l.output_row_bytes = 96;
  l.channels = 8;
  return l;
}

TEST(BandCost, EveryFamilyHasItsOwnNamedConstants) {
  std::set<std::string> names;
  for (const BandFamily f : families()) {
    const BandCostConstants& k = band_cost_constants(f);
    ASSERT_NE(k.name, nullptr);
    EXPECT_TRUE(names.insert(k.name).second) << k.name;
    // Costs are never negative: only the in-place credit lowers a chain's estimate, and it is a saving.
    EXPECT_GE(k.call, 0) << k.name;
    EXPECT_GE(k.call_per_channel, 0) << k.name;
    EXPECT_GE(k.halo_milli, 0) << k.name;
    EXPECT_GE(k.moved_milli, 0) << k.name;
    EXPECT_GE(k.in_place_milli, 0) << k.name;
  }
  EXPECT_EQ(names.size(), 6u);
  EXPECT_STREQ(band_cost_constants(BandFamily::kDepthwise).name, "depthwise");
  EXPECT_STREQ(band_cost_constants(BandFamily::kLayout).name, "layout");
}

// One layer's cost is its family's constants times its work: the table is what the model walks.
TEST(BandCost, LayerCostIsItsFamilysConstantsTimesItsWork) {
  const BandLayerWork work{5, 3000, 2000};
  for (const BandFamily f : families()) {
    const BandCostConstants& k = band_cost_constants(f);
    BandLayer l = layer(f, 32);
    l.channels = 24;
    const int64_t expected = 4 * (k.call + 24 * k.call_per_channel) + (3000 * k.halo_milli + 2000 * k.moved_milli) / 1000;
    EXPECT_EQ(band_layer_cost(l, work), expected) << k.name;
    // One call: no set-up repeated, nothing to pay (no halo, no move).
    EXPECT_EQ(band_layer_cost(l, BandLayerWork{1, 0, 0}), 0) << k.name;
  }
}

// A layer the untiled plan runs in place (its _overlap variant copies rows through scratch) runs the plain
// kernel in a chain: the chain is credited the copies, per byte of the layer's input map, and may cost less
// than whole layers (a negative estimate). Constants of the test's own: the table's credit may be 0.
TEST(BandCost, InPlaceStepsGetTheVariantChangeCredit) {
  const BandCostConstants k{"test", 500, 20, 2000, 1000, 4500};
  std::vector<BandLayer> chain = {layer(BandFamily::kConv, 32), layer(BandFamily::kDepthwise, 32),
                                  layer(BandFamily::kPointwise, 32, 1)};
  const BandSchedule s = schedule_bands(chain, 4);
  const std::vector<BandLayerWork> work = band_layer_work(chain, s);
  for (size_t i = 0; i < chain.size(); ++i) {
    const int64_t plain = band_layer_cost(chain[i], work[i], k);
    EXPECT_GT(plain, 0) << i;
    chain[i].in_place_untiled = true;
    // 32 rows of 96 bytes at 4.5 instructions a byte.
    EXPECT_EQ(band_layer_cost(chain[i], work[i], k), plain - 32 * 96 * 45 / 10) << i;
    EXPECT_LT(band_layer_cost(chain[i], work[i], k), 0) << i;
  }
  // The table's credit, whatever it is, is what bands_cost subtracts.
  int64_t credit = 0;
  for (const BandLayer& l : chain) credit += l.input_rows * l.input_row_bytes * band_cost_constants(l.family).in_place_milli / 1000;
  std::vector<BandLayer> untouched = chain;
  for (BandLayer& l : untouched) l.in_place_untiled = false;
  EXPECT_EQ(bands_cost(chain, s), bands_cost(untouched, s) - credit);
}

// The in-place variant's price is one rule: what a chain saves of it (the credit above) is what a step outside
// the chains costs when the plan with chains switches it to that variant (compile/plan_bands.h).
TEST(BandCost, InPlaceVariantPriceIsTheChainCredit) {
  const BandCostConstants k{"test", 500, 20, 2000, 1000, 4500};
  BandLayer l = layer(BandFamily::kDepthwise, 32);
  const BandLayerWork work{3, 100, 50};
  const int64_t plain = band_layer_cost(l, work, k);
  l.in_place_untiled = true;
  EXPECT_EQ(plain - band_layer_cost(l, work, k), in_place_variant_cost(l.input_rows * l.input_row_bytes, k));
  EXPECT_EQ(in_place_variant_cost(3072, k), 13824);
  EXPECT_EQ(in_place_variant_cost(0, k), 0);
  EXPECT_EQ(in_place_variant_cost(3072, BandCostConstants{"free", 0, 0, 0, 0, 0}), 0);
}

TEST(BandCost, ChainCostIsTheSumOfItsLayers) {
  const std::vector<BandLayer> chain = {layer(BandFamily::kLayout, 32, 1), layer(BandFamily::kConv, 32),
                                        layer(BandFamily::kDepthwise, 32), layer(BandFamily::kPointwise, 32, 1)};
  for (const BandPace pace : {BandPace::kLastLayer, BandPace::kEveryLayer}) {
    const BandSchedule s = schedule_bands(chain, 2, pace);
    const std::vector<BandLayerWork> work = band_layer_work(chain, s);
    int64_t sum = 0, moved = 0;
    for (size_t i = 0; i < chain.size(); ++i) {
      sum += band_layer_cost(chain[i], work[i]);
      moved += work[i].moved_bytes;
    }
    EXPECT_EQ(bands_cost(chain, s), sum);
    EXPECT_EQ(moved, s.moved_bytes);  // every move counted at the layer whose line buffer it moves
  }
}

// Taller windows read more rows again per band: a layer's cost never falls as its halo grows (its calls stay
// those of the band height), and rises where the family's halo bytes cost anything.
TEST(BandCost, GrowsWithTheHaloRows) {
  for (const BandFamily f : {BandFamily::kConv, BandFamily::kDepthwise, BandFamily::kPool}) {
    int64_t previous = -1, previous_halo = -1;
    for (int64_t extent : {1, 3, 5, 7}) {
      const std::vector<BandLayer> chain = {layer(BandFamily::kPointwise, 32, 1), layer(f, 32, extent)};
      const BandSchedule s = schedule_bands(chain, 2);
      const BandLayerWork work = band_layer_work(chain, s)[1];
      const int64_t halo = work.halo_bytes;
      const int64_t cost = band_layer_cost(chain[1], work);
      EXPECT_EQ(work.calls, 16) << extent;
      EXPECT_GT(halo, previous_halo) << extent;
      EXPECT_GE(cost, previous) << band_cost_constants(f).name << " extent " << extent;
      if (band_cost_constants(f).halo_milli > 0 && previous >= 0) {
        EXPECT_GT(cost, previous);
      }
      previous = cost;
      previous_halo = halo;
    }
  }
}

// Taller bands make fewer calls and read fewer halo rows: never dearer.
TEST(BandCost, TallerBandsCostNoMore) {
  const std::vector<BandLayer> chain = {layer(BandFamily::kConv, 64), layer(BandFamily::kDepthwise, 64),
                                        layer(BandFamily::kPointwise, 64, 1)};
  int64_t previous = INT64_MAX;
  for (int64_t rows : {1, 2, 4, 8, 16}) {
    const int64_t cost = bands_cost(chain, schedule_bands(chain, rows));
    EXPECT_LE(cost, previous) << rows;
    previous = cost;
  }
}

}  // namespace
}  // namespace microaot
