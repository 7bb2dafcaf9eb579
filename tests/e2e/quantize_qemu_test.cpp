// `microaot quantize`'s int8 and 16x8 models on the emulated Cortex-M4 (label qemu): the generic and the DSP
// (CMSIS-NN style) builds give the host build's outputs byte for byte on held-out vectors 4-7.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>

#include "e2e_util.h"
#include "frontend/tflite_reader.h"

namespace microaot::e2e {
namespace {

struct QemuCase {
  std::string model;
  std::string activations;
  std::vector<std::string> extra = {};
};

class QuantizeQemuTest : public ::testing::TestWithParam<QemuCase> {
 protected:
  void SetUp() override { tmp_ = make_temp_dir(); }
  void TearDown() override { remove_dir(tmp_); }
  std::string vector_file(int k) const {
    return shared_dir() + "/models/" + GetParam().model + "_f32/vectors/" + std::to_string(k) + ".input0.bin";
  }
  // The outputs of vectors 4-7 (inputs quantized with the model's input parameters) on `target`.
  std::string outputs(const std::string& model, const std::string& target) {
    const Graph g = read_tflite_file(model);
    const Tensor& in = g.tensor(g.inputs[0]);
    const float scale = in.quant.scale.at(0);
    const float zero_point = static_cast<float>(in.quant.zero_point.at(0));
    const std::string dir = tmp_ + "/" + std::to_string(runs_++);
    std::vector<std::string> args = {"run", model, "--target", target, "--batch", "--output-dir", dir};
    for (int k = 4; k < 8; ++k) {
      const std::vector<uint8_t> bytes = read_file(vector_file(k));
      std::vector<float> v(bytes.size() / 4);
      std::memcpy(v.data(), bytes.data(), bytes.size());
      const bool wide = in.dtype == DType::kInt16;
      std::vector<int16_t> q;
      for (float x : v) {
        q.push_back(static_cast<int16_t>(std::clamp(std::round(x / scale) + zero_point, wide ? -32768.0f : -128.0f,
                                                    wide ? 32767.0f : 127.0f)));
      }
      std::vector<int8_t> narrow(q.begin(), q.end());
      const std::string path = tmp_ + "/in" + std::to_string(k) + ".bin";
      std::ofstream(path, std::ios::binary)
          .write(wide ? reinterpret_cast<const char*>(q.data()) : reinterpret_cast<const char*>(narrow.data()),
                 static_cast<std::streamsize>(q.size() * (wide ? 2 : 1)));
      args.insert(args.end(), {"--input", path});
    }
    std::string errors;
    EXPECT_EQ(run_microaot_capture(args, errors), 0) << target << ": " << errors;
    std::string all;
    for (int k = 0; k < 4; ++k) all += read_text(dir + "/" + std::to_string(k) + "/output0.bin");
    return all;
  }
  std::string tmp_;
  int runs_ = 0;
};

TEST_P(QuantizeQemuTest, CortexM4BuildsMatchTheHost) {
  MICROAOT_REQUIRE_QEMU();
  const std::string model = tmp_ + "/q.tflite";
  std::vector<std::string> args = {"quantize", shared_dir() + "/models/" + GetParam().model + "_f32/model.tflite",
                                   "-o", model, "--activations", GetParam().activations};
  args.insert(args.end(), GetParam().extra.begin(), GetParam().extra.end());
  args.push_back("--calibration");
  for (int k = 0; k < 4; ++k) args.push_back(vector_file(k));
  std::string errors;
  ASSERT_EQ(run_microaot_capture(args, errors), 0) << errors;
  const std::string host = outputs(model, "host");
  EXPECT_EQ(outputs(model, "cortex-m4"), host);
  EXPECT_EQ(outputs(model, "cmsis-nn, c -mcpu=cortex-m4"), host);
}

INSTANTIATE_TEST_SUITE_P(SharedFloatModels, QuantizeQemuTest,
                         ::testing::Values(QemuCase{"hello_world", "int8"}, QemuCase{"ad_autoencoder", "int8"},
                                           QemuCase{"hello_world", "int16"}, QemuCase{"ad_autoencoder", "int16"},
                                           QemuCase{"hello_world", "mixed", {"--target-sqnr", "45"}}),
                         [](const ::testing::TestParamInfo<QemuCase>& info) {
                           return info.param.model + "_" + info.param.activations;
                         });

}  // namespace
}  // namespace microaot::e2e
