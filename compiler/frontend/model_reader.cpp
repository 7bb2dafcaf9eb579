#include "frontend/model_reader.h"

#include "support/diagnostics.h"

namespace microaot {

Graph read_model(const std::vector<uint8_t>& bytes, const CustomOpBindings& custom_ops,
                 const std::map<std::string, std::vector<int32_t>>& input_shapes) {
  if (!looks_like_onnx(bytes)) {
    if (!input_shapes.empty()) throw UsageError("--input-shape is for ONNX models; a .tflite fixes its shapes");
    return read_tflite(bytes, custom_ops);
  }
  if (!custom_ops.empty()) throw UsageError("--custom-op binds .tflite operators; this model is ONNX");
  OnnxReadOptions options;
  options.input_shapes = input_shapes;
  return read_onnx(bytes, options);
}

ModelOutline outline_model(const std::vector<uint8_t>& bytes) {
  return looks_like_onnx(bytes) ? outline_onnx(bytes) : outline_tflite(bytes);
}

}  // namespace microaot
