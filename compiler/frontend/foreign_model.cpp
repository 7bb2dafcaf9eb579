#include "frontend/foreign_model.h"

#include <algorithm>
#include <cstring>
#include <filesystem>

namespace microaot {

namespace {
constexpr const char* kConvert =
    " Convert it to an int8 .tflite with the TensorFlow Lite converter (tf.lite.TFLiteConverter with a "
    "representative dataset), then compile that.";

bool starts_with(const std::vector<uint8_t>& bytes, const char* magic, size_t size) {
  return bytes.size() >= size && std::memcmp(bytes.data(), magic, size) == 0;
}

// True when `name` occurs in the first 64 KiB (a zip archive's first entry names).
bool mentions(const std::vector<uint8_t>& bytes, const std::string& name) {
  const size_t end = std::min<size_t>(bytes.size(), 64 * 1024);
  return std::search(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(end), name.begin(), name.end()) !=
         bytes.begin() + static_cast<std::ptrdiff_t>(end);
}

// A protobuf message starting with field 1 as a small varint, then a length-delimited field: an ONNX
// ModelProto (ir_version, then producer_name/graph/opset_import) or a SavedModel (schema version 1, then
// meta_graphs).
bool is_varint_header(const std::vector<uint8_t>& bytes) {
  return bytes.size() > 3 && bytes[0] == 0x08 && bytes[1] >= 1 && bytes[1] < 0x80 && (bytes[2] & 0x07) == 2;
}

std::string describe_zip(const std::vector<uint8_t>& bytes) {
  if (mentions(bytes, "data.pkl")) {
    return "a PyTorch archive (.pt/.pth, a zip holding data.pkl): export it to TensorFlow Lite (e.g. with "
           "ai-edge-torch, or to ONNX and then to TFLite), quantized to int8, and compile the .tflite.";
  }
  if (mentions(bytes, "config.json") || mentions(bytes, "model.weights.h5")) {
    return std::string("a Keras 3 model (.keras, a zip holding config.json).") + kConvert;
  }
  return "a zip archive: unpack it and give the .tflite inside.";
}
}  // namespace

std::string describe_foreign_model(const std::vector<uint8_t>& bytes) {
  if (starts_with(bytes, "version https://git-lfs", 23)) {
    return "a Git LFS pointer, not the model itself: run `git lfs pull` in its repository, then compile again.";
  }
  if (starts_with(bytes, "\x89HDF\r\n\x1a\n", 8)) return std::string("a Keras HDF5 model (.h5).") + kConvert;
  if (starts_with(bytes, "PK\x03\x04", 4)) return describe_zip(bytes);
  if (bytes.size() > 2 && bytes[0] == 0x80 && bytes[1] >= 2 && bytes[1] <= 5) {
    return "a Python pickle (an older PyTorch .pt/.pth): export the model to TensorFlow Lite, quantized to int8, "
           "and compile the .tflite.";
  }
  if (is_varint_header(bytes) && bytes[1] == 1) {  // ONNX files carry ir_version 3 or later
    return std::string("a TensorFlow SavedModel's saved_model.pb.") + kConvert +
           " (TFLiteConverter.from_saved_model takes the folder.)";
  }
  if (is_varint_header(bytes) && bytes[1] == 2) {
    return "an ONNX model of ir_version 2, older than the ONNX frontend reads (3 and later): export it again with "
           "a current exporter (opset 7 or later).";
  }
  if (is_varint_header(bytes)) {  // read_model gives these to the ONNX frontend (frontend/model_reader.h)
    return "an ONNX model (protobuf): give it to microaot as it is; the ONNX frontend reads it (docs/onnx.md).";
  }
  return "";
}

std::string describe_foreign_folder(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(std::filesystem::path(path) / "saved_model.pb", ec)) return "";
  return std::string("a TensorFlow SavedModel folder.") + kConvert + " (TFLiteConverter.from_saved_model takes "
         "this folder.)";
}

}  // namespace microaot
