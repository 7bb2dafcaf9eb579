// Writes a graph as a .tflite flatbuffer (TFLite's schema, version 3): one subgraph, the tensors in id
// order (so tensor i of the file is tensor i of the graph), the operators in graph order, each constant
// in a buffer of its own. Only the operators microaot quantize produces (quantizable_ops.def, QUANTIZE,
// DEQUANTIZE) have their options written; another throws CompileError naming it.
#pragma once

#include <cstdint>
#include <vector>

#include "ir/graph.h"

namespace microaot {

std::vector<uint8_t> write_tflite(const Graph& graph);

}  // namespace microaot
