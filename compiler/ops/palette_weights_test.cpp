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

Tensor named(const std::string& name) {
  Tensor t;
  t.name = name;
  return t;
}

// A call of a portable stem over input 0, weights 1, bias 2, output 3.
KernelCall portable_call(const std::string& stem) {
  KernelCall call;
  call.stem = stem;
  call.args = {0, 1, 2, 3};
  return call;
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
  const Tensor w = named("w");
  KernelCall call = portable_call("fully_connected_s8");
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

// Rows drawn from one set of values: the shared palette (flag in byte 0, one table of 2^bits) decodes back at
// every width.
TEST(PaletteWeights, SharedTableDecodesBackAtEveryWidth) {
  std::mt19937 rng(11);
  std::uniform_int_distribution<int> weight(-128, 127);
  for (int bits = 1; bits <= 8; ++bits) {
    std::vector<int8_t> common;
    for (int v = 0; v < (1 << bits); ++v) common.push_back(static_cast<int8_t>(weight(rng)));
    std::uniform_int_distribution<size_t> pick(0, common.size() - 1);
    const int32_t channels = 5, n = 9;
    std::vector<int8_t> rows;
    for (int32_t i = 0; i < channels * n; ++i) rows.push_back(common[pick(rng)]);
    EXPECT_LE(palette_bits(rows, channels, n, true), bits);
    const Palette p = make_palette(rows, channels, n, bits, true);
    EXPECT_EQ(p.indices[0], bits | 0x80);
    EXPECT_EQ(p.table.size(), size_t{1} << bits);
    EXPECT_EQ(p.bytes(), palette_bytes(channels, n, bits, true));
    EXPECT_EQ(decode_palette(p, channels, n), rows) << bits << " bits";
  }
}

// The smaller exact form is taken: a shared table where per-channel tables outweigh short rows (3x3 depthwise),
// per-channel tables where the channels' values differ and the rows are long.
TEST(PaletteWeights, SmallestPaletteChoosesSharedOrPerChannelByBytes) {
  std::mt19937 rng(12);
  std::vector<int8_t> taps;  // 64 channels x 9 taps from 16 common values: 1 + 64 x 5 + 16 B vs 1 + 64 x (5 + 16) B
  for (int i = 0; i < 64 * 9; ++i) taps.push_back(static_cast<int8_t>(8 * (i * 7 % 16) - 64));
  const Palette shared = smallest_palette(taps, 64, 9, 7);
  EXPECT_TRUE(shared.shared);
  EXPECT_EQ(shared.bits, 4);
  EXPECT_EQ(shared.bytes(), 1 + 64 * 5 + 16);
  EXPECT_EQ(decode_palette(shared, 64, 9), taps);
  const std::vector<int8_t> own = few_valued_rows(rng, 8, 256, 4);  // own 4 values per channel: 2 bits each
  const Palette per_channel = smallest_palette(own, 8, 256, 7);
  EXPECT_FALSE(per_channel.shared);
  EXPECT_EQ(per_channel.bits, 2);
  EXPECT_EQ(decode_palette(per_channel, 8, 256), own);
  EXPECT_EQ(smallest_palette(taps, 64, 9, 3).bits, 0);  // neither form fits 3 bits: no palette
}

// The reports read a bound call's format back: a shared table's rows count as the layer's channels.
TEST(PaletteWeights, FactsOfASharedPalette) {
  const Tensor w = named("w");
  KernelCall call = portable_call("depthwise_conv_2d_s8");
  Target target;
  target.compress_bits = 7;
  std::vector<int8_t> taps;
  for (int i = 0; i < 64 * 9; ++i) taps.push_back(static_cast<int8_t>(i % 16));
  ASSERT_TRUE(use_palette_weights(target, call, w, taps, 64, 9, "depthwise_conv_2d_s8_palette"));
  Graph graph;
  graph.tensors = {Tensor{}, call.derived[0], call.derived[1]};
  call.args[1] = 1, call.args[2] = 2;
  const PaletteFacts facts = palette_facts(graph, call);
  EXPECT_EQ(facts.bits, 4);
  EXPECT_TRUE(facts.shared);
  EXPECT_EQ(facts.int8_bytes, 64 * 9);
  EXPECT_EQ(facts.bytes, 1 + 64 * 5 + 16);
  EXPECT_NE(call.specialisation.find("one table for all channels"), std::string::npos);
}

}  // namespace
}  // namespace microaot
