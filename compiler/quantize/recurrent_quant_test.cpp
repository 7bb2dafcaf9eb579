#include "quantize/recurrent_quant.h"

#include <gtest/gtest.h>

#include <cmath>

#include "frontend/tflite_reader.h"
#include "frontend/tflite_test_builder.h"
#include "quantize/quantize_graph.h"
#include "quantize/tflite_writer.h"

namespace microaot {
namespace {
using namespace tflite_test;

// in [1,3] -> SVDF (rank 1: 2 filters over 3 inputs, memory 4, bias, RELU) -> out [1,2]; state [1,8] variable.
Graph float_svdf() {
  ModelSpec m;
  TensorSpec state = float_tensor("state", {1, 8});
  state.variable = true;
  m.tensors = {float_tensor("in", {1, 3}),
               float_tensor("wf", {2, 3}, {0.5f, -1.0f, 0.25f, 2.0f, 0.0f, -0.5f}),
               float_tensor("wt", {2, 4}, {1.0f, 0.5f, -0.25f, 0.125f, -2.0f, 1.0f, 0.0f, 0.5f}),
               float_tensor("b", {2}, {0.1f, -0.2f}),
               state,
               float_tensor("out", {1, 2})};
  OpSpec svdf = op(27, 1, {0, 1, 2, 3, 4}, {5});
  svdf.options_type = tflite::BuiltinOptions::SVDFOptions;
  svdf.options = [](flatbuffers::FlatBufferBuilder& fbb) {
    return tflite::CreateSVDFOptions(fbb, 1, tflite::ActivationFunctionType::RELU).Union();
  };
  m.ops = {svdf};
  m.inputs = {0};
  m.outputs = {5};
  return read_tflite(build_model(m));
}

TEST(RecurrentQuant, SvdfStateHoldsTheInputTimesFeatureWeights) {
  const Graph g = float_svdf();
  const std::vector<std::map<int, std::vector<float>>> runs = {{{0, {1.0f, 2.0f, -4.0f}}}, {{0, {0.0f, 0.0f, 2.0f}}}};
  const auto values = state_values(g, runs);
  ASSERT_EQ(values.count(4), 1u);
  // filter 0: 0.5 - 2 - 1 = -2.5, then 0.5; filter 1: 2 + 2 = 4, then -1
  EXPECT_EQ(values.at(4), (std::vector<float>{-2.5f, 4.0f, 0.5f, -1.0f}));
}

TEST(RecurrentQuant, SvdfFollowsTfliteFullIntegerConventions) {
  const Graph g = float_svdf();
  const std::map<int, Range> ranges = {{0, {-4.0f, 2.0f}}, {5, {0.0f, 3.0f}}, {4, {-2.5f, 4.0f}}};
  const Graph q = read_tflite(write_tflite(quantize_graph(g, ranges, {})));
  const Tensor& wf = q.tensor(1);
  EXPECT_EQ(wf.dtype, DType::kInt8);
  ASSERT_EQ(wf.quant.scale.size(), 1u);  // per tensor: TFLM's SVDF reads one scale
  EXPECT_FLOAT_EQ(wf.quant.scale[0], 2.0f / 127.0f);
  const Tensor& wt = q.tensor(2);
  EXPECT_EQ(wt.dtype, DType::kInt16);
  EXPECT_FLOAT_EQ(wt.quant.scale[0], 2.0f / 512.0f);  // 10 bits
  EXPECT_EQ(constant_values<int16_t>(wt), (std::vector<int16_t>{256, 128, -64, 32, -512, 256, 0, 128}));
  const Tensor& state = q.tensor(4);
  EXPECT_EQ(state.dtype, DType::kInt16);
  EXPECT_TRUE(state.is_persistent);
  EXPECT_EQ(state.quant.zero_point[0], 0);
  EXPECT_FLOAT_EQ(state.quant.scale[0], 4.0f / 32767.0f);
  const Tensor& b = q.tensor(3);
  EXPECT_EQ(b.dtype, DType::kInt32);
  EXPECT_FLOAT_EQ(b.quant.scale[0], state.quant.scale[0] * wt.quant.scale[0]);
  const float bias_scale = b.quant.scale[0];
  EXPECT_EQ(constant_values<int32_t>(b),
            (std::vector<int32_t>{static_cast<int32_t>(std::lround(0.1 / bias_scale)),
                                  static_cast<int32_t>(std::lround(-0.2 / bias_scale))}));
  EXPECT_EQ(q.tensor(5).quant.zero_point[0], -128);  // the RELU: the output's range starts at 0
  EXPECT_EQ(q.ops[0].version, 3);
}

TEST(RecurrentQuant, SvdfStaysInt8InA16x8Model) {
  const std::map<int, Range> ranges = {{0, {-4.0f, 2.0f}}, {5, {0.0f, 3.0f}}, {4, {-2.5f, 4.0f}}};
  QuantizeSettings s;
  s.activations = s.input_type = s.output_type = DType::kInt16;
  const Graph q = read_tflite(write_tflite(quantize_graph(float_svdf(), ranges, s)));
  ASSERT_EQ(q.ops.size(), 3u);  // QUANTIZE int16 -> int8, SVDF, QUANTIZE int8 -> int16
  EXPECT_EQ(q.ops[0].kind, OpKind::Quantize);
  EXPECT_EQ(q.tensor(q.ops[1].inputs[0]).dtype, DType::kInt8);
  EXPECT_EQ(q.tensor(q.ops[1].outputs[0]).dtype, DType::kInt8);
  EXPECT_EQ(q.tensor(q.outputs[0]).dtype, DType::kInt16);
}

TEST(RecurrentQuant, MissingStateRangeIsNamed) {
  const std::map<int, Range> ranges = {{0, {-4.0f, 2.0f}}, {5, {0.0f, 3.0f}}};
  try {
    quantize_graph(float_svdf(), ranges, {});
    FAIL() << "no error";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("state"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace microaot
