// The DSP 16x8 kernels (int16 activations, int8 weights, int64 bias: runtime/kernels/dsp/conv_2d_s16.c,
// fully_connected_s16.c) on the emulated Cortex-M4 (label qemu) past their stack buffers, where they reduce windows
// and rows in pieces: a 3x3 convolution over 128 channels (window 1,152), a padded strided one with an odd output
// width and channel count (window 1,170), a 1x1 one over 600 channels, FULLY_CONNECTED layers of depth 2,048 and
// 1,500 (three rows: a pair and a lone row) and one with zero points. Bit-exact with the host build (the portable
// kernels), network_info.txt names no portable loop, and each layer runs within the instructions per MAC measured
// for it (the portable loops took 3.8 to 9.3).
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
#include "matmul_layer_op.h"

using nlohmann::json;

namespace microaot::e2e {
namespace {

using tflite_test::bytes_of;
using tflite_test::ModelSpec;
using tflite_test::TensorSpec;
using AF = tflite::ActivationFunctionType;

// A CONV_2D (h x w x c input, oc channels, k x k filter, stride, SAME or VALID) or, with fc, a FULLY_CONNECTED
// (batches h, depth c, oc units; w and k unused); zero points of the input and the per-tensor weights (0: per-channel
// symmetric weights); the bound on instructions per MAC.
struct Layer {
  bool fc;
  int h, w, c, oc, k, stride;
  bool same;
  AF act;
  double per_mac;
  int input_zero_point = 0, weight_zero_point = 0;
};

TensorSpec int16_tensor(const std::string& name, std::vector<int32_t> shape, float scale, int64_t zero_point) {
  TensorSpec t = tflite_test::activation(name, std::move(shape), scale, zero_point);
  t.type = tflite::TensorType::INT16;
  return t;
}

// A convolution's output height or width from its input's.
int out_size(const Layer& l, int in) { return l.same ? (in + l.stride - 1) / l.stride : (in - l.k) / l.stride + 1; }

// Each layer on an input of its own into an output of its own: random int8 weights, int64 biases, an output scale
// that puts a typical sum of random int16 inputs near 8,000 output steps (few outputs clamp, so a wrong sum shows).
ModelSpec s16_model(const std::vector<Layer>& layers, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> weight(-127, 127), bias(-4000000, 4000000);
  std::uniform_real_distribution<float> weight_scale(0.008f, 0.02f);
  ModelSpec m;
  for (const Layer& l : layers) {
    const int32_t base = static_cast<int32_t>(m.tensors.size());
    const std::string id = std::to_string(m.ops.size());
    const int window = l.fc ? l.c : l.k * l.k * l.c;
    const float in_scale = 0.001f;
    const bool per_tensor = l.weight_zero_point != 0;
    std::vector<float> w_scales(per_tensor ? 1 : static_cast<size_t>(l.oc)), b_scales;
    for (float& s : w_scales) s = weight_scale(rng);
    for (int u = 0; u < l.oc; ++u) b_scales.push_back(in_scale * w_scales[per_tensor ? 0 : static_cast<size_t>(u)]);
    std::vector<int8_t> w(static_cast<size_t>(l.oc * window));
    std::vector<int64_t> b(static_cast<size_t>(l.oc));
    for (int8_t& v : w) v = static_cast<int8_t>(weight(rng));
    for (int64_t& v : b) v = bias(rng);
    using Shape = std::vector<int32_t>;
    const Shape in_shape = l.fc ? Shape{l.h, l.c} : Shape{1, l.h, l.w, l.c};
    const Shape out_shape = l.fc ? Shape{l.h, l.oc} : Shape{1, out_size(l, l.h), out_size(l, l.w), l.oc};
    const Shape w_shape = l.fc ? Shape{l.oc, l.c} : Shape{l.oc, l.k, l.k, l.c};
    const float typical = 18918.0f * 73.0f * std::sqrt(static_cast<float>(window)) / 8000.0f;
    m.tensors.push_back(int16_tensor("x" + id, in_shape, in_scale, l.input_zero_point));
    TensorSpec weights = tflite_test::constant("w" + id, tflite::TensorType::INT8, w_shape, w_scales, bytes_of(w));
    weights.zero_point = {l.weight_zero_point};
    if (!per_tensor) weights.zero_point.assign(w_scales.size(), 0);
    m.tensors.push_back(weights);
    m.tensors.push_back(tflite_test::constant("b" + id, tflite::TensorType::INT64, {l.oc}, b_scales, bytes_of(b)));
    m.tensors.push_back(int16_tensor("y" + id, out_shape, in_scale * 0.014f * typical, 0));
    m.ops.push_back(matmul_layer_op(l.fc, base, l.same, l.stride, l.act));
    m.inputs.push_back(base);
    m.outputs.push_back(base + 3);
  }
  return m;
}

// The bounds: the measured figures (portable loops before: 4.85, 3.83, 5.21, 9.04, 9.05, 9.26) and about 5%.
const std::vector<Layer> kLayers = {
    {false, 16, 16, 128, 64, 3, 1, true, AF::NONE, 1.6},      // window 1,152: 4 pieces, 2 blocks of channels: 1.51
    {false, 7, 9, 130, 37, 3, 2, true, AF::RELU, 2.05},       // 1,170, padded, 4 x 5 pixels, odd channels: 1.95
    {false, 5, 5, 600, 24, 1, 1, false, AF::NONE, 1.9},       // 1x1 over 600 channels, read in place: 1.81
    {true, 1, 0, 2048, 256, 0, 0, false, AF::NONE, 2.25},     // one row of 2,048: 2.15
    {true, 3, 0, 1500, 37, 0, 0, false, AF::RELU, 1.9},       // a pair of rows and a lone one, odd units: 1.81
    {true, 2, 0, 300, 20, 0, 0, false, AF::NONE, 3.15, 5, 3}, // zero points, their terms apart: 2.99
};

TEST(DspS16M4, LongWindowsAndRowsRunInPiecesBitExact) {
  MICROAOT_REQUIRE_QEMU();
  const std::string dir = make_temp_dir(), model = dir + "/model.tflite";
  const json r = bench_random(s16_model(kLayers, 16), dir, 31);
  ASSERT_TRUE(r.contains("per_op"));
  EXPECT_TRUE(r["outputs_bit_exact"].get<bool>());
  ASSERT_EQ(r["per_op"].size(), kLayers.size());
  for (const json& row : r["per_op"]) {
    const size_t op = row["op_index"].get<size_t>();
    const Layer& layer = kLayers.at(op);
    EXPECT_EQ(row["kernel"], layer.fc ? "microaot_fully_connected_s16" : "microaot_conv_2d_s16") << "op " << op;
    EXPECT_LE(row["instructions_per_mac"].get<double>(), layer.per_mac) << "op " << op;
    std::cout << "op " << op << ": " << row["instructions"] << " instructions, " << row["instructions_per_mac"]
              << " per MAC\n";
  }
  ASSERT_EQ(run_microaot({"compile", model, "--target", "cortex-m4", "-o", dir + "/lib"}), 0);
  const std::string info = read_text(dir + "/lib/network_info.txt");
  EXPECT_EQ(info.find("portable loop"), std::string::npos) << info;
  remove_dir(dir);
}

// Windows and rows of one int32 sum (at most MICROAOT_PACKED_S16_MAX_WINDOW elements) take the packed 16x8
// kernels: the convolution through microaot_packed_pairs3's assembly in its sums mode, three pixels at a time (a
// last pair, a lone pixel), windows read straight (filter rows of whole groups inside the image) and gathered
// (padded edges, rows of 9); FULLY_CONNECTED rows through the packed dot products' assembly (a row against four
// units, two rows against a pair); odd units, clamps; bit-exact at `speed` (int16 weight words) and `balanced`
// (int8 words), each layer at `speed` within its measured instructions per MAC and about 5% (the unpacked DSP
// kernels': 2.00, 4.38, 5.90, 7.56, 3.15; 2.49, 2.80, 2.04).
const std::vector<Layer> kPackedLayers = {
    {false, 16, 16, 16, 32, 3, 1, true, AF::RELU6, 1.34},  // window 144, read straight inside: 1.27
    {false, 49, 10, 1, 8, 10, 2, true, AF::RELU, 3.9},     // 100 over one channel, stride 2, padded: 3.72
    {false, 9, 9, 4, 6, 3, 2, false, AF::RELU6, 5.0},      // 36, stride 2, a lone pixel a row: 4.76
    {false, 7, 7, 3, 9, 3, 1, true, AF::NONE, 6.4},        // 27, rows of 9 gathered, odd units: 6.07
    {false, 5, 8, 56, 13, 1, 1, false, AF::RELU, 2.2},     // 1x1 over 56 channels, odd units: 2.1
    {true, 1, 0, 256, 64, 0, 0, false, AF::NONE, 1.12},    // FULLY_CONNECTED, one row of 256, quads: 1.07
    {true, 3, 0, 101, 14, 0, 0, false, AF::RELU, 1.84},    // a pair of rows and a lone one, two units left: 1.75
    {true, 2, 0, 508, 9, 0, 0, false, AF::NONE, 1.27},     // rows of 508 (the longest of one sum), odd units: 1.2
};

void expect_packed_s16(const std::string& optimize, const std::string& suffix) {
  const std::string dir = make_temp_dir();
  const json r = bench_random(s16_model(kPackedLayers, 17), dir, 33, {"--optimize", optimize});
  ASSERT_TRUE(r.contains("per_op"));
  EXPECT_TRUE(r["outputs_bit_exact"].get<bool>()) << optimize;
  ASSERT_EQ(r["per_op"].size(), kPackedLayers.size());
  for (const json& row : r["per_op"]) {
    const size_t op = row["op_index"].get<size_t>();
    const std::string stem = kPackedLayers.at(op).fc ? "microaot_fully_connected_s16" : "microaot_conv_2d_s16";
    EXPECT_EQ(row["kernel"], stem + "_packed" + suffix) << optimize << " op " << op;
    if (optimize == "speed") {
      EXPECT_LE(row["instructions_per_mac"].get<double>(), kPackedLayers.at(op).per_mac) << "op " << op;
    }
    std::cout << optimize << " op " << op << ": " << row["instructions"] << " instructions, "
              << row["instructions_per_mac"] << " per MAC\n";
  }
  remove_dir(dir);
}

TEST(DspS16M4, WindowsOfOneSumRunPackedBitExact) {
  MICROAOT_REQUIRE_QEMU();
  expect_packed_s16("speed", "_w16");
  expect_packed_s16("balanced", "");
}

}  // namespace
}  // namespace microaot::e2e
