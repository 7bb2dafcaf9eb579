// Lowering shared by the operators that lay tensors side by side along one axis (CONCATENATION, PACK) and
// their mirrors that cut one tensor into pieces (SPLIT, SPLIT_V, UNPACK): both are copies of byte ranges, per
// outer index one range per piece (runtime/include/microaot/kernels/concatenation.h and split.h).
#pragma once

#include <cstddef>
#include <vector>

#include "ir/graph.h"
#include "kernels/kernel_call.h"

namespace microaot {

// The call of the concatenation kernel: every input of `op` placed at `axis` of output 0 (for PACK, the
// inputs lack that axis and each fills one position of it).
KernelCall concatenation_call(const Graph& graph, const Op& op, size_t axis);

// The call of the split kernel: input `input_index` of `op` cut along `axis` into the op's outputs in order
// (for UNPACK, the outputs lack that axis and each takes one position of it).
KernelCall split_call(const Graph& graph, const Op& op, int input_index, size_t axis);

// Refuses pieces (PACK's inputs, UNPACK's outputs) other than the stacked tensor's slices at `axis`: the
// stacked tensor's dimension `axis` counts the pieces and each piece has the other dimensions, in order.
void expect_stacked(const Graph& graph, const Op& op, int stacked_id, const std::vector<int>& pieces, size_t axis);

// Refuses an output whose type is not input `input_index`'s, naming both.
void expect_outputs_typed_as_input(const Graph& graph, const Op& op, int input_index);

}  // namespace microaot
