#include "compile/fit_flash.h"

#include <gtest/gtest.h>

namespace microaot {
namespace {

// Step 1 saves 4 instructions a byte, step 2 two, step 0 one.
const std::vector<WidenCandidate> kLayers = {{0, 100, 100}, {1, 50, 200}, {2, 200, 400}};

TEST(FitFlash, WidensTheMostInstructionsPerByteFirst) {
  EXPECT_EQ(choose_widened(kLayers, 250), (std::set<size_t>{1, 2}));
  EXPECT_EQ(choose_widened(kLayers, 350), (std::set<size_t>{0, 1, 2}));
  EXPECT_EQ(choose_widened(kLayers, 60), (std::set<size_t>{1}));
}

TEST(FitFlash, PassesOverALayerThatNoLongerFitsForSmallerOnes) {
  // After step 1 (50), step 2 (200) does not fit in 100 more; step 0 (100) does.
  EXPECT_EQ(choose_widened(kLayers, 150), (std::set<size_t>{0, 1}));
}

TEST(FitFlash, NoRoomWidensNothing) {
  EXPECT_TRUE(choose_widened(kLayers, 0).empty());
  EXPECT_TRUE(choose_widened(kLayers, -10).empty());
  EXPECT_TRUE(choose_widened({}, 1000).empty());
}

TEST(FitFlash, EqualWorthKeepsStepOrder) {
  const std::vector<WidenCandidate> same = {{3, 100, 100}, {1, 100, 100}};
  EXPECT_EQ(choose_widened(same, 100), (std::set<size_t>{3}));
}

TEST(FitFlash, RecognisesInt16WeightKernels) {
  KernelCall call;
  call.stem = "conv_2d_s8_packed_w16";
  EXPECT_FALSE(has_int16_weights(call)) << "no packed weights derived";
  call.derived.emplace_back();
  EXPECT_TRUE(has_int16_weights(call));
  call.stem = "conv_2d_s8_packed";
  EXPECT_FALSE(has_int16_weights(call));
}

TEST(FitFlash, CodeEstimateCountsKernelsOnceAndCallsEach) {
  KernelCall a, b;
  a.stem = "conv_2d_s8_packed";
  b.stem = "add_s8";
  const int64_t per_call = estimated_code_bytes({a, a}) - estimated_code_bytes({a});
  EXPECT_GT(per_call, 0);
  EXPECT_EQ(estimated_code_bytes({a, a, b}) - estimated_code_bytes({a, b}), per_call);
  EXPECT_GT(estimated_code_bytes({a, b}) - estimated_code_bytes({a, a}), per_call) << "a second kernel costs more";
}

// Two layers of 8 rows, one output row a band: more bands (calls unrolled in NAME.c) estimate more code, and
// each distinct band shape (the first band's padding, the last one's clipped input) one params struct.
TEST(FitFlash, BandCodeCountsEachUnrolledActionAndEachShape) {
  FusedChain chain;
  BandLayer conv;
  conv.input_rows = conv.output_rows = 8;
  conv.extent = 3;
  conv.pad = 1;
  conv.input_row_bytes = conv.output_row_bytes = 16;
  chain.layers = {conv, conv};
  chain.schedule = schedule_bands(chain.layers, 1);
  FusedChain coarse = chain;
  coarse.schedule = schedule_bands(coarse.layers, 4);
  EXPECT_EQ(estimated_band_code_bytes({}), 0);
  EXPECT_GT(estimated_band_code_bytes({chain}), estimated_band_code_bytes({coarse}));
  EXPECT_EQ(estimated_band_code_bytes({chain, chain}), 2 * estimated_band_code_bytes({chain}));
  size_t shapes = 0;
  for (int layer = 0; layer < 2; ++layer) shapes += band_shapes(chain.schedule, layer).size();
  EXPECT_GE(shapes, 4u) << "the first band (top padding), the middle ones and the last (clipped) differ";
}

}  // namespace
}  // namespace microaot
