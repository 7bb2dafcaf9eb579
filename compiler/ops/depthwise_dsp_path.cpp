#include "ops/depthwise_dsp_path.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace microaot {

namespace {

// The layer's geometry as the kernel's params hold it, for the fit rules.
microaot_depthwise_conv_2d_params_q params_of(const ConvGeometry& g, int depth_multiplier) {
  microaot_depthwise_conv_2d_params_q p{};
  p.filter_height = g.filter_h, p.filter_width = g.filter_w;
  p.dilation_height = g.dilation_h, p.dilation_width = g.dilation_w;
  p.stride_height = g.stride_h, p.stride_width = g.stride_w;
  p.output_height = g.output_h, p.output_width = g.output_w, p.output_depth = g.output_c;
  p.depth_multiplier = depth_multiplier;
  return p;
}

bool ringed(const ConvGeometry& g, int depth_multiplier) {
  const microaot_depthwise_conv_2d_params_q p = params_of(g, depth_multiplier);
  return microaot_fit_depthwise_ringed(&p) != 0;
}

// The small-map patch, which the full kernel alone links (dsp/depthwise_conv_2d_s8_patch.c).
bool patched(const ConvGeometry& g, int depth_multiplier) {
  const microaot_depthwise_conv_2d_params_q p = params_of(g, depth_multiplier);
  return microaot_fit_depthwise_patched(&p) != 0;
}

// An int64 value as the int32 the kernel receives, saturated: beyond int32 it is outside every bound anyway.
int32_t saturated(int64_t value) {
  return static_cast<int32_t>(std::clamp<int64_t>(value, INT32_MIN, INT32_MAX));
}

std::vector<int32_t> saturated(const std::vector<int64_t>& values) {
  std::vector<int32_t> narrowed;
  for (int64_t value : values) narrowed.push_back(saturated(value));
  return narrowed;
}

// The requantization `r` under the fit rule `fit`, as the kernel receives it.
template <typename Fit>
bool requantization_fits(const DepthwiseRequantization& r, Fit fit) {
  microaot_depthwise_conv_2d_params_q p{};
  p.input_offset = saturated(r.input_offset);
  p.output_offset = saturated(r.output_offset);
  p.filter_height = saturated(r.filter_taps);
  p.filter_width = 1;
  p.depth_multiplier = saturated(r.depth_multiplier);
  p.output_depth = static_cast<int32_t>(r.shifts.size());
  const std::vector<int32_t> multipliers = saturated(r.multipliers), shifts = saturated(r.shifts),
                             bias = saturated(r.bias);
  const microaot_depthwise_channels channels = {bias.empty() ? nullptr : bias.data(), multipliers.data(),
                                                shifts.data()};
  return fit(&p, &channels) != 0;
}

}  // namespace

bool depthwise_dsp_requantization_fits(const DepthwiseRequantization& r) {
  return requantization_fits(r, microaot_fit_depthwise_dsp_requantization);
}

bool depthwise_dsp_left_shifts_fit(const DepthwiseRequantization& r) {
  return requantization_fits(r, microaot_fit_depthwise_dsp_requantization_left);
}

int32_t depthwise_multiplier_strip_tile(microaot_depthwise_conv_2d_params_q p, const DepthwiseRequantization& r) {
  const std::vector<int32_t> multipliers = saturated(r.multipliers), shifts = saturated(r.shifts),
                             bias = saturated(r.bias);
  const microaot_depthwise_channels ch = {bias.empty() ? nullptr : bias.data(), multipliers.data(), shifts.data()};
  return microaot_fit_depthwise_multiplier_strip_tile(&p, &ch);
}

std::string depthwise_multiplier_path(const microaot_depthwise_conv_2d_params_q& p, const DepthwiseRequantization& r) {
  const int32_t tile = depthwise_multiplier_strip_tile(p, r);
  const bool left = std::any_of(r.shifts.begin(), r.shifts.end(), [](int64_t shift) { return shift >= 0; });
  const std::string head = "depthwise multiplier " + std::to_string(p.depth_multiplier) + ": 4 channels per step";
  const std::string step = ", output step one SMMLAR per value";
  if (tile > 0) {
    std::string strip = head + ", the rows a window spans copied once per group (a pixel's word the group's input "
                        "bytes) with the input zero point as padding (every window takes all its taps), the taps' "
                        "weights widened once per group, two windows a pass" + step;
    if (tile < p.output_width) {
      strip += "; rows of " + std::to_string(p.output_width) + " > " + std::to_string(tile) + " pixels: in tiles";
    }
    return strip;
  }
  const std::string why = left ? "a channel's requantization shifts left, which the strip's output step does not take"
                          : p.input_offset < -127 ? "input offset -128, whose zero point would not pad as a byte"
                                                  : "the strip's stack holds a tile of fewer than 4 output columns of "
                                                    "this window";
  return head + " from at most 2 input bytes, each window's in-image taps" +
         (p.depth_multiplier % 4 == 0 ? " (whole rows of taps in pairs, one SMLAD each)" : "") + step +
         (left ? " after a left shift of the sum (a channel's shift is >= 0)" : "") + "; not the strip: " + why;
}

bool depthwise_dsp_ring_only(const ConvGeometry& g, int depth_multiplier) {
  const microaot_depthwise_conv_2d_params_q p = params_of(g, depth_multiplier);
  return microaot_fit_depthwise_ring(&p) && g.output_w <= kDepthwiseRingTileColumns && !patched(g, depth_multiplier);
}

std::string depthwise_dsp_path(const ConvGeometry& g, int depth_multiplier, bool requantization_fits) {
  const std::string step = ", output step one SMMLAR per value";
  if (depth_multiplier != 1 && depth_multiplier % 4 != 0) {
    return "depthwise: the portable kernel (depth multiplier neither 1 nor 4k, and fewer than 4 output channels or "
           "the requantization outside the DSP bounds of depthwise_conv_2d_s8_multiplier)";
  }
  if (!requantization_fits) {
    return "depthwise: the portable kernel (requantization outside the ring's and the DSP paths' bounds: a left "
           "shift, which only depthwise_conv_2d_s8_multiplier takes (depth multiplier >= 2, output depth >= 4, "
           "shifted sums within int32), |bias| > 2^29 or a rounding term >= 2^30)";
  }
  if (depth_multiplier % 4 == 0) return "depthwise: 4 output channels per step from one input byte" + step;
  if (g.filter_h != 3 || g.filter_w != 3 || g.dilation_h != 1 || g.dilation_w != 1) {
    const std::string in_image = "each window's in-image taps";
    const microaot_depthwise_conv_2d_params_q p = params_of(g, depth_multiplier);
    const int32_t tile = microaot_fit_depthwise_strip_tile(&p, 0);
    if (tile == 0) return "depthwise: 4 channels per step, " + in_image + step;
    std::string strip = "depthwise strip: 4 channels per step, the rows a window spans copied once per group with "
                        "the input zero point as padding (every window takes all its taps), the taps' weights "
                        "widened once per group, two windows a pass" + step;
    if (tile < g.output_w) {
      strip += "; rows of " + std::to_string(g.output_w) + " > " + std::to_string(tile) +
               " pixels: in tiles, and in place " + in_image;
    }
    return strip;
  }
  if (patched(g, depth_multiplier)) {
    return "depthwise 3x3 small-map patch: 4 channels per step, the padded map widened to 16 bits once (padding "
           "as 0), every window's nine taps unrolled, at stride 1 output rows in pairs" + step;
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
