#include "frontend/model_reader.h"

#include "support/diagnostics.h"

namespace microaot {

Graph read_model(const std::vector<uint8_t>& bytes, const CustomOpBindings& custom_ops, const OnnxReadOptions& onnx) {
  if (!looks_like_onnx(bytes)) {
    if (!onnx.input_shapes.empty()) throw UsageError("--input-shape is for ONNX models; a .tflite fixes its shapes");
    if (onnx.nhwc_io) throw UsageError("--io-layout nhwc is for ONNX models; a .tflite is NHWC already");
    return read_tflite(bytes, custom_ops);
  }
  if (!custom_ops.empty()) throw UsageError("--custom-op binds .tflite operators; this model is ONNX");
  return read_onnx(bytes, onnx);
}

ModelOutline outline_model(const std::vector<uint8_t>& bytes) {
  return looks_like_onnx(bytes) ? outline_onnx(bytes) : outline_tflite(bytes);
}

}  // namespace microaot
