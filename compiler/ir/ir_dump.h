// Text form of the IR for --dump-ir-after and for debugging: one line per tensor that is alive and per op.
#pragma once

#include <string>

#include "ir/graph.h"

namespace microaot {

std::string dump_ir(const Graph& graph);
std::string format_shape(const std::vector<int32_t>& shape);  // "[1, 96, 96, 3]"

}  // namespace microaot
