// The packed int8 TRANSPOSE_CONV (runtime/kernels/dsp/transpose_conv_s8_packed*.c, one packed convolution per stride
// phase) on the emulated Cortex-M4 (label qemu): the host unit tests run its C forms (compiler/ops/
// transpose_conv_packed_test.cpp); here the instructions. A model of single TRANSPOSE_CONV layers (strides 1, 2, 3
// and unequal, filters 1 to 5 and unequal, phases without taps, SAME and VALID, odd channel counts, with and without
// bias, clamps) runs bit-exact with the host build at `speed` (int16 weights) and `balanced` (int8 words, raw where
// exact), every layer through the packed stem; and decoder layers run at most 1.5 instructions per MAC.
#include <gtest/gtest.h>

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

constexpr int kTransposeConv = 67;  // builtin code

// One layer: input h x w x c, output channels, filter, strides (height, width), padding, clamp, bias, batches.
struct Layer {
  int h, w, c, oc, kh, kw, sh, sw;
  bool same;
  AF act;
  bool bias;
  int32_t output_zero_point;
  int batches = 1;
};

int output_size(int in, int filter, int stride, bool same) { return same ? in * stride : (in - 1) * stride + filter; }

// Each layer on an input of its own into an output of its own; per-channel weights and biases, an output scale
// that puts a typical sum near 40 output steps (few outputs clamp, so a wrong sum shows).
ModelSpec transpose_conv_model(const std::vector<Layer>& layers, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> weight(-127, 127), bias(-4000, 4000);
  std::uniform_real_distribution<float> weight_scale(0.008f, 0.02f);
  ModelSpec m;
  for (const Layer& l : layers) {
    const int32_t base = static_cast<int32_t>(m.tensors.size());
    const std::string id = std::to_string(m.ops.size());
    const float in_scale = 0.05f;
    std::vector<float> w_scales, b_scales;
    std::vector<int8_t> w(static_cast<size_t>(l.oc * l.kh * l.kw * l.c));
    std::vector<int32_t> b(static_cast<size_t>(l.oc));
    for (int k = 0; k < l.oc; ++k) {
      w_scales.push_back(weight_scale(rng));
      b_scales.push_back(in_scale * w_scales.back());
    }
    for (int8_t& v : w) v = static_cast<int8_t>(weight(rng));
    for (int32_t& v : b) v = bias(rng);
    const std::vector<int32_t> out = {l.batches, output_size(l.h, l.kh, l.sh, l.same),
                                      output_size(l.w, l.kw, l.sw, l.same), l.oc};
    const float taps = static_cast<float>(l.kh * l.kw * l.c) / static_cast<float>(l.sh * l.sw);
    m.tensors.push_back(constant("s" + id, tflite::TensorType::INT32, {4}, {}, bytes_of(out)));
    m.tensors.push_back(constant("w" + id, tflite::TensorType::INT8, {l.oc, l.kh, l.kw, l.c}, w_scales, bytes_of(w)));
    m.tensors.push_back(activation("x" + id, {l.batches, l.h, l.w, l.c}, in_scale, -3));
    std::vector<int32_t> inputs = {base, base + 1, base + 2};
    if (l.bias) {
      m.tensors.push_back(constant("b" + id, tflite::TensorType::INT32, {l.oc}, b_scales, bytes_of(b)));
      inputs.push_back(base + 3);
    }
    m.tensors.push_back(activation("y" + id, out, in_scale * 0.02f * std::sqrt(taps) * 136.0f, l.output_zero_point));
    const int32_t y = static_cast<int32_t>(m.tensors.size()) - 1;
    tflite_test::OpSpec o = tflite_test::op(kTransposeConv, 4, inputs, {y});
    o.options_type = tflite::BuiltinOptions::TransposeConvOptions;
    o.options = [l](flatbuffers::FlatBufferBuilder& fbb) {
      return tflite::CreateTransposeConvOptions(fbb, l.same ? tflite::Padding::SAME : tflite::Padding::VALID, l.sw,
                                                l.sh, l.act)
          .Union();
    };
    m.ops.push_back(o);
    m.inputs.push_back(base + 2);
    m.outputs.push_back(y);
  }
  return m;
}

