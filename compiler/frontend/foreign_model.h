// A file given as the model that is not a .tflite: what it looks like (ONNX, Keras, SavedModel, PyTorch, a
// Git LFS pointer) and what to do about it, so that the error says more than "not a .tflite model".
// The one place that recognises other formats: a frontend for one of them dispatches here instead.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace microaot {

// "an ONNX model (protobuf): ONNX is not supported by this build; ..." or "" when the bytes look like
// none of the formats known here.
std::string describe_foreign_model(const std::vector<uint8_t>& bytes);

// The same for a folder given as the model (a TensorFlow SavedModel), "" for any other folder.
std::string describe_foreign_folder(const std::string& path);

}  // namespace microaot
