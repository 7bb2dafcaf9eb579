// What the reductions share (MEAN, SUM, REDUCE_MAX, REDUCE_MIN, ARG_MAX, ARG_MIN; CUMSUM reads its axis the
// same way): the axis input, a constant read at compile time since an AOT plan needs the dimensions it
// reduces, and the two walks of runtime/include/microaot/kernels/reduce.h (kept and reduced dimensions).
#pragma once

#include <cstdint>
#include <vector>

#include "ir/graph.h"
#include "kernels/kernel_call.h"

namespace microaot {

// The values of the op's axis input `index`: a constant int32 tensor with all its data. Refuses a
// non-constant axis (with the reason) and other types, naming the op and the tensor.
std::vector<int32_t> constant_axis_values(const Graph& graph, const Op& op, int index);

// axis in [-rank, rank), negative counting from the end, as a dimension index; refuses the rest.
int resolve_axis(const Graph& graph, const Op& op, int32_t axis, int rank);

// Per dimension of a rank-`rank` input: whether one of `axes` (resolved, duplicates allowed) names it.
std::vector<bool> reduced_dimensions(const Graph& graph, const Op& op, const std::vector<int32_t>& axes, int rank);

// A row-major walk over some of the input's dimensions with their element strides.
struct Walk {
  std::vector<int64_t> shape, strides;
};

// The kept and the reduced dimensions of an input, each in input order with size-1 dimensions dropped and
// neighbours merged; an empty walk is [1] with stride 0. group_size: elements per output element.
struct ReducePlan {
  Walk kept, reduced;
  int64_t group_size = 1;
};
ReducePlan plan_reduce(const std::vector<int32_t>& shape, const std::vector<bool>& reduced);

// plan_reduce of input 0 after checking what the kernels rely on: known, non-zero input dimensions, walks
// within the runtime's MICROAOT_WALK_MAX_DIMS and an output of one element per group (the layout is the same
// with keep_dims or without). Throws naming the op.
ReducePlan checked_reduce_plan(const Graph& graph, const Op& op, const std::vector<bool>& reduced);

// The MICROAOT_REDUCE_WALK_FIELDS of the call.
void set_reduce_walk_params(KernelCall& call, const ReducePlan& plan);

}  // namespace microaot
