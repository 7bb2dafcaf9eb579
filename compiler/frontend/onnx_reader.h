// The ONNX frontend: parses a ModelProto with the protobuf classes of Debian's libonnx-dev and converts its
// main graph (domain ai.onnx, opsets 1 to 21) into the same IR as the .tflite frontend. ONNX's NCHW layout
// becomes the kernels' NHWC at compile time (docs/onnx.md). Everything in the file is untrusted; every
// problem is a CompileError naming the node (its name, op_type and opset version) or the tensor.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "frontend/tflite_reader.h"
#include "ir/graph.h"

namespace microaot {

struct OnnxReadOptions {
  // Fixes a graph input's shape (its symbolic or any dimension), as --input-shape NAME=1x3x96x96.
  std::map<std::string, std::vector<int32_t>> input_shapes;
  // --io-layout nhwc: every rank-4 graph input and output in NHWC (the kernels' layout: no TRANSPOSE at the
  // boundary unless the model reads or computes that value in NCHW); false: the model's own NCHW.
  bool nhwc_io = false;
};

// Reads an ONNX model from its bytes. Throws CompileError on a malformed model, an operator or operator
// version microaot has not implemented (all of them listed in one error), external data or a symbolic shape.
Graph read_onnx(const std::vector<uint8_t>& bytes, const OnnxReadOptions& options = {});

// Whether the bytes are an ONNX model rather than a .tflite: no 'TFL3' identifier at offset 4, and they
// start as every ModelProto writer starts (field 1, ir_version 3 or later, a varint).
bool looks_like_onnx(const std::vector<uint8_t>& bytes);

// A serialized TensorProto (an ONNX test's input_0.pb) as IR bytes; `dtype` receives its element type.
std::vector<uint8_t> read_onnx_tensor(const std::vector<uint8_t>& bytes, DType& dtype);

// The nodes as `inspect` lists them (ModelOutline, frontend/tflite_reader.h): op_type, the operator version
// the opset selects, whether microaot implements it; tensors are the graph's named values.
ModelOutline outline_onnx(const std::vector<uint8_t>& bytes);

}  // namespace microaot
