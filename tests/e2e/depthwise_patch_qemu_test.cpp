// The DSP depthwise small-map patch (runtime/kernels/dsp/depthwise_conv_2d_s8_patch.c) on the emulated Cortex-M4
// (label qemu): its inline-asm forms (the widening two pixels a pass and an odd row's last pixel, the rows of
// vertical pairs microaot_dsp_pair_row_s1/_s2 under either clamp, the single window with its byte stores
// dw_patch_window_store8x4, and at `balanced` the run-time group constants microaot_dsp_depthwise_group_at) run
// only on the Arm build; the host unit tests run their C forms, and VWW reaches only even 6x6 and 3x3 maps of
// channels 4k. Here a model of single DEPTHWISE_CONV_2D layers on odd and even maps, strides 1 and 2, "same" and
// "valid", channels 4k and not, the int8 clamp and narrower ones, every layer one the patch takes, runs bit-exact
// with the host build at `speed` and `balanced`.
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
#include "microaot/fit/depthwise_conv_2d.h"

using nlohmann::json;

namespace microaot::e2e {
namespace {

using tflite_test::activation;
using tflite_test::bytes_of;
using tflite_test::constant;
using tflite_test::ModelSpec;
using AF = tflite::ActivationFunctionType;

constexpr int kDepthwiseConv2D = 4;  // builtin code

// One layer: input h x w x c, its strides (height, width), padding and clamp, a k x k filter (3x3 for the patch) of
// dilation d, depth multiplier m (1 for the patch).
struct Layer {
  int h, w, c, stride_h, stride_w;
  bool same;
  AF act;
  int32_t output_zero_point;
  int k = 3, d = 1, m = 1;
};

int output_size(int in, int stride, bool same, int span = 3) {
  return same ? (in + stride - 1) / stride : (in - span) / stride + 1;
}

// Whether the kernel's own rule gives the layer to the patch (what the compiler's chooser also asks).
bool patched(const Layer& l) {
  microaot_depthwise_conv_2d_params_q p{};
  p.filter_height = p.filter_width = 3;
  p.dilation_height = p.dilation_width = 1;
  p.stride_height = l.stride_h, p.stride_width = l.stride_w;
  p.output_height = output_size(l.h, l.stride_h, l.same), p.output_width = output_size(l.w, l.stride_w, l.same);
  p.output_depth = l.c;
  p.depth_multiplier = 1;
  return microaot_fit_depthwise_patched(&p) != 0;
}

// Each layer on an input of its own into an output of its own; per-channel weights (random in [-127, 127]) and
// biases, scales that keep the requantization within the DSP bounds (right shifts) and let the clamps bite.
ModelSpec patch_model(const std::vector<Layer>& layers, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> weight(-127, 127), bias(-4000, 4000);
  std::uniform_real_distribution<float> weight_scale(0.008f, 0.02f);
  ModelSpec m;
  for (const Layer& l : layers) {
    const int32_t base = static_cast<int32_t>(m.tensors.size());
    const std::string id = std::to_string(m.ops.size());
    const float in_scale = 0.05f;
    const int out_c = l.c * l.m;
    std::vector<float> w_scales, b_scales;
    std::vector<int8_t> w(static_cast<size_t>(l.k * l.k * out_c));
    std::vector<int32_t> b(static_cast<size_t>(out_c));
    for (int k = 0; k < out_c; ++k) w_scales.push_back(weight_scale(rng)), b_scales.push_back(in_scale * w_scales.back());
    for (int8_t& v : w) v = static_cast<int8_t>(weight(rng));
    for (int32_t& v : b) v = bias(rng);
    const int span = (l.k - 1) * l.d + 1;
    const int out_h = output_size(l.h, l.stride_h, l.same, span), out_w = output_size(l.w, l.stride_w, l.same, span);
    m.tensors.push_back(activation("x" + id, {1, l.h, l.w, l.c}, in_scale, -3));
    m.tensors.push_back(constant("w" + id, tflite::TensorType::INT8, {1, l.k, l.k, out_c}, w_scales, bytes_of(w)));
    m.tensors.back().axis = 3;
    m.tensors.push_back(constant("b" + id, tflite::TensorType::INT32, {out_c}, b_scales, bytes_of(b)));
    m.tensors.push_back(activation("y" + id, {1, out_h, out_w, out_c}, 0.12f, l.output_zero_point));
    tflite_test::OpSpec o = tflite_test::op(kDepthwiseConv2D, 1, {base, base + 1, base + 2}, {base + 3});
    o.options_type = tflite::BuiltinOptions::DepthwiseConv2DOptions;
    o.options = [l](flatbuffers::FlatBufferBuilder& fbb) {
      return tflite::CreateDepthwiseConv2DOptions(fbb, l.same ? tflite::Padding::SAME : tflite::Padding::VALID,
                                                  l.stride_w, l.stride_h, l.m, l.act, l.d, l.d)
          .Union();
    };
    m.ops.push_back(o);
    m.inputs.push_back(base);
    m.outputs.push_back(base + 3);
  }
  return m;
}

// The patch's paths: widening rows of even and odd width (one pixel: no pair), stride 1 in vertical pairs and an
// odd last row alone, stride 2 in vertical pairs (microaot_dsp_pair_row_s2) and an odd last row alone, another
// stride (rows alone); each single row under the int8 clamp through dw_patch_window_store8x4, under a narrower
// clamp (RELU6, RELU with the zero point inside) through the clamped stores; 4, 8, 12 channels and remainders of
// 2 and 1 (at `speed` those layers keep the full kernel's run-time group constants, the others take _w16's words).
const std::vector<Layer> kLayers = {
    {5, 5, 8, 1, 1, true, AF::NONE, 4},       // odd rows: pairs, then the last row's fused windows
    {5, 5, 4, 1, 1, true, AF::RELU6, -128},   // the same, clamped to [-128, -78]
    {7, 6, 4, 1, 1, false, AF::NONE, -7},     // "valid": 5x4 from 7 rows
    {3, 7, 6, 1, 1, true, AF::RELU, -20},     // rows of 7, a remainder of 2
    {3, 7, 8, 1, 1, true, AF::NONE, 0},       // rows of 7, the int8 clamp
    {5, 1, 4, 1, 1, true, AF::NONE, 9},       // one-pixel rows: the widening's odd pixel alone
    {4, 12, 8, 1, 1, true, AF::RELU6, -128},  // 14 padded columns, even rows
    {3, 3, 5, 1, 1, true, AF::NONE, 2},       // VWW step 25's map, a remainder of 1
    {6, 6, 4, 2, 2, true, AF::NONE, -1},      // VWW step 23's map: padding below and right only
    {6, 6, 8, 2, 2, true, AF::RELU6, -128},   // the same, clamped
    {5, 5, 8, 2, 2, true, AF::NONE, 3},       // stride 2, padding all round, odd rows
    {7, 7, 10, 2, 2, false, AF::NONE, -5},    // stride 2 "valid", a remainder of 2
    {8, 13, 4, 2, 2, false, AF::RELU6, -128}, // 13 columns: 3x6
    {8, 13, 12, 2, 2, false, AF::NONE, 6},    // the same, the int8 clamp
    {2, 5, 4, 2, 2, true, AF::NONE, -2},      // stride 2, one output row
    {6, 5, 4, 2, 1, true, AF::NONE, 1},       // stride 2 down, 1 across: rows alone
    {4, 6, 8, 2, 2, true, AF::RELU, -30},     // stride 2, an even pair of rows, clamped
};

// Benches the model at `optimize` and checks every layer took the patch on the kernel it expects.
void expect_patch_bit_exact(const std::string& optimize) {
  const ModelSpec spec = patch_model(kLayers, 71);
  for (size_t i = 0; i < kLayers.size(); ++i) ASSERT_TRUE(patched(kLayers[i])) << "layer " << i;
  const std::string dir = make_temp_dir(), model = dir + "/model.tflite";
  const json r = bench_random(spec, dir, 73, {"--optimize", optimize});
  ASSERT_TRUE(r.contains("per_op"));
  EXPECT_TRUE(r["outputs_bit_exact"].get<bool>()) << optimize;
  ASSERT_EQ(r["per_op"].size(), kLayers.size());
  for (const json& row : r["per_op"]) {
    const size_t op = row["op_index"].get<size_t>();
    // Whole groups of 4 channels take the groups' words (at speed the widened ones, the patch's _pre rows; at
    // balanced the compact ones), else the full kernel.
    const std::string kernel = kLayers.at(op).c % 4 != 0 ? "microaot_depthwise_conv_2d_s8"
                               : optimize == "speed"     ? "microaot_depthwise_conv_2d_s8_w16"
                                                         : "microaot_depthwise_conv_2d_s8_w8";
    EXPECT_EQ(row["kernel"], kernel) << optimize << " op " << op;
    std::cout << optimize << " op " << op << ": " << row["kernel"].get<std::string>() << ", "
              << row["instructions"] << " instructions\n";
  }
  ASSERT_EQ(run_microaot({"compile", model, "--target", "cortex-m4", "--optimize", optimize, "-o", dir + "/lib"}), 0);
  const std::string info = read_text(dir + "/lib/network_info.txt");
  size_t count = 0;
  for (size_t at = info.find("small-map patch"); at != std::string::npos; at = info.find("small-map patch", at + 1)) {
    ++count;
  }
  EXPECT_EQ(count, kLayers.size()) << info;
  remove_dir(dir);
}

TEST(DepthwisePatchM4, SmallMapsRunBitExactAtSpeed) {
  MICROAOT_REQUIRE_QEMU();
  expect_patch_bit_exact("speed");
}

TEST(DepthwisePatchM4, SmallMapsRunBitExactAtBalanced) {
  MICROAOT_REQUIRE_QEMU();
  expect_patch_bit_exact("balanced");
}

// The general path's strip (dsp/depthwise_conv_2d_s8.c: filters other than 3x3 undilated, through
// microaot_dsp_mac4x2_strip's inline assembly) on the emulated Cortex-M4, bit-exact with the host build: a 5x5
// layer of MobileNetV3's kind and a 3x3 one of dilation 2 (the layers issue 31 measured at 8.27 and 11.38
// instructions per MAC), each under its per-MAC ceiling; and, bit-exact only, a 7x7 "valid" layer at stride 2 with
// a remainder of 2 channels and the RELU6 clamp (an odd last column), a 5x5 layer of dilation 2 wider than one
// tile, and a 1x1 one.
TEST(DepthwiseStripM4, FiveByFiveAndDilatedLayersRunBitExactNearThreeInstructionsPerMac) {
  MICROAOT_REQUIRE_QEMU();
  const std::vector<Layer> layers = {
      {24, 24, 32, 1, 1, true, AF::NONE, 5, 5, 1},     // 5x5, "same"
      {32, 32, 64, 1, 1, true, AF::NONE, 5, 3, 2},     // 3x3, dilation 2
      {17, 15, 10, 2, 2, false, AF::RELU6, -128, 7, 1}, // 7x7 "valid", stride 2
      {14, 60, 8, 1, 1, true, AF::RELU, -20, 5, 2},    // 5x5, dilation 2: tiles of 14 columns
      {6, 7, 12, 1, 1, true, AF::NONE, 3, 1, 1},       // 1x1
  };
  const double ceiling[] = {3.0, 4.0};  // instructions per MAC of the first two (measured 2.90, 3.86)
  const std::string dir = make_temp_dir();
  const json r = bench_random(patch_model(layers, 83), dir, 89, {"--optimize", "speed"});
  ASSERT_TRUE(r.contains("per_op"));
  EXPECT_TRUE(r["outputs_bit_exact"].get<bool>());
  ASSERT_EQ(r["per_op"].size(), layers.size());
  for (const json& row : r["per_op"]) {
    const size_t op = row["op_index"].get<size_t>();
    EXPECT_EQ(row["kernel"], "microaot_depthwise_conv_2d_s8") << "op " << op;
    std::cout << "op " << op << ": " << row["instructions"] << " instructions, " << row["instructions_per_mac"]
              << " per MAC\n";
    if (op < 2) {
      EXPECT_LT(row["instructions_per_mac"].get<double>(), ceiling[op]) << "op " << op;
    }
  }
  remove_dir(dir);
}

// depthwise_conv_2d_s8_multiplier_strip (the template dsp_depthwise_strip.h over microaot_dsp_mac4x2_strip's inline
// assembly, each pixel's word the group's input bytes) on the emulated Cortex-M4, bit-exact with the host build:
// depth multipliers 2 (3x3), 8 (3x3 at stride 2 with RELU: a group's four channels read one input channel) and 3
// (5x5: groups split across two input channels), each under its per-MAC ceiling (the layers ran at 10.0, 10.1 and
// 6.6 before); and, bit-exact only, multiplier 4 with dilation 2 wider than a tile, 5 over a 7x7 "valid" stride-2
// filter with RELU6, 2 over a 1x1 one.
TEST(DepthwiseStripM4, MultiplierLayersRunBitExactNearFourInstructionsPerMac) {
  MICROAOT_REQUIRE_QEMU();
  const std::vector<Layer> layers = {
      {32, 32, 8, 1, 1, true, AF::NONE, 5, 3, 1, 2},     // 3x3, multiplier 2
      {48, 48, 3, 2, 2, true, AF::RELU, -20, 3, 1, 8},   // 3x3 stride 2, multiplier 8
      {20, 20, 16, 1, 1, true, AF::NONE, 3, 5, 1, 3},    // 5x5, multiplier 3
      {12, 70, 2, 1, 1, true, AF::NONE, -1, 3, 2, 4},    // 3x3 dilation 2: tiles
      {15, 13, 3, 2, 2, false, AF::RELU6, -128, 7, 1, 5}, // 7x7 "valid", stride 2
      {6, 7, 5, 1, 1, true, AF::NONE, 2, 1, 1, 2},        // 1x1
  };
  const double ceiling[] = {4.1, 4.6, 3.1};  // instructions per MAC of the first three (measured 3.93, 4.40, 2.96)
  const std::string dir = make_temp_dir();
  const json r = bench_random(patch_model(layers, 97), dir, 101, {"--optimize", "speed"});
  ASSERT_TRUE(r.contains("per_op"));
  EXPECT_TRUE(r["outputs_bit_exact"].get<bool>());
  ASSERT_EQ(r["per_op"].size(), layers.size());
  for (const json& row : r["per_op"]) {
    const size_t op = row["op_index"].get<size_t>();
    EXPECT_EQ(row["kernel"], "microaot_depthwise_conv_2d_s8_multiplier_strip") << "op " << op;
    std::cout << "op " << op << ": " << row["instructions"] << " instructions, " << row["instructions_per_mac"]
              << " per MAC\n";
    if (op < 3) {
      EXPECT_LT(row["instructions_per_mac"].get<double>(), ceiling[op]) << "op " << op;
    }
  }
  remove_dir(dir);
}

}  // namespace
}  // namespace microaot::e2e
