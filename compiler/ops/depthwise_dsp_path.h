// Which path of the DSP int8 DEPTHWISE_CONV_2D kernel (runtime/kernels/dsp/depthwise_conv_2d_s8.c) a layer
// takes, for network_info.txt's specialisation lines. The bounds here are the kernel's: change both together.
#pragma once

#include <string>

#include "ops/conv_common.h"

namespace microaot {

// The widened ring's tile (DW_RING_COLS - 2 output columns): the overlap variant takes the ring only when a
// whole row fits in one tile. The ring's smallest row (dw_ringed): on smaller maps clipped windows cost less.
constexpr int kDepthwiseRingTileColumns = 12;
constexpr int kDepthwiseRingMinColumns = 3;

// The path for geometry `g` and `depth_multiplier`, in words. The requantization must also lie within the
// fast path's bounds (right shifts, |bias| <= 2^29: microaot_dsp_depthwise_fits), else the layer takes the
// portable code.
std::string depthwise_dsp_path(const ConvGeometry& g, int depth_multiplier);

// Whether the kernel's ring alone computes every channel of the layer, in both variants (whole groups of 4
// channels, a row in one tile): then the layer may call depthwise_conv_2d_s8_ring, the ring in a source of its
// own, and a model whose depthwise layers all do links none of the kernel's other paths.
bool depthwise_dsp_ring_only(const ConvGeometry& g, int depth_multiplier);

}  // namespace microaot
