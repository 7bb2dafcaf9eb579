#include "ops/depthwise_dsp_path.h"

namespace microaot {

namespace {

// dw_ringed: a 3x3 window without dilation, depth multiplier 1, stride 1, rows of kDepthwiseRingMinColumns.
bool ringed(const ConvGeometry& g, int depth_multiplier) {
  return depth_multiplier == 1 && g.filter_h == 3 && g.filter_w == 3 && g.dilation_h == 1 && g.dilation_w == 1 &&
         g.stride_h == 1 && g.stride_w == 1 && g.output_w >= kDepthwiseRingMinColumns;
}

// The rounding term 2^(e-1) + |offset| * 2^e of a right shift by e: (2 |offset| + 1) * 2^(e-1) < 2^30.
bool rounding_fits(int64_t output_offset, int64_t shift) {
  const int64_t factor = 2 * (output_offset < 0 ? -output_offset : output_offset) + 1;
  return factor < (int64_t{1} << (31 + shift));
}

bool channel_fits(const DepthwiseRequantization& r, size_t c) {
  constexpr int64_t kMaxBias = int64_t{1} << 29;
  const int64_t shift = r.shifts[c];
  if (shift > -1 || shift < -31 || r.multipliers[c] < 0) return false;
  if (!r.bias.empty() && (r.bias[c] > kMaxBias || r.bias[c] < -kMaxBias)) return false;
  return rounding_fits(r.output_offset, shift);
}

bool within_offset(int64_t offset) { return offset >= -128 && offset <= 128; }

}  // namespace

bool depthwise_dsp_requantization_fits(const DepthwiseRequantization& r) {
  if ((r.depth_multiplier != 1 && r.depth_multiplier % 4 != 0) || !within_offset(r.input_offset) ||
      !within_offset(r.output_offset) || r.filter_taps >= (int64_t{1} << 14)) {
    return false;
  }
  for (size_t c = 0; c < r.shifts.size(); ++c) {
    if (!channel_fits(r, c)) return false;
  }
  return true;
}

bool depthwise_dsp_ring_only(const ConvGeometry& g, int depth_multiplier) {
  return ringed(g, depth_multiplier) && g.output_c % 4 == 0 && g.output_w <= kDepthwiseRingTileColumns;
}

std::string depthwise_dsp_path(const ConvGeometry& g, int depth_multiplier, bool requantization_fits) {
  const std::string step = ", output step one SMMLAR per value";
  if (depth_multiplier != 1 && depth_multiplier % 4 != 0) {
    return "depthwise: the portable kernel (depth multiplier neither 1 nor 4k)";
  }
  if (!requantization_fits) {
    return "depthwise: the portable kernel (requantization outside the ring's and the DSP paths' bounds: a left "
           "shift, |bias| > 2^29 or a rounding term >= 2^30)";
  }
  if (depth_multiplier % 4 == 0) return "depthwise: 4 output channels per step from one input byte" + step;
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
