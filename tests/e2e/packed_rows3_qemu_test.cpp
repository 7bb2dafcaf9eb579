// The packed k x k CONV_2D's three-row path (microaot_packed_rows3 over the naked microaot_packed_pairs3,
// runtime/include/microaot/internal/templates/packed_dot3.h) on the emulated Cortex-M4 (label qemu): the assembly
// runs only on the Arm build, the host unit tests run its C form. One model of int8 CONV_2D layers (and
// FULLY_CONNECTED layers, which the k x k kernel takes as 1x1 convolutions over their batches) whose output rows
// leave every remainder of three pixels (0, 1, 2), units in pairs and an odd last one, windows inside the image
// and 1x1 pixels widened in place three at a time (microaot_packed_widen3), groups of every count modulo four (the
// loop's four entries), windows past one chunk (the chunked path's triples through the pairs' sums mode, gathered
// and pixel windows), the int8 clamp and narrower ones: bit-exact with the host build at `speed` (int16 weights),
// at `balanced` (the raw int8 form), and at `balanced` with the raw form refused (int8 words), every layer on the
// k x k kernel of its form.
#include <gtest/gtest.h>

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
// (batches h, depth c, oc units; w, k and stride unused).
struct Layer {
  bool fc;
  int h, w, c, oc, k, stride;
  bool same;
  AF act;
  int32_t output_zero_point;
};

int out_size(const Layer& l, int in) { return l.same ? (in + l.stride - 1) / l.stride : (in - l.k) / l.stride + 1; }

// Each layer on an input of its own into an output of its own: per-channel symmetric weights in [-127, 127] (with
// refuse_raw, each unit's first two -5 and -128, which the raw form cannot hold), biases, scales that let the
// clamps bite.
ModelSpec conv_model(const std::vector<Layer>& layers, uint32_t seed, bool refuse_raw) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> weight(-127, 127), bias(-3000, 3000);
  std::uniform_real_distribution<float> weight_scale(0.004f, 0.01f);
  ModelSpec m;
  for (const Layer& l : layers) {
    const int32_t base = static_cast<int32_t>(m.tensors.size());
    const std::string id = std::to_string(m.ops.size());
    const int window = l.fc ? l.c : l.k * l.k * l.c;
    const float in_scale = 0.05f;
    std::vector<float> w_scales, b_scales;
    for (int u = 0; u < l.oc; ++u) {
      w_scales.push_back(weight_scale(rng));
      b_scales.push_back(in_scale * w_scales.back());
    }
    std::vector<int8_t> w(static_cast<size_t>(l.oc * window));
    std::vector<int32_t> b(static_cast<size_t>(l.oc));
    for (int8_t& v : w) v = static_cast<int8_t>(weight(rng));
    for (int u = 0; u < l.oc && refuse_raw; ++u) {
      w[static_cast<size_t>(u * window)] = -5;
      w[static_cast<size_t>(u * window + 1)] = -128;
    }
    for (int32_t& v : b) v = bias(rng);
    using Shape = std::vector<int32_t>;
    const Shape in_shape = l.fc ? Shape{l.h, l.c} : Shape{1, l.h, l.w, l.c};
    const Shape out_shape = l.fc ? Shape{l.h, l.oc} : Shape{1, out_size(l, l.h), out_size(l, l.w), l.oc};
    const Shape w_shape = l.fc ? Shape{l.oc, l.c} : Shape{l.oc, l.k, l.k, l.c};
    m.tensors.push_back(tflite_test::activation("x" + id, in_shape, in_scale, -5));
    TensorSpec weights = tflite_test::constant("w" + id, tflite::TensorType::INT8, w_shape, w_scales, bytes_of(w));
    weights.axis = 0;
    m.tensors.push_back(weights);
    m.tensors.push_back(tflite_test::constant("b" + id, tflite::TensorType::INT32, {l.oc}, b_scales, bytes_of(b)));
    m.tensors.push_back(tflite_test::activation("y" + id, out_shape, 0.08f, l.output_zero_point));
    m.ops.push_back(matmul_layer_op(l.fc, base, l.same, l.stride, l.act));
    m.inputs.push_back(base);
    m.outputs.push_back(base + 3);
  }
  return m;
}

