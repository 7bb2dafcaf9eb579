// Which path of the DSP int8 DEPTHWISE_CONV_2D kernel (runtime/kernels/dsp/depthwise_conv_2d_s8.c) a layer
// takes, for network_info.txt's specialisation lines, and whether it may call the ring's own kernel. The
// requantization's bounds are the kernels' own (runtime/include/microaot/fit/depthwise_conv_2d.h); the
// geometry's follow the kernel's paths.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "microaot/fit/depthwise_conv_2d.h"
#include "ops/conv_common.h"

namespace microaot {

// The widened ring's tile and smallest row: the kernels' own (runtime/include/microaot/fit/depthwise_conv_2d.h).
// The overlap variant takes the ring only when a whole row fits in one tile.
constexpr int kDepthwiseRingTileColumns = MICROAOT_DEPTHWISE_RING_TILE_WIDTH;
constexpr int kDepthwiseRingMinColumns = MICROAOT_DEPTHWISE_RING_MIN_WIDTH;

// A layer's requantization as the kernel receives it: the params' offsets, window and per-channel
// multipliers and shifts, and the bias tensor's values (empty without a bias).
struct DepthwiseRequantization {
  int64_t input_offset = 0, output_offset = 0;
  int64_t filter_taps = 0, depth_multiplier = 1;
  std::vector<int64_t> multipliers, shifts, bias;
};

// Whether the requantization lies within the DSP kernels' bounds (right shifts, multipliers >= 0, offsets
// within [-128, 128], |bias| <= 2^29, a rounding term below 2^30): microaot_fit_depthwise_dsp_requantization
// (runtime/include/microaot/fit/depthwise_conv_2d.h), the rule the runtime's guards call too. Outside them the
// full kernel takes the portable code and the specialised kernels refuse the layer.
bool depthwise_dsp_requantization_fits(const DepthwiseRequantization& r);

// Whether depthwise_conv_2d_s8_multiplier takes the requantization: the bounds above or, per channel, a left shift
// whose shifted sums stay in int32 (microaot_fit_depthwise_dsp_requantization_left).
bool depthwise_dsp_left_shifts_fit(const DepthwiseRequantization& r);

// The path for geometry `g` and `depth_multiplier`, in words; a requantization that does not fit
// (depthwise_dsp_requantization_fits) takes the portable code whatever the geometry.
std::string depthwise_dsp_path(const ConvGeometry& g, int depth_multiplier, bool requantization_fits);

// A depth-multiplier layer's strip tile (microaot_fit_depthwise_multiplier_strip_tile: `p` its params, the
// per-channel arrays from `r`); 0: depthwise_conv_2d_s8_multiplier's in-image taps.
int32_t depthwise_multiplier_strip_tile(microaot_depthwise_conv_2d_params_q p, const DepthwiseRequantization& r);

// Its path for network_info.txt: the strip, or each window's in-image taps and why.
std::string depthwise_multiplier_path(const microaot_depthwise_conv_2d_params_q& p, const DepthwiseRequantization& r);

// Whether the kernel's ring alone computes every channel of the layer, in both variants (whole groups of 4
// channels, a row in one tile): then a layer whose requantization also fits may call
// depthwise_conv_2d_s8_ring, the ring in a source of its own, and a model whose depthwise layers all do links
// none of the kernel's other paths.
bool depthwise_dsp_ring_only(const ConvGeometry& g, int depth_multiplier);

}  // namespace microaot
