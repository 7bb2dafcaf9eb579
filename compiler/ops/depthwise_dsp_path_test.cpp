#include "ops/depthwise_dsp_path.h"

#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <utility>

namespace microaot {
namespace {

ConvGeometry geometry(int filter, int stride, int output_w) {
  ConvGeometry g;
  g.batches = 1, g.input_h = 8, g.input_w = output_w * stride, g.input_c = 8;
  g.filter_h = g.filter_w = filter;
  g.output_h = 8, g.output_w = output_w, g.output_c = 8;
  g.stride_h = g.stride_w = stride;
  return g;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The path of a layer whose requantization fits.
std::string path(const ConvGeometry& g, int depth_multiplier) { return depthwise_dsp_path(g, depth_multiplier, true); }

// Each path of the kernel's choice, at the bounds the kernel uses.
TEST(DepthwiseDspPath, NamesThePathTheKernelTakes) {
  EXPECT_TRUE(contains(path(geometry(3, 1, 5), 1),
                       "widened ring"));  // KWS: 25 x 5
  EXPECT_FALSE(contains(path(geometry(3, 1, 5), 1), "tiles"));
  EXPECT_TRUE(contains(path(geometry(3, 1, kDepthwiseRingTileColumns), 1), "widened ring"));
  EXPECT_FALSE(contains(path(geometry(3, 1, kDepthwiseRingTileColumns), 1), "tiles"));
  EXPECT_TRUE(contains(path(geometry(3, 1, kDepthwiseRingTileColumns + 1), 1), "tiles"));
  EXPECT_TRUE(contains(path(geometry(3, 1, kDepthwiseRingMinColumns - 1), 1), "edge windows"));
  EXPECT_TRUE(contains(path(geometry(3, 2, 12), 1),
                       "edge windows"));  // stride 2
  ConvGeometry dilated = geometry(3, 1, 12);
  dilated.dilation_w = 2;
  EXPECT_TRUE(contains(path(dilated, 1), "strip"));  // the strip: other filters
  EXPECT_FALSE(contains(path(dilated, 1), "ring"));
  EXPECT_FALSE(contains(path(dilated, 1), "tiles"));
  EXPECT_TRUE(contains(path(geometry(5, 1, 36), 1), "strip"));
  EXPECT_FALSE(contains(path(geometry(5, 1, 36), 1), "tiles"));
  EXPECT_TRUE(contains(path(geometry(5, 1, 37), 1), "tiles"));  // a 5x5 row beyond one strip
  EXPECT_TRUE(contains(path(geometry(5, 1, 37), 1), "in-image taps"));
  ConvGeometry wide = geometry(3, 1, 12);
  wide.dilation_h = wide.dilation_w = 40;  // 81 rows a window: no tile of 4 columns in the strip
  EXPECT_TRUE(contains(path(wide, 1), "each window's in-image taps"));
  EXPECT_FALSE(contains(path(wide, 1), "strip"));
  EXPECT_TRUE(contains(path(geometry(3, 1, 12), 8), "one input byte"));
  EXPECT_TRUE(contains(path(geometry(3, 1, 12), 2), "portable"));
}

// The layers the ring alone computes in both variants: whole channel groups, a row in one tile.
TEST(DepthwiseDspPath, RingOnlyForWholeGroupsAndRowsWithinATile) {
  EXPECT_TRUE(depthwise_dsp_ring_only(geometry(3, 1, 5), 1));  // KWS
  EXPECT_TRUE(depthwise_dsp_ring_only(geometry(3, 1, kDepthwiseRingTileColumns), 1));
  EXPECT_FALSE(depthwise_dsp_ring_only(geometry(3, 1, kDepthwiseRingTileColumns + 1), 1));  // tiles
  EXPECT_FALSE(depthwise_dsp_ring_only(geometry(3, 1, kDepthwiseRingMinColumns - 1), 1));
  EXPECT_FALSE(depthwise_dsp_ring_only(geometry(3, 2, 5), 1));
  EXPECT_FALSE(depthwise_dsp_ring_only(geometry(3, 1, 5), 8));
  ConvGeometry remainder = geometry(3, 1, 5);
  remainder.output_c = remainder.input_c = 6;
  EXPECT_FALSE(depthwise_dsp_ring_only(remainder, 1));
  ConvGeometry dilated = geometry(3, 1, 5);
  dilated.dilation_h = 2;
  EXPECT_FALSE(depthwise_dsp_ring_only(dilated, 1));
}

// A map whose padded input fits one ring (8 rows, MICROAOT_DEPTHWISE_RING_COLUMNS columns: VWW's 6x6 and 3x3
// maps) takes the full kernel's small-map patch at either stride, never the ring's own kernel (which does not
// link the patch); one row more, the ring again.
TEST(DepthwiseDspPath, SmallMapsTakeThePatchInTheFullKernel) {
  for (const auto& [stride, rows, columns] : {std::tuple{1, 6, 6}, std::tuple{1, 3, 3}, std::tuple{2, 3, 3},
                                             std::tuple{1, 6, kDepthwiseRingTileColumns}}) {
    ConvGeometry g = geometry(3, stride, columns);
    g.output_h = rows, g.input_h = rows * stride;
    EXPECT_TRUE(contains(path(g, 1), "small-map patch")) << stride << " " << rows << "x" << columns;
    EXPECT_FALSE(depthwise_dsp_ring_only(g, 1)) << stride << " " << rows << "x" << columns;
  }
  ConvGeometry taller = geometry(3, 1, 6);
  taller.output_h = taller.input_h = 7;
  EXPECT_TRUE(contains(path(taller, 1), "widened ring"));
  EXPECT_TRUE(depthwise_dsp_ring_only(taller, 1));
}

// Outside the requantization bounds every geometry takes the portable code, and the line says why.
TEST(DepthwiseDspPath, NamesTheReasonARequantizationDoesNotFit) {
  const std::string outside = depthwise_dsp_path(geometry(3, 1, 5), 1, false);
  EXPECT_TRUE(contains(outside, "portable")) << outside;
  EXPECT_TRUE(contains(outside, "requantization outside")) << outside;
  EXPECT_FALSE(contains(outside, "widened ring")) << outside;
  EXPECT_TRUE(contains(depthwise_dsp_path(geometry(3, 1, 12), 2, false), "depth multiplier"));
}

// A KWS-like layer's requantization: 8 channels, right shifts, small offsets and biases.
DepthwiseRequantization inside() {
  DepthwiseRequantization r;
  r.input_offset = 128, r.output_offset = -128, r.filter_taps = 9;
  r.multipliers.assign(8, 1 << 30);
  r.shifts.assign(8, -8);
  r.bias.assign(8, 1 << 29);
  return r;
}

// Each bound of microaot_fit_depthwise_dsp_requantization at its edge: the last value inside fits, the next one
// does not.
TEST(DepthwiseDspPath, RequantizationFitsUpToEachBound) {
  EXPECT_TRUE(depthwise_dsp_requantization_fits(inside()));
  DepthwiseRequantization no_bias = inside();
  no_bias.bias.clear();
  EXPECT_TRUE(depthwise_dsp_requantization_fits(no_bias));
  const std::pair<const char*, void (*)(DepthwiseRequantization&)> outside[] = {
      {"bias 2^29 + 1", [](DepthwiseRequantization& r) { r.bias[3] = (1 << 29) + 1; }},
      {"bias -2^29 - 1", [](DepthwiseRequantization& r) { r.bias[0] = -(1 << 29) - 1; }},
      {"shift 0", [](DepthwiseRequantization& r) { r.shifts[2] = 0; }},
      {"shift -32", [](DepthwiseRequantization& r) { r.shifts[2] = -32; }},
      {"negative multiplier", [](DepthwiseRequantization& r) { r.multipliers[5] = -1; }},
      {"input offset 129", [](DepthwiseRequantization& r) { r.input_offset = 129; }},
      {"output offset 129", [](DepthwiseRequantization& r) { r.output_offset = 129; }},
      {"2^14 taps", [](DepthwiseRequantization& r) { r.filter_taps = 1 << 14; }},
      // |output offset| 128: (2 * 128 + 1) * 2^(e-1) < 2^30 up to e = 22
      {"rounding term", [](DepthwiseRequantization& r) { r.shifts[1] = -23; }},
  };
  for (const auto& [what, change] : outside) {
    DepthwiseRequantization r = inside();
    change(r);
    EXPECT_FALSE(depthwise_dsp_requantization_fits(r)) << what;
  }
  DepthwiseRequantization edges = inside();
  edges.shifts = {-1, -22, -8, -8, -8, -8, -8, -8};
  edges.output_offset = 0;
  edges.shifts[2] = -31;  // offset 0: the rounding term 2^(e-1) is 2^30
  EXPECT_FALSE(depthwise_dsp_requantization_fits(edges));
  edges.shifts[2] = -30;
  EXPECT_TRUE(depthwise_dsp_requantization_fits(edges));
  for (const int multiplier : {2, 3, 4}) {  // the kernels' geometry rules decide on the multiplier
    edges.depth_multiplier = multiplier;
    EXPECT_TRUE(depthwise_dsp_requantization_fits(edges)) << multiplier;
  }
}

}  // namespace
}  // namespace microaot
