#include "ops/palette_weights.h"

#include <gtest/gtest.h>

#include <random>

namespace microaot {
namespace {

// channels rows of n weights, each row drawn from `values` values of its own.
std::vector<int8_t> few_valued_rows(std::mt19937& rng, int32_t channels, int32_t n, int values) {
  std::uniform_int_distribution<int> weight(-128, 127), pick(0, values - 1);
  std::vector<int8_t> rows;
  for (int32_t c = 0; c < channels; ++c) {
    std::vector<int8_t> own;
    for (int v = 0; v < values; ++v) own.push_back(static_cast<int8_t>(weight(rng)));
    for (int32_t i = 0; i < n; ++i) rows.push_back(own[static_cast<size_t>(pick(rng))]);
  }
  return rows;
}

// Every width 1..8, rows of odd lengths (indices crossing bytes at 3, 5, 6, 7 bits): the kernels' decoding gives
// the weights back, in the layout's sizes.
TEST(PaletteWeights, DecodingGivesTheWeightsBackAtEveryWidth) {
  std::mt19937 rng(7);
  for (int bits = 1; bits <= 8; ++bits) {
    for (int32_t n : {1, 5, 9, 64, 77}) {
      const int32_t channels = 3;
      const std::vector<int8_t> rows = few_valued_rows(rng, channels, n, 1 << bits);
      const int needed = palette_bits(rows, channels, n);
      EXPECT_LE(needed, bits);
      const Palette p = make_palette(rows, channels, n, bits);
      EXPECT_EQ(p.indices[0], bits);
      EXPECT_EQ(p.indices.size(), 1 + static_cast<size_t>(channels) * ((static_cast<size_t>(n) * bits + 7) / 8));
      EXPECT_EQ(p.table.size(), static_cast<size_t>(channels) << bits);
      EXPECT_EQ(decode_palette(p, channels, n), rows) << bits << " bits, rows of " << n;
    }
  }
}

TEST(PaletteWeights, BitsCoverTheFullestChannel) {
  EXPECT_EQ(palette_bits({5, 5, 5, 5}, 2, 2), 1);  // one value still takes an index bit
  EXPECT_EQ(palette_bits({1, 2, 3, 3, 3, 3}, 2, 3), 2);
  EXPECT_EQ(palette_bits({1, 2, 3, 4, 5, 6, 7, 8, 9, 9}, 2, 5), 3);
  // Tables ascending, padded with zeros.
  const Palette p = make_palette({3, -1, 3, 7, 7, 7}, 2, 3, 2);
  EXPECT_EQ(p.table, (std::vector<int8_t>{-1, 3, 0, 0, 7, 0, 0, 0}));
}

TEST(PaletteWeights, DepthwiseRowsAreEachChannelsTaps) {
  // [1, 2 taps, 3 channels] -> 3 rows of 2.
  EXPECT_EQ(depthwise_channel_rows({1, 2, 3, 4, 5, 6}, 2, 3), (std::vector<int8_t>{1, 4, 2, 5, 3, 6}));
}

// A palette no smaller than the weights, or wider than --compress-weights allows, leaves the call as it was.
TEST(PaletteWeights, TakenOnlyWhereItPaysAndTheSettingAllows) {
  Tensor w;
  w.name = "w";
  KernelCall call;
  call.stem = "fully_connected_s8";
  call.args = {0, 1, 2, 3};
  Target target;
  target.compress_bits = 7;
  std::mt19937 rng(3);
  const std::vector<int8_t> nine_taps = few_valued_rows(rng, 4, 9, 8);  // 3 bits: 1 + 4 x 4 + 4 x 8 B > 36 B
  EXPECT_FALSE(use_palette_weights(target, call, w, nine_taps, 4, 9, "fully_connected_s8_palette"));
  const std::vector<int8_t> rows = few_valued_rows(rng, 4, 64, 16);
  target.compress_bits = 3;
  EXPECT_FALSE(use_palette_weights(target, call, w, rows, 4, 64, "fully_connected_s8_palette"));
  target.compress_bits = 0;
  EXPECT_FALSE(use_palette_weights(target, call, w, rows, 4, 64, "fully_connected_s8_palette"));
  EXPECT_EQ(call.stem, "fully_connected_s8");
  EXPECT_EQ(call.args, (std::vector<int>{0, 1, 2, 3}));
  EXPECT_TRUE(call.derived.empty());
  target.compress_bits = 4;
  ASSERT_TRUE(use_palette_weights(target, call, w, rows, 4, 64, "fully_connected_s8_palette"));
  EXPECT_EQ(call.stem, "fully_connected_s8_palette");
  EXPECT_EQ(call.args, (std::vector<int>{0, derived_arg(0), derived_arg(1), 2, 3}));
  EXPECT_EQ(call.derived[0].byte_size(), 1 + 4 * 32);
  EXPECT_EQ(call.derived[1].byte_size(), 4 * 16);
  EXPECT_EQ(call.scratch_bytes, 64);
}

}  // namespace
}  // namespace microaot
