// The layers at a model's float or NCHW input on the emulated Cortex-M4 (label qemu): QUANTIZE float -> int8 and
// int16 (microaot/internal/fpu_round.h: VCVT to one fraction bit on the FPU, the C form on the host) and TRANSPOSE
// (the remap kernel's planes copied column by column). A model of such layers runs bit-exact with the host
// build: quotients on ties, one float step either side of them, beyond the saturation of the conversion, infinite
// and NaN; transposes of 1-, 2- and 4-byte elements both ways. The image-sized layers stay under a ceiling of
// instructions per element (issue 31). And float32 FULLY_CONNECTED, CONV_2D and DEPTHWISE_CONV_2D
// (microaot/internal/fpu_dot.h: VLDM and VMLA on the FPU) give the host's bits: the same products added in the
// same order.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <iostream>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "bench_random.h"
#include "e2e_util.h"
#include "frontend/tflite_test_builder.h"

using nlohmann::json;

namespace microaot::e2e {
namespace {

using tflite_test::activation;
using tflite_test::ModelSpec;
using tflite_test::TensorSpec;

constexpr int kQuantize = 114, kTranspose = 39;  // builtin codes

// One layer on an input of its own; `ceiling` instructions per element (0: bit-exactness alone).
struct Layer {
  int code;
  TensorSpec in, out;
  std::vector<int32_t> perm;  // TRANSPOSE's
  std::vector<uint8_t> input;
  double ceiling;
};

int64_t elements(const TensorSpec& t) {
  int64_t n = 1;
  for (int32_t d : t.shape) n *= d;
  return n;
}

ModelSpec layers_model(const std::vector<Layer>& layers) {
  ModelSpec m;
  for (const Layer& l : layers) {
    const int32_t base = static_cast<int32_t>(m.tensors.size());
    m.tensors.push_back(l.in);
    m.tensors.push_back(l.out);
    std::vector<int32_t> inputs = {base};
    if (l.code == kTranspose) {
      TensorSpec perm = tflite_test::constant("perm" + std::to_string(base), tflite::TensorType::INT32,
                                              {static_cast<int32_t>(l.perm.size())}, {}, tflite_test::bytes_of(l.perm));
      perm.scale.clear(), perm.zero_point.clear();
      m.tensors.push_back(perm);
      inputs.push_back(base + 2);
    }
    m.ops.push_back(tflite_test::op(l.code, l.code == kTranspose ? 2 : 1, inputs, {base + 1}));
    m.inputs.push_back(base);
    m.outputs.push_back(base + 1);
  }
  return m;
}

// Quotients x / 0.25 on every tie k + 1/2 near the types' limits and the conversion's saturation (2^15 and 2^17
// halved), one float step either side, and the values that are no number.
std::vector<float> awkward_quotients() {
  std::vector<float> x;
  for (const float base : {0.0f, 127.0f, 255.0f, 16383.0f, 16384.0f, 32767.0f, 65535.0f, 65536.0f, 131071.0f}) {
    for (const float sign : {1.0f, -1.0f}) {
      const float tie = sign * (base + 0.5f) * 0.25f;
      x.insert(x.end(), {tie, std::nextafter(tie, 0.0f), std::nextafter(tie, 2 * tie)});
    }
  }
  x.insert(x.end(), {0.0f, -0.0f, 1e-45f, 3e38f, -3e38f, INFINITY, -INFINITY, NAN});
  return x;
}

std::vector<uint8_t> float_bytes(const std::vector<float>& values) {
  std::vector<uint8_t> bytes(values.size() * 4);
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

std::vector<uint8_t> random_bytes(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<uint8_t> bytes(n);
  for (uint8_t& b : bytes) b = static_cast<uint8_t>(rng());
  return bytes;
}

Layer quantize(tflite::TensorType type, const std::vector<float>& x, float scale, int64_t zero_point, double ceiling) {
  const int32_t n = static_cast<int32_t>(x.size());
  TensorSpec out = activation("q", {1, n}, scale, zero_point);
  out.type = type;
  return {kQuantize, tflite_test::float_tensor("x", {1, n}), out, {}, float_bytes(x), ceiling};
}

Layer transpose(tflite::TensorType type, std::vector<int32_t> shape, std::vector<int32_t> perm, double ceiling) {
  std::vector<int32_t> out_shape;
  for (int32_t p : perm) out_shape.push_back(shape[static_cast<size_t>(p)]);
  TensorSpec in = activation("t", shape, 0.05f, 0), out = activation("u", out_shape, 0.05f, 0);
  if (type == tflite::TensorType::FLOAT32) {
    in = tflite_test::float_tensor("t", shape), out = tflite_test::float_tensor("u", out_shape);
  }
  in.type = out.type = type;
  const size_t n = static_cast<size_t>(elements(in));
  if (type == tflite::TensorType::FLOAT32) {  // numbers (bench compares float outputs as numbers too)
    std::vector<float> values(n);
    for (size_t i = 0; i < n; ++i) values[i] = static_cast<float>(i) * 0.37f - 50.0f;
    return {kTranspose, in, out, perm, float_bytes(values), ceiling};
  }
  return {kTranspose, in, out, perm, random_bytes(n * (type == tflite::TensorType::INT8 ? 1 : 2), 11), ceiling};
}

TEST(InputLayersM4, QuantizeAndTransposeRunBitExactUnderTheirCeilings) {
  MICROAOT_REQUIRE_QEMU();
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> pixel(0.0f, 1.0f);
  std::vector<float> image(3 * 32 * 32);
  for (float& v : image) v = pixel(rng);
  // Ceilings a little above the measured figures (instructions per element: 9.0 for the image's QUANTIZE, 3.7
  // for the RGB image's TRANSPOSE); a call of roundf and a table read per element took 37 and 14.6.
  const std::vector<Layer> layers = {
      quantize(tflite::TensorType::INT8, awkward_quotients(), 0.25f, -3, 0),
      quantize(tflite::TensorType::INT16, awkward_quotients(), 0.25f, 7, 0),
      quantize(tflite::TensorType::INT8, image, 1.0f / 255, -128, 10.0),
      transpose(tflite::TensorType::INT8, {1, 3, 24, 24}, {0, 2, 3, 1}, 4.5),  // NCHW -> NHWC, an RGB image
      transpose(tflite::TensorType::INT8, {1, 64, 6, 10}, {0, 2, 3, 1}, 0),
      transpose(tflite::TensorType::FLOAT32, {1, 5, 7, 6}, {0, 2, 3, 1}, 0),
      transpose(tflite::TensorType::INT16, {1, 9, 7, 4}, {0, 3, 1, 2}, 0),  // NHWC -> NCHW
  };
  const std::string dir = make_temp_dir();
  const std::string model = dir + "/model.tflite";
  write_bytes(model, tflite_test::build_model(layers_model(layers)));
  std::vector<std::string> args = {"bench", model, "--target", "cortex-m4", "--json"};
  for (size_t k = 0; k < layers.size(); ++k) {
    const std::string path = dir + "/in" + std::to_string(k) + ".bin";
    write_bytes(path, layers[k].input);
    args.insert(args.end(), {"--input", path});
  }
  std::string errors, output;
  ASSERT_EQ(run_microaot_capture(args, errors, &output), 0) << errors;
  const json r = json::parse(output);
  EXPECT_TRUE(r["outputs_bit_exact"].get<bool>());
  ASSERT_EQ(r["per_op"].size(), layers.size());
  for (const json& row : r["per_op"]) {
    const size_t op = row["op_index"].get<size_t>();
    const double per_element = row["instructions"].get<double>() / static_cast<double>(elements(layers.at(op).in));
    std::cout << "op " << op << ": " << row["kernel"].get<std::string>() << ", " << row["instructions"]
              << " instructions, " << per_element << " per element\n";
    if (layers.at(op).ceiling > 0) {
      EXPECT_LT(per_element, layers.at(op).ceiling) << "op " << op;
    }
  }
  remove_dir(dir);
}

// float32 FULLY_CONNECTED of depths 1 to 7 and 37 (the four a pass and the rest), CONV_2D 3x3 "same" over 3 and 5
// channels (edge windows' rows shorter than the filter) and DEPTHWISE_CONV_2D 3x3 stride 2 over 6 and 9 channels,
// on inputs of mixed magnitudes, where any other order of additions rounds differently.
TEST(FloatLayersM4, FullyConnectedAndConvolutionsAddInTheHostsOrder) {
  MICROAOT_REQUIRE_QEMU();
  ModelSpec m;
  std::vector<std::vector<uint8_t>> inputs;
  std::mt19937 rng(17);
  std::uniform_real_distribution<float> mantissa(-1.0f, 1.0f);
  std::uniform_int_distribution<int> exponent(-12, 12);
  auto values = [&](size_t n) {
    std::vector<float> v(n);
    for (float& x : v) x = std::ldexp(mantissa(rng), exponent(rng));
    return v;
  };
  auto add_layer = [&](int code, int version, const std::vector<int32_t>& in_shape,
                       const std::vector<int32_t>& w_shape, const std::vector<int32_t>& out_shape,
                       tflite::BuiltinOptions type, tflite_test::OptionsFn options) {
    const int32_t base = static_cast<int32_t>(m.tensors.size());
    size_t in_n = 1, w_n = 1;
    for (int32_t d : in_shape) in_n *= static_cast<size_t>(d);
    for (int32_t d : w_shape) w_n *= static_cast<size_t>(d);
    m.tensors.push_back(tflite_test::float_tensor("x" + std::to_string(base), in_shape));
    m.tensors.push_back(tflite_test::float_tensor("w" + std::to_string(base), w_shape, values(w_n)));
    const std::vector<float> bias = values(static_cast<size_t>(out_shape.back()));
    m.tensors.push_back(tflite_test::float_tensor("b" + std::to_string(base), {out_shape.back()}, bias));
    m.tensors.push_back(tflite_test::float_tensor("y" + std::to_string(base), out_shape));
    tflite_test::OpSpec o = tflite_test::op(code, version, {base, base + 1, base + 2}, {base + 3});
    o.options_type = type;
    o.options = options;
    m.ops.push_back(o);
    m.inputs.push_back(base);
    m.outputs.push_back(base + 3);
    inputs.push_back(float_bytes(values(in_n)));
  };
  for (const int32_t depth : {1, 2, 3, 4, 5, 6, 7, 37}) {
    add_layer(9, 1, {2, depth}, {5, depth}, {2, 5}, tflite::BuiltinOptions::FullyConnectedOptions,
              [](flatbuffers::FlatBufferBuilder& fbb) { return tflite::CreateFullyConnectedOptions(fbb).Union(); });
  }
  for (const int32_t depth : {3, 5}) {
    add_layer(3, 1, {1, 6, 7, depth}, {4, 3, 3, depth}, {1, 6, 7, 4}, tflite::BuiltinOptions::Conv2DOptions,
              [](flatbuffers::FlatBufferBuilder& fbb) {
                return tflite::CreateConv2DOptions(fbb, tflite::Padding::SAME, 1, 1).Union();
              });
  }
  for (const int32_t depth : {6, 9}) {  // depthwise, multiplier 1: the channels four a pass and the rest
    add_layer(4, 1, {1, 5, 6, depth}, {1, 3, 3, depth}, {1, 3, 3, depth},
              tflite::BuiltinOptions::DepthwiseConv2DOptions, [](flatbuffers::FlatBufferBuilder& fbb) {
                return tflite::CreateDepthwiseConv2DOptions(fbb, tflite::Padding::SAME, 2, 2, 1).Union();
              });
  }
  const std::string dir = make_temp_dir();
  const std::string model = dir + "/model.tflite";
  write_bytes(model, tflite_test::build_model(m));
  std::vector<std::string> args = {"bench", model, "--target", "cortex-m4", "--json"};
  for (size_t k = 0; k < inputs.size(); ++k) {
    const std::string path = dir + "/in" + std::to_string(k) + ".bin";
    write_bytes(path, inputs[k]);
    args.insert(args.end(), {"--input", path});
  }
  std::string errors, output;
  ASSERT_EQ(run_microaot_capture(args, errors, &output), 0) << errors;
  const json r = json::parse(output);
  EXPECT_TRUE(r["outputs_bit_exact"].get<bool>());
  remove_dir(dir);
}

}  // namespace
}  // namespace microaot::e2e
