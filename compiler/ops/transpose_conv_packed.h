// The packed DSP kernel of an int8 TRANSPOSE_CONV (runtime microaot/kernels/packed.h, transpose_conv_s8_packed and
// its _w16 and _raw forms): one convolution of unit stride per stride phase (microaot/fit/transpose_conv.h), whose
// weights (the phase's taps, reversed, as the rows of the packed product) and output step table (the bias with the
// input zero point times the phase's weights folded in, proven exact by packed_output_stage) are laid out here, phase
// after phase. The model's weights stay untouched.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/graph.h"
#include "kernels/kernel_call.h"
#include "microaot/kernels/transpose_conv.h"
#include "ops/packed_weights.h"
#include "target/target.h"

namespace microaot {

// Phase (ry, rx)'s weights: per output channel its window (phase taps row by row, then input channels) taken from
// the OHWI `filter`, zeros for a phase without taps.
std::vector<int8_t> transpose_conv_phase_weights(const microaot_transpose_conv_params_q& p,
                                                 const std::vector<int8_t>& filter, int32_t ry, int32_t rx);

// Every phase's packed words and output step table in `form`, as the kernel reads them; both empty when a phase's
// step is not exact (packed_output_stage) or, for the raw form, outside its bounds (raw_form_stage).
struct PackedPhases {
  std::vector<int32_t> words, table;
};
PackedPhases pack_transpose_conv(const microaot_transpose_conv_params_q& p, const std::vector<int8_t>& filter,
                                 const std::vector<int32_t>& bias, const PackedRequant& requant, PackedWeights form);

// The family's chooser (compile/choose_variants.h): the packed kernel in the target's weight form (the raw form
// where it is exact and pays), or why the layer keeps the portable kernel (call.specialisation).
void choose_packed_transpose_conv(const Graph& graph, const Target& target, KernelCall& call);

}  // namespace microaot
