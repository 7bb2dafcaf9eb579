// Hybrid models (float32 activations, int8 weights): a CONV_2D -> DEPTHWISE_CONV_2D -> FULLY_CONNECTED model
// with int8 weights (per-channel and per-tensor scales) and the same model with its weights dequantized to
// float32 are both compiled and run on the same input; the outputs must agree within the golden float
// tolerance, and the hybrid model must keep its weights in fewer bytes.
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "e2e_util.h"
#include "frontend/tflite_test_builder.h"

namespace microaot::e2e {
namespace {

using tflite_test::ModelSpec;
using tflite_test::OpSpec;
using tflite_test::TensorSpec;

struct Layer {
  std::string name;
  std::vector<int32_t> shape;  // of the weights
  std::vector<float> scales;   // one, or one per output channel along channel_axis
  int channel_axis;
  std::vector<int8_t> weights;
};

Layer random_layer(std::mt19937& rng, const std::string& name, std::vector<int32_t> shape, int channel_axis,
                   bool per_channel) {
  Layer l{name, std::move(shape), {}, channel_axis, {}};
  int64_t size = 1;
  for (const int32_t d : l.shape) size *= d;
  std::uniform_int_distribution<int> weight(-127, 127);
  for (int64_t i = 0; i < size; ++i) l.weights.push_back(static_cast<int8_t>(weight(rng)));
  std::uniform_real_distribution<float> scale(0.002f, 0.02f);
  const int32_t channels = per_channel ? l.shape[static_cast<size_t>(channel_axis)] : 1;
  for (int32_t c = 0; c < channels; ++c) l.scales.push_back(scale(rng));
  return l;
}

// The layer's weights as the model stores them: int8 with their scales, or float32 values w_q * scale.
TensorSpec weights_tensor(const Layer& l, bool hybrid) {
  if (hybrid) {
    TensorSpec t = tflite_test::constant(l.name, tflite::TensorType::INT8, l.shape, l.scales,
                                         tflite_test::bytes_of(l.weights));
    t.axis = l.channel_axis;
    return t;
  }
  // Channel of element i: its index along channel_axis (row-major).
  int64_t inner = 1;
  for (size_t d = static_cast<size_t>(l.channel_axis) + 1; d < l.shape.size(); ++d) inner *= l.shape[d];
  const int64_t channels = l.shape[static_cast<size_t>(l.channel_axis)];
  std::vector<float> values;
  for (size_t i = 0; i < l.weights.size(); ++i) {
    const size_t c = l.scales.size() == 1 ? 0 : static_cast<size_t>((static_cast<int64_t>(i) / inner) % channels);
    values.push_back(l.weights[i] * l.scales[c]);
  }
  return tflite_test::constant(l.name, tflite::TensorType::FLOAT32, l.shape, {}, tflite_test::bytes_of(values));
}

// An activation, or a constant when `data` is given.
TensorSpec float_tensor(const std::string& name, std::vector<int32_t> shape, const std::vector<float>& data = {}) {
  return tflite_test::constant(name, tflite::TensorType::FLOAT32, std::move(shape), {}, tflite_test::bytes_of(data));
}

std::vector<float> random_floats(std::mt19937& rng, size_t n) {
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::vector<float> v(n);
  for (float& x : v) x = normal(rng);
  return v;
}

// x [1,8,8,3] -> CONV_2D 3x3 SAME, 6 channels, RELU -> DEPTHWISE_CONV_2D 3x3 stride 2, x2 -> [1,4,4,12]
// -> FULLY_CONNECTED 10 units -> y [1,10]. Versions as TFLite's converter sets them.
ModelSpec model(const std::vector<Layer>& layers, const std::vector<std::vector<float>>& biases, bool hybrid) {
  ModelSpec m;
  m.tensors = {float_tensor("x", {1, 8, 8, 3}),
               weights_tensor(layers[0], hybrid), float_tensor("conv/bias", {6}, biases[0]),
               float_tensor("conv", {1, 8, 8, 6}),
               weights_tensor(layers[1], hybrid), float_tensor("dw/bias", {12}, biases[1]),
               float_tensor("dw", {1, 4, 4, 12}),
               weights_tensor(layers[2], hybrid), float_tensor("fc/bias", {10}, biases[2]),
               float_tensor("y", {1, 10})};
  OpSpec conv = tflite_test::op(3, hybrid ? 5 : 1, {0, 1, 2}, {3});
  conv.options_type = tflite::BuiltinOptions::Conv2DOptions;
  conv.options = [](flatbuffers::FlatBufferBuilder& fbb) {
    return tflite::CreateConv2DOptions(fbb, tflite::Padding::SAME, 1, 1, tflite::ActivationFunctionType::RELU).Union();
  };
  OpSpec dw = tflite_test::op(4, hybrid ? 4 : 1, {3, 4, 5}, {6});
  dw.options_type = tflite::BuiltinOptions::DepthwiseConv2DOptions;
  dw.options = [](flatbuffers::FlatBufferBuilder& fbb) {
    return tflite::CreateDepthwiseConv2DOptions(fbb, tflite::Padding::SAME, 2, 2, 2).Union();
  };
  OpSpec fc = tflite_test::op(9, hybrid ? 12 : 1, {6, 7, 8}, {9});
  fc.options_type = tflite::BuiltinOptions::FullyConnectedOptions;
  fc.options = [](flatbuffers::FlatBufferBuilder& fbb) { return tflite::CreateFullyConnectedOptions(fbb).Union(); };
  m.ops = {conv, dw, fc};
  m.inputs = {0};
  m.outputs = {9};
  return m;
}

void write_bytes(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

TEST(HybridModel, MatchesTheModelWithDequantizedWeights) {
  std::mt19937 rng(2024);
  const std::vector<Layer> layers = {random_layer(rng, "conv/weights", {6, 3, 3, 3}, 0, true),
                                     random_layer(rng, "dw/weights", {1, 3, 3, 12}, 3, false),
                                     random_layer(rng, "fc/weights", {10, 192}, 0, true)};
  const std::vector<std::vector<float>> biases = {random_floats(rng, 6), random_floats(rng, 12),
                                                  random_floats(rng, 10)};
  const std::string dir = make_temp_dir();
  write_bytes(dir + "/in.bin", tflite_test::bytes_of(random_floats(rng, 8 * 8 * 3)));
  enum { kHybrid, kDequantized };
  std::vector<uint8_t> outputs[2];
  int64_t weight_bytes[2] = {0, 0};
  for (const int which : {kHybrid, kDequantized}) {
    const bool hybrid = which == kHybrid;
    const std::string name = hybrid ? "hybrid" : "dequantized";
    const std::string path = dir + "/" + name + ".tflite";
    write_bytes(path, tflite_test::build_model(model(layers, biases, hybrid)));
    std::string errors;
    ASSERT_EQ(run_microaot_capture({"run", path, "--input", dir + "/in.bin", "--output-dir", dir + "/" + name,
                                    "--runtime-lib", runtime_lib()},
                                   errors),
              0)
        << name << ": " << errors;
    outputs[which] = read_file(dir + "/" + name + "/output0.bin");
    ASSERT_EQ(run_microaot_capture({"compile", path, "-o", dir + "/" + name + "_lib"}, errors), 0) << errors;
    const auto report = nlohmann::json::parse(read_text(dir + "/" + name + "_lib/report.json"));
    weight_bytes[which] = report.at("flash_weights_bytes").get<int64_t>();
  }
  ASSERT_EQ(outputs[kDequantized].size(), 10 * sizeof(float));
  EXPECT_EQ(compare_tensor("float32", outputs[kHybrid], outputs[kDequantized]), "");
  // The layers are not all clamped away: the comparison compares something.
  EXPECT_NE(outputs[kDequantized], std::vector<uint8_t>(outputs[kDequantized].size(), 0));
  // int8 weights take a quarter of the float bytes; the biases stay float32 and the scales add a little.
  EXPECT_LT(weight_bytes[kHybrid] * 3, weight_bytes[kDequantized])
      << weight_bytes[kHybrid] << " vs " << weight_bytes[kDequantized];
  remove_dir(dir);
}

}  // namespace
}  // namespace microaot::e2e