// Output widths 9 (three triples), 7 (a lone last pixel), 5 (a last pair), 4 (two pairs), 2 and 1 (no triple);
// windows of 27, 36, 72, 99, 112 and 144 elements (7, 9, 18, 25, 28, 36 groups: remainders 3, 1, 2, 1, 0, 0 of
// four), those of row runs of 24 and 48 bytes read in place where they lie inside the image; windows
// past one chunk (two chunks of up to 368 elements, 92 groups, and 189 + 188 of 756) at every width's split, odd
// and even units, gathered (3x3 over 81 and 84 channels, padded) and pixel ones (1x1 over 660 to 704 channels, a
// FULLY_CONNECTED over 650), kept below 800 elements so that the raw form's sums bound holds; units 1 to 16 (a
// convolution of any channel count is packed); 1x1 layers and FULLY_CONNECTED ones of 3 to 5 batches (pixel
// windows, read in place); a narrow stem of one channel (windows gathered from padded rows).
const std::vector<Layer> kLayers = {
    {false, 9, 9, 3, 16, 3, 1, true, AF::NONE, 3},        // 27: 9 triples a row
    {false, 7, 7, 4, 9, 3, 1, true, AF::RELU6, -128},     // 36, a lone pixel a row, odd units, clamped
    {false, 6, 10, 8, 6, 3, 2, true, AF::NONE, -2},       // 72, stride 2: 5 pixels, a last pair
    {false, 5, 7, 11, 11, 3, 1, false, AF::RELU, -20},    // 99 "valid": 5 pixels, odd units
    {false, 4, 4, 7, 4, 4, 1, true, AF::NONE, 0},         // 112, 4x4 filter
    {false, 6, 8, 16, 10, 3, 1, true, AF::NONE, 5},       // 144: interior triples widened in place, rows of 48
    {false, 7, 12, 8, 9, 3, 2, true, AF::RELU, -7},       // 72, stride 2: a triple a row in place, rows of 24
    {false, 3, 9, 81, 9, 3, 1, true, AF::NONE, 4},        // 729: two chunks, three triples a row, odd units
    {false, 2, 7, 81, 4, 3, 1, true, AF::NONE, -1},       // 729, a lone pixel a row
    {false, 3, 5, 84, 11, 3, 1, true, AF::RELU6, -128},   // 756, a last pair, odd units, clamped
    {false, 2, 4, 81, 8, 3, 1, true, AF::NONE, 2},        // 729, two pairs a row
    {false, 2, 6, 700, 9, 1, 1, false, AF::NONE, 6},      // 1x1 over 700: two chunks in place, two triples a row
    {false, 2, 7, 660, 5, 1, 1, false, AF::RELU, -30},    // 1x1 over 660, a lone pixel, odd units
    {false, 1, 4, 704, 8, 1, 1, false, AF::NONE, 0},      // 1x1 over 704, two pairs
    {true, 5, 0, 650, 9, 0, 0, false, AF::NONE, 7},       // FULLY_CONNECTED over 650: a triple and a pair
    {false, 5, 8, 24, 6, 1, 1, false, AF::NONE, 1},       // 1x1: 8 pixels a row
    {false, 4, 7, 17, 9, 1, 1, false, AF::RELU6, -128},   // 1x1, odd depth and units, clamped
    {false, 2, 2, 16, 4, 1, 1, false, AF::NONE, 0},       // 1x1, rows of 2: no triple
    {true, 3, 0, 40, 8, 0, 0, false, AF::NONE, -3},       // one triple of batches
    {true, 5, 0, 21, 9, 0, 0, false, AF::RELU, -10},      // a triple and a pair, odd units
    {false, 12, 3, 1, 2, 3, 1, true, AF::RELU, -6},       // a narrow stem of one channel: padded rows, one pair
    {false, 8, 5, 2, 1, 3, 2, true, AF::NONE, 8},         // one output channel, stride 2: the lone unit alone
    {false, 6, 6, 8, 3, 1, 1, false, AF::RELU6, -128},    // 1x1 to three channels: a pair and a lone unit
};

// Benches the model with `options` and checks every layer ran bit-exact on `kernel`, or at `balanced` on its raw
// form where the layer has the units that form asks (kPackedRawMinUnits, 8) and the weights it can hold.
void expect_bit_exact(const std::vector<std::string>& options, bool refuse_raw, const std::string& kernel) {
  const std::string dir = make_temp_dir();
  const json r = bench_random(conv_model(kLayers, 37, refuse_raw), dir, 41, options);
  ASSERT_TRUE(r.contains("per_op"));
  EXPECT_TRUE(r["outputs_bit_exact"].get<bool>()) << options.back();
  ASSERT_EQ(r["per_op"].size(), kLayers.size());
  for (const json& row : r["per_op"]) {
    const bool raw = options.back() == "balanced" && !refuse_raw && kLayers.at(row["op_index"].get<size_t>()).oc >= 8;
    EXPECT_EQ(row["kernel"], raw ? kernel + "_raw" : kernel) << options.back() << " op " << row["op_index"];
    std::cout << options.back() << " op " << row["op_index"] << ": " << row["instructions"] << " instructions, "
              << row["instructions_per_mac"] << " per MAC\n";
  }
  remove_dir(dir);
}

TEST(PackedRows3M4, KxkLayersRunBitExactThreePixelsAtATime) {
  MICROAOT_REQUIRE_QEMU();
  expect_bit_exact({"--optimize", "speed"}, false, "microaot_conv_2d_s8_packed_kxk_w16");
  expect_bit_exact({"--optimize", "balanced"}, false, "microaot_conv_2d_s8_packed_kxk");
  expect_bit_exact({"--optimize", "balanced"}, true, "microaot_conv_2d_s8_packed_kxk");
}

}  // namespace
}  // namespace microaot::e2e
