// The DSP 16x8 DEPTHWISE_CONV_2D (runtime/kernels/dsp/depthwise_conv_2d_s16.c) on the emulated Cortex-M4 (label
// qemu): its inline assembly (the sliding 3-wide rows, the output step of a pixel pair) runs only on the Arm build,
// the host test (dsp_s16_test.cpp) runs its C forms. One generated model of 16x8 layers (int16 activations, int8
// per-channel weights, int64 bias): multiplier 1 at real sizes (3x3 over 32 and 64 channels), odd channel counts,
// strides, dilation, a 5x5 filter, multipliers 3 and 8, every clamp; bit-exact with the host build, each layer
// within the instructions per MAC measured for it (the portable kernel takes about 24), which the DSP path alone
// reaches.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
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
using tflite_test::bytes_of;
using tflite_test::constant;
using tflite_test::ModelSpec;
using AF = tflite::ActivationFunctionType;

constexpr int kDepthwiseConv2D = 4;  // builtin code

struct Layer {
  int h, w, c, multiplier, filter, stride, dilation;
  bool same;
  AF act;
  double per_mac;  // the bound on instructions per MAC
};

int output_size(int in, int filter, int stride, int dilation, bool same) {
  const int extent = (filter - 1) * dilation + 1;
  return same ? (in + stride - 1) / stride : (in - extent) / stride + 1;
}

int64_t macs(const Layer& l) {
  return int64_t{output_size(l.h, l.filter, l.stride, l.dilation, l.same)} *
         output_size(l.w, l.filter, l.stride, l.dilation, l.same) * l.c * l.multiplier * l.filter * l.filter;
}

// Each layer on an input of its own: symmetric int16 activations, per-channel int8 weights, an int64 bias, an
// output scale that keeps most sums of random inputs inside int16 (so that a wrong sum shows).
ModelSpec depthwise_model(const std::vector<Layer>& layers, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> weight(-127, 127), bias(-200000, 200000);
  std::uniform_real_distribution<float> weight_scale(0.004f, 0.02f);
  ModelSpec m;
  for (const Layer& l : layers) {
    const int32_t base = static_cast<int32_t>(m.tensors.size());
    const std::string id = std::to_string(m.ops.size());
    const int out_c = l.c * l.multiplier, taps = l.filter * l.filter;
    const float in_scale = 0.0005f;
    std::vector<float> w_scales, b_scales;
    std::vector<int8_t> w(static_cast<size_t>(taps * out_c));
    std::vector<int64_t> b(static_cast<size_t>(out_c));
    for (int k = 0; k < out_c; ++k) {
      w_scales.push_back(weight_scale(rng));
      b_scales.push_back(in_scale * w_scales.back());
    }
    for (int8_t& v : w) v = static_cast<int8_t>(weight(rng));
    for (int64_t& v : b) v = bias(rng);
    const float out_scale = in_scale * 0.02f * std::sqrt(static_cast<float>(taps)) * 32768.0f * 73.0f / 3000.0f;
    const int out_h = output_size(l.h, l.filter, l.stride, l.dilation, l.same);
    const int out_w = output_size(l.w, l.filter, l.stride, l.dilation, l.same);
    m.tensors.push_back(activation("x" + id, {1, l.h, l.w, l.c}, in_scale, 0));
    m.tensors.back().type = tflite::TensorType::INT16;
    m.tensors.push_back(
        constant("w" + id, tflite::TensorType::INT8, {1, l.filter, l.filter, out_c}, w_scales, bytes_of(w)));
    m.tensors.back().axis = 3;
    m.tensors.push_back(constant("b" + id, tflite::TensorType::INT64, {out_c}, b_scales, bytes_of(b)));
    m.tensors.push_back(activation("y" + id, {1, out_h, out_w, out_c}, out_scale, 0));
    m.tensors.back().type = tflite::TensorType::INT16;
    tflite_test::OpSpec o = tflite_test::op(kDepthwiseConv2D, 1, {base, base + 1, base + 2}, {base + 3});
    o.options_type = tflite::BuiltinOptions::DepthwiseConv2DOptions;
    o.options = [l](flatbuffers::FlatBufferBuilder& fbb) {
      return tflite::CreateDepthwiseConv2DOptions(fbb, l.same ? tflite::Padding::SAME : tflite::Padding::VALID,
                                                  l.stride, l.stride, l.multiplier, l.act, l.dilation, l.dilation)
          .Union();
    };
    m.ops.push_back(o);
    m.inputs.push_back(base);
    m.outputs.push_back(base + 3);
  }
  return m;
}

// The sliding 3x3 pairs at real sizes (the first two), odd channels (an odd last channel gathered alone) and
// widths (a lone last pixel), the general pair loop (stride 2, dilation 2, 5x5), depth multipliers 8 (the sliding
// pairs over one input channel a pair) and 3 and 2 (gathered inputs), small maps whose edges dominate.
const std::vector<Layer> kLayers = {
    {16, 16, 64, 1, 3, 1, 1, true, AF::RELU6, 4.2},   // the generated benchmark layer
    {16, 16, 32, 1, 3, 1, 1, true, AF::NONE, 4.2},    // the ops case's shape
    {12, 11, 13, 1, 3, 1, 1, true, AF::RELU, 6.6},    // odd channels, odd width
    {17, 17, 16, 1, 3, 2, 1, false, AF::NONE, 7.8},   // stride 2: the general pair loop
    {14, 14, 8, 1, 3, 1, 2, true, AF::RELU6, 7.4},    // dilation 2
    {12, 12, 10, 1, 5, 1, 1, true, AF::NONE, 5.5},    // 5x5
    {10, 10, 1, 8, 3, 1, 1, true, AF::RELU, 5.5},     // the ops case's multiplier 8: one input channel a pair
    {10, 9, 2, 3, 3, 1, 2, true, AF::NONE, 11.8},     // multiplier 3, dilation 2
    {9, 9, 3, 2, 3, 2, 1, false, AF::RELU6, 14.9},    // multiplier 2, stride 2, "valid"
};

TEST(DepthwiseS16M4, DspKernelRunsBitExact) {
  MICROAOT_REQUIRE_QEMU();
  const std::string dir = make_temp_dir();
  const json r = bench_random(depthwise_model(kLayers, 91), dir, 93);
  ASSERT_TRUE(r.contains("per_op"));
  EXPECT_TRUE(r["outputs_bit_exact"].get<bool>());
  ASSERT_EQ(r["per_op"].size(), kLayers.size());
  for (const json& row : r["per_op"]) {
    const size_t op = row["op_index"].get<size_t>();
    const Layer& layer = kLayers.at(op);
    EXPECT_EQ(row["kernel"], "microaot_depthwise_conv_2d_s16") << "op " << op;
    ASSERT_EQ(row["macs"].get<int64_t>(), macs(layer)) << "op " << op;
    const double per_mac = row["instructions"].get<double>() / static_cast<double>(macs(layer));
    EXPECT_LE(per_mac, layer.per_mac) << "op " << op;
    std::cout << "op " << op << ": " << row["instructions"].get<int64_t>() << " instructions, " << per_mac
              << " per MAC\n";
  }
  remove_dir(dir);
}

}  // namespace
}  // namespace microaot::e2e
