// In-place options the op handlers offer (OpHandler::in_place), built from the bounds of in_place_bounds.h.
// Options are geometric only: whether the input really dies at the op (not a constant, not a graph
// output, no later reader) is the memory planner's business.
#pragma once

#include "ir/graph.h"
#include "ops/op_handler.h"

namespace microaot {

// The option of a row-wise NHWC op (input 0 -> output 0, same batches) whose output row y reads input rows
// from max(0, y * stride_h - pad_h) on: the kernel's overlap variant with one output row of scratch
// (output width * channels * element size).
InPlaceOption row_wise_option(const Graph& graph, const Op& op, int stride_h, int pad_h);

// The option of an element-wise op whose normal kernel reads element i of op.inputs[input] before it stores
// element i of op.outputs[output], in index order; the two tensors must have the same element count (the
// input is not broadcast). The plain kernel is called, no scratch.
InPlaceOption element_wise_option(const Graph& graph, const Op& op, int input, int output);

}  // namespace microaot
