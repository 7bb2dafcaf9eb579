#include "quantize/float_model.h"

#include <filesystem>

#include "frontend/tflite_reader.h"
#include "support/diagnostics.h"

namespace microaot {

Graph read_float_model(const std::string& path) {
  const std::string ext = std::filesystem::path(path).extension().string();
  if (ext == ".tflite") return read_tflite_file(path);
  throw CompileError("model '" + path + "': microaot quantize reads .tflite models (ONNX will follow with the ONNX "
                     "frontend); '" + ext + "' is not one");
}

}  // namespace microaot
