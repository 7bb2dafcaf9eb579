// `microaot quantize`'s int8 and 16x8 models on the emulated Cortex-M4 (label qemu): the generic and the DSP
// (CMSIS-NN style) builds give the host build's outputs byte for byte on held-out vectors 4-7; the recurrent
// models' quantized float twins (float_twin.h) the same on a stream of those vectors, the state carried.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>

#include "e2e_util.h"
#include "float_twin.h"
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

// The float twin of a ../shared/models-recurrent model quantized on a stream of vectors 0-3 (two steps each),
// then run on the stream of vectors 4-7 (one step each, the state carried: `run --batch`) on each target.
class QuantizeRecurrentQemuTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override { tmp_ = make_temp_dir(); }
  void TearDown() override { remove_dir(tmp_); }
  // Vectors first..last, each `times` times, as files of tensor `as` (the original's input values).
  std::vector<std::string> stream(const Tensor& original, const Tensor& as, int first, int last, int times,
                                  const std::string& dir) {
    std::vector<std::string> files;
    for (int k = first; k <= last; ++k) {
      const std::vector<uint8_t> raw = read_file(model_dir() + "/vectors/" + std::to_string(k) + ".input0.bin");
      const std::vector<uint8_t> bytes = bytes_for(as, values_of(original, raw));
      for (int t = 0; t < times; ++t) {
        files.push_back(dir + "_" + std::to_string(files.size()) + ".bin");
        std::ofstream(files.back(), std::ios::binary)
            .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
      }
    }
    return files;
  }
  std::string model_dir() const { return shared_dir() + "/models-recurrent/" + GetParam(); }
  std::string tmp_;
};

TEST_P(QuantizeRecurrentQemuTest, CortexM4BuildsMatchTheHostOnAStream) {
  MICROAOT_REQUIRE_QEMU();
  const std::string twin = tmp_ + "/twin.tflite", model = tmp_ + "/q.tflite";
  write_float_twin(model_dir() + "/model.tflite", twin);
  const Graph original = read_tflite_file(model_dir() + "/model.tflite"), tg = read_tflite_file(twin);
  const Tensor& in = original.tensor(original.inputs[0]);
  std::vector<std::string> args = {"quantize", twin, "-o", model, "--calibration"};
  for (const std::string& f : stream(in, tg.tensor(tg.inputs[0]), 0, 3, 2, tmp_ + "/cal")) args.push_back(f);
  std::string errors;
  ASSERT_EQ(run_microaot_capture(args, errors), 0) << errors;
  const Graph q = read_tflite_file(model);
  const std::vector<std::string> inputs = stream(in, q.tensor(q.inputs[0]), 4, 7, 1, tmp_ + "/eval");
  std::string host;
  int runs = 0;
  for (const char* target : {"host", "cortex-m4", "cmsis-nn, c -mcpu=cortex-m4"}) {
    const std::string dir = tmp_ + "/out" + std::to_string(runs++);
    std::vector<std::string> run = {"run", model, "--target", target, "--batch", "--output-dir", dir};
    for (const std::string& f : inputs) run.insert(run.end(), {"--input", f});
    ASSERT_EQ(run_microaot_capture(run, errors), 0) << target << ": " << errors;
    std::string all;
    for (size_t k = 0; k < inputs.size(); ++k) all += read_text(dir + "/" + std::to_string(k) + "/output0.bin");
    ASSERT_FALSE(all.empty()) << target;
    if (host.empty()) {
      host = all;
    } else {
      EXPECT_EQ(all, host) << target;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(SharedRecurrentModels, QuantizeRecurrentQemuTest,
                         ::testing::Values("keyword_scrambled_int8", "micro_speech_lstm_int8"),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace
}  // namespace microaot::e2e
