// Compile-time specialisation of the int8 matrix products for Helium (MVE): an ungrouped CONV_2D (1x1 or k x k)
// and a FULLY_CONNECTED with symmetric weights, on a target whose kernels use MVE, take the folded-bias kernels
// (runtime microaot/kernels/mve_folded.h) over the model's own weights, whose rows (each output channel's
// window or input row contiguous) are already the layout of the 16-lane loop, and a derived constant: the bias
// with the input zero point's products folded in, so that no pass over the weights runs per call. The block of
// the kernels' loop for the layer is stated in call.specialisation (network_info.txt).
#pragma once

#include <cstdint>
#include <string>

#include "ir/graph.h"
#include "kernels/kernel_call.h"

namespace microaot {

// The block of the Helium rows for a layer: a FULLY_CONNECTED, or a CONV_2D of one output pixel (`pixels`), one
// row against four units per step (no weight sums in the loop); other CONV_2D layers two pixels against two
// channels (each weight load shared by two pixels: with four accumulators of the eight vector registers' loop).
std::string mve_blocking(int64_t pixels, bool conv);

// Turns `call` (the generic stem: weights in args[1], optional bias in args[2], input_offset set) into a call of
// `mve_stem` over the weights and the folded bias (units rows of `depth` weights), when `fits` (the layer's
// shape, microaot/fit/mve_matmul.h) and every channel's shift is within the vector output step; else leaves it
// on the generic stem and says why in call.specialisation.
void use_mve_folded_bias(const Graph& graph, KernelCall& call, const std::string& mve_stem, int32_t units,
                         int32_t depth, bool fits, const std::string& blocking);

}  // namespace microaot
