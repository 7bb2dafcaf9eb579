// The .tflite frontend: verifies a TensorFlow Lite flatbuffer and converts its main subgraph into the IR.
// Everything in the file is treated as untrusted; every problem is a CompileError naming the operator
// index, opcode and tensor involved.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/custom_op.h"
#include "ir/graph.h"

namespace microaot {

// Reads a model from its bytes. IR tensor ids are the subgraph's tensor indices and ops keep the
// subgraph's order (Tensor::source_index, Op::source_index). Throws CompileError on a malformed model,
// on unsupported operators (all of them listed in one error) and on unsupported tensors.
// Operators named by `custom_ops` become OpKind::Custom ops (ir/custom_op.h); a binding no operator
// uses is refused.
Graph read_tflite(const std::vector<uint8_t>& bytes, const CustomOpBindings& custom_ops = {});

// Reads the file at `path` and then the model, as read_tflite.
Graph read_tflite_file(const std::string& path);

// What `inspect` shows of any model the flatbuffer checks accept (tflite_verify.cpp, tflite_limits.cpp),
// including models microaot cannot compile: operators by name, code and version, tensors by the format's
// type name. Nothing beyond the structure is checked. Throws CompileError only for a malformed file.
struct ModelOutline {
  struct Operator {
    std::string name;  // "CONV_2D", "custom operator 'Foo'", "unknown builtin operator"
    int code = 0;      // the builtin code
    int version = 1;
    bool compilable = false;  // microaot has this operator (its checks may still refuse the use)
    std::vector<int> inputs;  // tensor indices as stored (-1: absent optional input)
    std::vector<int> outputs;
  };
  struct Tensor {
    std::string name;
    std::string type;  // the format's name in lower case: "int8", "float32", "int16", "complex64", ...
    std::vector<int32_t> shape;
    uint64_t constant_bytes = 0;  // bytes of its buffer, 0 for none
    Quantization quant;
  };
  std::string description;
  std::vector<int> inputs;
  std::vector<int> outputs;
  std::vector<Operator> ops;
  std::vector<Tensor> tensors;
};
ModelOutline outline_tflite(const std::vector<uint8_t>& bytes);

}  // namespace microaot
