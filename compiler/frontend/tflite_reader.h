// The .tflite frontend: verifies a TensorFlow Lite flatbuffer and converts its main subgraph into the IR.
// Everything in the file is treated as untrusted; every problem is a CompileError naming the operator
// index, opcode and tensor involved.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/graph.h"

namespace microaot {

// Reads a model from its bytes. IR tensor ids are the subgraph's tensor indices and ops keep the
// subgraph's order (Tensor::source_index, Op::source_index). Throws CompileError on a malformed model,
// on unsupported operators (all of them listed in one error) and on unsupported tensors.
Graph read_tflite(const std::vector<uint8_t>& bytes);

// Reads the file at `path` and then the model, as read_tflite.
Graph read_tflite_file(const std::string& path);

}  // namespace microaot
