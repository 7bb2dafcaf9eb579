#include "ops/depthwise_dsp_path.h"

#include <gtest/gtest.h>

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

// Each path of the kernel's choice, at the bounds the kernel uses.
TEST(DepthwiseDspPath, NamesThePathTheKernelTakes) {
  EXPECT_TRUE(contains(depthwise_dsp_path(geometry(3, 1, 5), 1),
                       "widened ring"));  // KWS: 25 x 5
  EXPECT_FALSE(contains(depthwise_dsp_path(geometry(3, 1, 5), 1), "tiles"));
  EXPECT_TRUE(contains(depthwise_dsp_path(geometry(3, 1, kDepthwiseRingTileColumns), 1), "widened ring"));
  EXPECT_FALSE(contains(depthwise_dsp_path(geometry(3, 1, kDepthwiseRingTileColumns), 1), "tiles"));
  EXPECT_TRUE(contains(depthwise_dsp_path(geometry(3, 1, kDepthwiseRingTileColumns + 1), 1), "tiles"));
  EXPECT_TRUE(contains(depthwise_dsp_path(geometry(3, 1, kDepthwiseRingMinColumns - 1), 1), "edge windows"));
  EXPECT_TRUE(contains(depthwise_dsp_path(geometry(3, 2, 12), 1),
                       "edge windows"));  // stride 2
  ConvGeometry dilated = geometry(3, 1, 12);
  dilated.dilation_w = 2;
  EXPECT_TRUE(contains(depthwise_dsp_path(dilated, 1), "in-image taps"));
  EXPECT_FALSE(contains(depthwise_dsp_path(dilated, 1), "ring"));
  EXPECT_TRUE(contains(depthwise_dsp_path(geometry(3, 1, 12), 8), "one input byte"));
  EXPECT_TRUE(contains(depthwise_dsp_path(geometry(3, 1, 12), 2), "portable"));
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

}  // namespace
}  // namespace microaot
