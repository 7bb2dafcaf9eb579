// Real ONNX models on the host (ctest label onnx): each model of tests/onnx/make_models.py (PyTorch-style
// CNN, depthwise-separable CNN, MLP autoencoder, an unrolled GRU, and ONNX twins of ../shared's float
// .tflite models) is compiled and run with the prebuilt runtime, and its output compared with onnxruntime's
// (ir/tensor_compare.h's float tolerance, the goldens' one). The Cortex-M4 side is onnx_models_qemu_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iostream>

#include "e2e_util.h"
#include "onnx_models_util.h"

namespace microaot::e2e {
namespace {

class OnnxRealModels : public ::testing::TestWithParam<std::string> {};

TEST_P(OnnxRealModels, HostMatchesOnnxruntime) {
  const std::string& name = GetParam();
  if (is_tflite_twin(name)) MICROAOT_REQUIRE_SHARED();
  MICROAOT_REQUIRE_ONNX_MODELS();
  const OnnxModels& models = onnx_real_models();
  const std::string out = make_temp_dir();
  ASSERT_EQ(run_microaot({"run", models.model(name), "--runtime-lib", runtime_lib(), "--input", models.input(name),
                          "--output-dir", out + "/run"}),
            0)
      << name;
  const std::vector<uint8_t> got = read_file(out + "/run/output0.bin"), want = read_file(models.oracle(name));
  EXPECT_EQ(compare_tensor("float32", got, want), "") << name << " on the host against onnxruntime";
  std::cout << name << ": max |host - onnxruntime| = " << max_abs_difference(got, want) << "\n";
  remove_dir(out);
}

// "total: 5 ops, 22560 MACs, ..." (inspect) or "total MACs:          22560" (network_info.txt): the number.
int64_t total_macs_in(const std::string& text, const std::string& marker) {
  const size_t at = text.find(marker);
  if (at == std::string::npos) return -1;
  size_t digits = text.find_first_of("0123456789", at + marker.size());
  return std::stoll(text.substr(digits));
}

// `inspect` counts an ONNX node's MACs over the IR ops made from it (an LSTM unrolls into many, a
// BatchNormalization folds into its Conv), so the model's total is the compiled model's.
TEST_P(OnnxRealModels, InspectCountsTheCompiledMacs) {
  const std::string& name = GetParam();
  if (is_tflite_twin(name)) MICROAOT_REQUIRE_SHARED();
  MICROAOT_REQUIRE_ONNX_MODELS();
  const std::string out = make_temp_dir();
  std::string errors, listing;
  ASSERT_EQ(run_microaot_capture({"inspect", onnx_real_models().model(name)}, errors, &listing), 0) << errors;
  ASSERT_EQ(run_microaot({"compile", onnx_real_models().model(name), "-o", out + "/c"}), 0) << name;
  const int64_t compiled = total_macs_in(read_text(out + "/c/network_info.txt"), "total MACs:");
  const size_t total = listing.find("\ntotal: ");
  ASSERT_NE(total, std::string::npos) << listing;
  EXPECT_GT(compiled, 0) << name;
  EXPECT_EQ(total_macs_in(listing.substr(total), " ops, "), compiled) << listing;
  remove_dir(out);
}

// --io-layout nhwc: the CNN takes its image as NHWC (the NCHW input transposed here), with no TRANSPOSE left in
// its schedule, network_info.txt says so, and its output is still onnxruntime's.
TEST(OnnxRealModelsLayout, NhwcIoTakesTheCnnsImageWithoutATranspose) {
  MICROAOT_REQUIRE_ONNX_MODELS();
  const OnnxModels& models = onnx_real_models();
  const std::vector<int64_t>& s = models.input_shape.at("cnn_f32");  // N, C, H, W
  ASSERT_EQ(s.size(), 4u);
  const std::vector<uint8_t> nchw = read_file(models.input("cnn_f32"));
  std::vector<uint8_t> nhwc(nchw.size());
  const int64_t c_n = s[1], h_n = s[2], w_n = s[3];
  for (int64_t c = 0; c < c_n; ++c) {
    for (int64_t h = 0; h < h_n; ++h) {
      for (int64_t w = 0; w < w_n; ++w) {
        const auto from = static_cast<size_t>(((c * h_n + h) * w_n + w) * 4), to = static_cast<size_t>(((h * w_n + w) * c_n + c) * 4);
        std::copy(nchw.begin() + static_cast<std::ptrdiff_t>(from), nchw.begin() + static_cast<std::ptrdiff_t>(from + 4),
                  nhwc.begin() + static_cast<std::ptrdiff_t>(to));
      }
    }
  }
  const std::string out = make_temp_dir();
  std::ofstream(out + "/nhwc.bin", std::ios::binary).write(reinterpret_cast<const char*>(nhwc.data()),
                                                          static_cast<std::streamsize>(nhwc.size()));
  ASSERT_EQ(run_microaot({"compile", models.model("cnn_f32"), "--io-layout", "nhwc", "-o", out + "/c"}), 0);
  const std::string info = read_text(out + "/c/network_info.txt");
  EXPECT_EQ(info.find("TRANSPOSE "), std::string::npos) << info;
  EXPECT_NE(info.find("input 'input' NHWC (--io-layout nhwc)"), std::string::npos) << info;
  ASSERT_EQ(run_microaot({"run", models.model("cnn_f32"), "--io-layout", "nhwc", "--runtime-lib", runtime_lib(),
                          "--input", out + "/nhwc.bin", "--output-dir", out + "/run"}),
            0);
  EXPECT_EQ(compare_tensor("float32", read_file(out + "/run/output0.bin"), read_file(models.oracle("cnn_f32"))), "");
  remove_dir(out);
}

INSTANTIATE_TEST_SUITE_P(Models, OnnxRealModels, ::testing::ValuesIn(onnx_real_model_names()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace microaot::e2e