// The phases' paths: stride 1 (pixels stored in place), 2 and 3 and unequal (stored stride apart), phases without
// taps (filter below the stride), odd pixel counts per phase row (a pixel alone), 1 to 3 channels and odd counts
// (the row loops' units left in C), unequal filters, no bias, the int8 clamp and narrower ones, batches.
const std::vector<Layer> kLayers = {
    {3, 3, 2, 2, 3, 3, 2, 2, true, AF::NONE, false, 8},   // the ops cases' shapes
    {4, 4, 3, 5, 3, 3, 2, 2, true, AF::NONE, true, -4},
    {5, 5, 2, 3, 2, 2, 2, 2, false, AF::NONE, true, 2},
    {6, 6, 4, 4, 3, 3, 1, 1, true, AF::RELU, true, -20},
    {5, 4, 8, 9, 3, 5, 2, 1, true, AF::NONE, true, 0},    // unequal filter and strides
    {3, 5, 6, 8, 1, 2, 3, 2, false, AF::RELU6, true, -128}, // phases without taps, clamped
    {4, 3, 5, 7, 4, 4, 3, 3, true, AF::NONE, false, 5},
    {7, 7, 16, 12, 5, 5, 2, 2, true, AF::NONE, true, -1},
    {2, 6, 12, 16, 4, 3, 2, 3, false, AF::RELU, true, -30},
    {1, 1, 7, 1, 2, 3, 1, 2, false, AF::NONE, true, 3},    // one output channel
    {3, 4, 5, 6, 3, 3, 2, 2, true, AF::NONE, true, -2, 2},  // two batches, phase by phase
    {3, 3, 4, 5, 2, 2, 2, 2, false, AF::NONE, true, 1, 3},  // three batches, the phases as one convolution
};

// Benches `layers` at `optimize`, checks they run bit-exact with the host build through `kernel`; returns per_op.
json expect_bit_exact(const std::vector<Layer>& layers, const std::string& optimize, const std::string& kernel) {
  const std::string dir = make_temp_dir();
  const json r = bench_random(transpose_conv_model(layers, 79), dir, 83, {"--optimize", optimize});
  remove_dir(dir);
  if (!r.contains("per_op")) return json::array();
  EXPECT_TRUE(r["outputs_bit_exact"].get<bool>()) << optimize;
  EXPECT_EQ(r["per_op"].size(), layers.size());
  for (const json& row : r["per_op"]) {
    const size_t op = row["op_index"].get<size_t>();
    // At balanced, 8 channels or more take the raw form (exact for these sums), fewer the int8 words.
    const std::string expected = kernel == "raw" ? layers.at(op).oc >= 8 ? "microaot_transpose_conv_s8_packed_raw"
                                                                         : "microaot_transpose_conv_s8_packed"
                                                 : kernel;
    EXPECT_EQ(row["kernel"], expected) << optimize << " op " << op;
    std::cout << optimize << " op " << op << ": " << row["kernel"].get<std::string>() << ", "
              << row["instructions"] << " instructions, " << row["instructions_per_mac"] << " per MAC\n";
  }
  return r["per_op"];
}

TEST(TransposeConvM4, PackedPhasesRunBitExactAtSpeed) {
  MICROAOT_REQUIRE_QEMU();
  expect_bit_exact(kLayers, "speed", "microaot_transpose_conv_s8_packed_w16");
}

TEST(TransposeConvM4, PackedPhasesRunBitExactAtBalanced) {
  MICROAOT_REQUIRE_QEMU();
  expect_bit_exact(kLayers, "balanced", "raw");
}

// Decoder layers (8x8x32 -> 16x16x16 k3 s2 SAME, 16x16x16 -> 32x32x8 k4 s2 SAME, 16x16x32 -> 32x32x16 k2 s2 VALID)
// at the rate of the packed CONV_2D: at most 1.5 instructions per MAC at speed.
TEST(TransposeConvM4, DecoderLayersRunAtMost1Point5InstructionsPerMac) {
  MICROAOT_REQUIRE_QEMU();
  const std::vector<Layer> decoder = {{8, 8, 32, 16, 3, 3, 2, 2, true, AF::RELU, true, -128},
                                      {16, 16, 16, 8, 4, 4, 2, 2, true, AF::RELU, true, -128},
                                      {16, 16, 32, 16, 2, 2, 2, 2, false, AF::NONE, true, 0}};
  for (const json& row : expect_bit_exact(decoder, "speed", "microaot_transpose_conv_s8_packed_w16")) {
    EXPECT_LE(row["instructions_per_mac"].get<double>(), 1.5) << row.dump();
  }
}

}  // namespace
}  // namespace microaot::e2e
