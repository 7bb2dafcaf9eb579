// The one place that picks a frontend by the model's content: .tflite ('TFL3' at offset 4) or ONNX.
#pragma once

#include <cstdint>
#include <vector>

#include "frontend/onnx_reader.h"
#include "frontend/tflite_reader.h"

namespace microaot {

// The model's IR from its bytes, by the frontend its content calls for. --custom-op binds .tflite
// operators only: with an ONNX model it is refused.
// The ONNX options (--input-shape, --io-layout nhwc) are refused with a .tflite.
Graph read_model(const std::vector<uint8_t>& bytes, const CustomOpBindings& custom_ops = {},
                 const OnnxReadOptions& onnx = {});

// What `inspect` shows: the .tflite outline, or the ONNX nodes (op_type, operator version, compilable).
ModelOutline outline_model(const std::vector<uint8_t>& bytes);

}  // namespace microaot
