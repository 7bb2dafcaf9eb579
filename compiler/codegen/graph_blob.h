// The graph executor's model blob (--executor graph): the compiled model as data for the interpreter in
// runtime/executor/graph_*.c, in the layout runtime/include/microaot/graph.h defines.
#pragma once

#include <cstdint>
#include <vector>

#include "compile/compile_model.h"

namespace microaot {

struct GraphBlob {
  std::vector<uint8_t> bytes;
  int64_t constants_bytes = 0;    // the weights and biases (and their alignment padding)
  int64_t description_bytes = 0;  // everything else: header, tables, parameter records
};

// The element type code of graph.h (MICROAOT_DTYPE_*) for a tensor type.
uint32_t graph_dtype_code(DType type);

// Throws CompileError naming the operator when a step takes more arguments than the interpreter passes.
GraphBlob build_graph_blob(const CompiledModel& model);

}  // namespace microaot
