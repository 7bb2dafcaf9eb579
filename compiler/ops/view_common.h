// Checks shared by the view operators (RESHAPE, SQUEEZE): the output is the input's bytes under another
// shape, so the passes turn the op into an alias of the input's storage and no kernel runs.
#pragma once

#include "ir/graph.h"
#include "ops/op_handler.h"

namespace microaot {

// Same dtype, known dimensions, equal element counts. Like TFLM, the output tensor's stored shape is
// authoritative; shape inputs and options are not consulted.
void check_view(const Graph& graph, const Op& op);

}  // namespace microaot
