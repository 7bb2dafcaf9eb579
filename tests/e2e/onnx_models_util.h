// The real-model ONNX tests' models and oracle: tests/onnx/make_models.py writes the models (PyTorch-style
// exports with fixed seeds, and ONNX twins of float .tflite models of ../shared made from their weights),
// tests/onnx/ort_run.js runs each with onnxruntime (npm onnxruntime-node, installed by scripts/setup.sh).
// Done once per test process into a temporary folder.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace microaot::e2e {

// The models make_models.py writes; the twins (".tflite" twins of ../shared/models/NAME) are written only
// when ../shared is there.
const std::vector<std::string>& onnx_real_model_names();
bool is_tflite_twin(const std::string& name);
std::string tflite_twin_path(const std::string& name);  // ../shared/models/NAME/model.tflite

struct OnnxModels {
  std::string unavailable;  // the tool that is missing ("" when all are there)
  std::string error;        // why make_models.py or onnxruntime failed ("" when they did not)
  std::string dir;          // NAME.onnx, NAME.input0.bin, NAME.ort/output0.bin
  std::map<std::string, std::vector<int64_t>> input_shape;  // of each model written
  std::string model(const std::string& name) const { return dir + "/" + name + ".onnx"; }
  std::string input(const std::string& name) const { return dir + "/" + name + ".input0.bin"; }
  std::string oracle(const std::string& name) const { return dir + "/" + name + ".ort/output0.bin"; }
};
const OnnxModels& onnx_real_models();

// The largest |got - want| over two raw float32 tensors (infinity when their sizes differ).
double max_abs_difference(const std::vector<uint8_t>& got, const std::vector<uint8_t>& want);

}  // namespace microaot::e2e

// Skips (or, in CI, fails) when python3-onnx, node or onnxruntime-node is missing (scripts/setup.sh installs them).
#define MICROAOT_REQUIRE_ONNX_MODELS()                                                            \
  do {                                                                                            \
    const std::string& why = ::microaot::e2e::onnx_real_models().unavailable;                     \
    if (!why.empty()) {                                                                           \
      if (::microaot::e2e::in_ci()) FAIL() << "CI is set but " << why;                            \
      GTEST_SKIP() << why << " (scripts/setup.sh installs it)";                                   \
    }                                                                                             \
    ASSERT_EQ(::microaot::e2e::onnx_real_models().error, "");                                     \
  } while (0)
