#include "quantize/cross_layer_equalization.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "frontend/tflite_reader.h"
#include "frontend/tflite_test_builder.h"

namespace microaot {
namespace {
using namespace tflite_test;

// in [1,1,1,2] -> DEPTHWISE_CONV_2D 1x1 (ReLU, or `activation`) -> mid -> CONV_2D 1x1 (2 -> 1) -> out
Graph depthwise_then_conv(tflite::ActivationFunctionType activation) {
  ModelSpec m;
  m.tensors = {float_tensor("in", {1, 1, 1, 2}), float_tensor("dw_w", {1, 1, 1, 2}, {4.0f, 0.5f}),
               float_tensor("dw_b", {2}, {1.0f, -0.5f}), float_tensor("mid", {1, 1, 1, 2}),
               float_tensor("pw_w", {1, 1, 1, 2}, {0.25f, 2.0f}), float_tensor("pw_b", {1}, {0.1f}),
               float_tensor("out", {1, 1, 1, 1})};
  OpSpec dw = op(4, 1, {0, 1, 2}, {3});
  dw.options_type = tflite::BuiltinOptions::DepthwiseConv2DOptions;
  dw.options = [activation](flatbuffers::FlatBufferBuilder& fbb) {
    return tflite::CreateDepthwiseConv2DOptions(fbb, tflite::Padding::VALID, 1, 1, 1, activation).Union();
  };
  OpSpec pw = op(3, 1, {3, 4, 5}, {6});
  pw.options_type = tflite::BuiltinOptions::Conv2DOptions;
  pw.options = [](flatbuffers::FlatBufferBuilder& fbb) { return tflite::CreateConv2DOptions(fbb, tflite::Padding::VALID, 1, 1).Union(); };
  m.ops = {dw, pw};
  m.inputs = {0};
  m.outputs = {6};
  return read_tflite(build_model(m));
}

// relu(w1 x + b1) * w2 for each channel: what the pair computes for input x.
float pair_output(const Graph& g, float x0, float x1) {
  const std::vector<float> w1 = constant_values<float>(g.tensor(1)), b1 = constant_values<float>(g.tensor(2));
  const std::vector<float> w2 = constant_values<float>(g.tensor(4));
  const float x[2] = {x0, x1};
  float sum = 0.1f;
  for (int c = 0; c < 2; ++c) sum += std::max(0.0f, w1[c] * x[c] + b1[c]) * w2[c];
  return sum;
}

TEST(CrossLayerEqualization, EqualRangesAndTheSameFunction) {
  Graph g = depthwise_then_conv(tflite::ActivationFunctionType::RELU);
  const float before = pair_output(g, 0.7f, -3.0f);
  ASSERT_EQ(equalize_depthwise_pairs(g), 1);
  const std::vector<float> w1 = constant_values<float>(g.tensor(1)), w2 = constant_values<float>(g.tensor(4));
  for (int c = 0; c < 2; ++c) EXPECT_FLOAT_EQ(std::fabs(w1[c]), std::fabs(w2[c])) << c;  // sqrt(r1 r2) each
  EXPECT_FLOAT_EQ(w1[0], 1.0f);                                                         // sqrt(4 * 0.25)
  EXPECT_NEAR(pair_output(g, 0.7f, -3.0f), before, 1e-6f);
}

// RELU6 does not commute with a scale: the pair is left as it is.
TEST(CrossLayerEqualization, Relu6PairIsLeftAlone) {
  Graph g = depthwise_then_conv(tflite::ActivationFunctionType::RELU6);
  const std::vector<uint8_t> weights = g.tensor(1).data;
  EXPECT_EQ(equalize_depthwise_pairs(g), 0);
  EXPECT_EQ(g.tensor(1).data, weights);
}

}  // namespace
}  // namespace microaot
