#include "ops/depthwise_dsp_path.h"

namespace microaot {

namespace {

// dw_ringed: a 3x3 window without dilation, depth multiplier 1, stride 1, rows of kDepthwiseRingMinColumns.
bool ringed(const ConvGeometry& g, int depth_multiplier) {
  return depth_multiplier == 1 && g.filter_h == 3 && g.filter_w == 3 && g.dilation_h == 1 && g.dilation_w == 1 &&
         g.stride_h == 1 && g.stride_w == 1 && g.output_w >= kDepthwiseRingMinColumns;
}

}  // namespace

bool depthwise_dsp_ring_only(const ConvGeometry& g, int depth_multiplier) {
  return ringed(g, depth_multiplier) && g.output_c % 4 == 0 && g.output_w <= kDepthwiseRingTileColumns;
}

std::string depthwise_dsp_path(const ConvGeometry& g, int depth_multiplier) {
  const std::string step = ", output step one SMMLAR per value";
  if (depth_multiplier % 4 == 0) return "depthwise: 4 output channels per step from one input byte" + step;
  if (depth_multiplier != 1) return "depthwise: the portable kernel (depth multiplier neither 1 nor 4k)";
  if (g.filter_h != 3 || g.filter_w != 3 || g.dilation_h != 1 || g.dilation_w != 1) {
    return "depthwise: 4 channels per step, each window's in-image taps" + step;
  }
  const std::string clipped = "3x3 taps unrolled, edge windows by their in-image taps";
  if (!ringed(g, depth_multiplier)) {
    return "depthwise 3x3: 4 channels per step, " + clipped + step;
  }
  std::string ring = "depthwise 3x3 widened ring: 4 channels per step, each input row widened to 16 bits once "
                     "(padding as 0), output rows in pairs sharing each LDRD of weights and input" + step;
  if (g.output_w > kDepthwiseRingTileColumns) {
    ring += "; rows of " + std::to_string(g.output_w) + " > " + std::to_string(kDepthwiseRingTileColumns) +
            " pixels: in tiles, and in place " + clipped;
  }
  return ring;
}

}  // namespace microaot
