#include "quantize/float_model.h"

#include <filesystem>
#include <fstream>
#include <iterator>

#include "frontend/model_reader.h"
#include "frontend/tflite_reader.h"
#include "support/diagnostics.h"

namespace microaot {

Graph read_float_model(const std::string& path) {
  const std::string ext = std::filesystem::path(path).extension().string();
  if (ext == ".tflite") return read_tflite_file(path);
  if (ext != ".onnx") {
    throw CompileError("model '" + path + "': microaot quantize reads .tflite and .onnx models; '" + ext +
                       "' is neither");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw CompileError("cannot read '" + path + "'");
  const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return read_model(bytes);  // the ONNX frontend's IR (NHWC), written as a .tflite from here on
}

}  // namespace microaot
