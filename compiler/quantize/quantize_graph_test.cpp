#include "quantize/quantize_graph.h"

#include <gtest/gtest.h>

#include <cmath>

#include "frontend/tflite_reader.h"
#include "frontend/tflite_test_builder.h"
#include "quantize/tflite_writer.h"
#include "support/diagnostics.h"

namespace microaot {
namespace {
using namespace tflite_test;

// in [1,2] -> FULLY_CONNECTED (weights [2,2], bias [2]) -> h [1,2] -> `next` (reading 3, writing 4) -> out [1,2]
std::vector<uint8_t> float_fc_then(const OpSpec& next, std::vector<float> w = {1.0f, -0.6f, 0.25f, 0.1f},
                                   std::vector<float> b = {0.5f, -0.25f}) {
  ModelSpec m;
  m.tensors = {float_tensor("in", {1, 2}), float_tensor("w", {2, 2}, std::move(w)), float_tensor("b", {2}, std::move(b)),
               float_tensor("h", {1, 2}), float_tensor("out", {1, 2})};
  OpSpec fc = op(9, 1, {0, 1, 2}, {3});
  fc.options_type = tflite::BuiltinOptions::FullyConnectedOptions;
  fc.options = [](flatbuffers::FlatBufferBuilder& fbb) { return tflite::CreateFullyConnectedOptions(fbb).Union(); };
  m.ops = {fc, next};
  m.inputs = {0};
  m.outputs = {4};
  return build_model(m);
}

std::vector<uint8_t> float_fc_softmax() {
  OpSpec softmax = op(25, 1, {3}, {4});
  softmax.options_type = tflite::BuiltinOptions::SoftmaxOptions;
  softmax.options = [](flatbuffers::FlatBufferBuilder& fbb) { return tflite::CreateSoftmaxOptions(fbb, 1.0f).Union(); };
  return float_fc_then(softmax);
}

const std::map<int, Range> kRanges = {{0, {-1.0f, 3.0f}}, {3, {-2.0f, 2.0f}}, {4, {0.0f, 1.0f}}};

// float_fc_softmax quantized with `s` and read back through the writer and microaot's reader.
Graph quantized_fc_softmax(const QuantizeSettings& s) {
  return read_tflite(write_tflite(quantize_graph(read_tflite(float_fc_softmax()), kRanges, s)));
}

TEST(QuantizeGraph, FollowsTfliteConventionsAndRoundTrips) {
  const Graph float_graph = read_tflite(float_fc_softmax());
  const Graph q = quantized_fc_softmax({});
  ASSERT_EQ(q.tensors.size(), 5u);
  const Tensor& in = q.tensor(0);
  EXPECT_EQ(in.dtype, DType::kInt8);
  EXPECT_FLOAT_EQ(in.quant.scale[0], 4.0f / 255.0f);
  EXPECT_EQ(in.quant.zero_point[0], -64);  // round(-128 + 1 / (4 / 255))
  const Tensor& w = q.tensor(1);
  EXPECT_EQ(w.dtype, DType::kInt8);
  ASSERT_EQ(w.quant.scale.size(), 2u);  // per output channel
  EXPECT_FLOAT_EQ(w.quant.scale[0], 1.0f / 127.0f);
  EXPECT_FLOAT_EQ(w.quant.scale[1], 0.25f / 127.0f);
  EXPECT_EQ(constant_values<int8_t>(w), (std::vector<int8_t>{127, -76, 127, 51}));
  const Tensor& b = q.tensor(2);
  EXPECT_EQ(b.dtype, DType::kInt32);
  EXPECT_FLOAT_EQ(b.quant.scale[0], in.quant.scale[0] * w.quant.scale[0]);
  EXPECT_EQ(constant_values<int32_t>(b)[0], static_cast<int32_t>(std::round(0.5 / (b.quant.scale[0]))));
  EXPECT_FLOAT_EQ(q.tensor(4).quant.scale[0], 1.0f / 256.0f);  // softmax's fixed output
  EXPECT_EQ(q.tensor(4).quant.zero_point[0], -128);
  EXPECT_EQ(q.ops[0].kind, OpKind::FullyConnected);
  EXPECT_EQ(q.ops[1].kind, OpKind::Softmax);
}

// RELU6's int8 kernel clamps in its input's units without rescaling: the output must share the input's
// parameters, whatever range calibration measured for it.
TEST(QuantizeGraph, Relu6SharesItsInputsParameters) {
  ModelSpec m;
  m.tensors = {float_tensor("in", {1, 4}), float_tensor("out", {1, 4})};
  m.ops = {op(21, 1, {0}, {1})};
  m.inputs = {0};
  m.outputs = {1};
  const Graph q = quantize_graph(read_tflite(build_model(m)), {{0, {-3.0f, 9.0f}}, {1, {0.0f, 6.0f}}}, {});
  EXPECT_EQ(q.tensor(1).quant.scale, q.tensor(0).quant.scale);
  EXPECT_EQ(q.tensor(1).quant.zero_point, q.tensor(0).quant.zero_point);
  EXPECT_FLOAT_EQ(q.tensor(0).quant.scale[0], 12.0f / 255.0f);
}

TEST(QuantizeGraph, PerTensorWeights) {
  QuantizeSettings s;
  s.per_channel = false;
  const Graph q = quantized_fc_softmax(s);
  EXPECT_EQ(q.tensor(1).quant.scale, std::vector<float>{1.0f / 127.0f});
}

TEST(QuantizeGraph, FloatInterfaceAddsQuantizeAndDequantize) {
  QuantizeSettings s;
  s.input_type = s.output_type = DType::kFloat32;
  const Graph q = quantized_fc_softmax(s);
  ASSERT_EQ(q.ops.size(), 4u);
  EXPECT_EQ(q.ops.front().kind, OpKind::Quantize);
  EXPECT_EQ(q.ops.back().kind, OpKind::Dequantize);
  EXPECT_EQ(q.tensor(q.inputs[0]).dtype, DType::kFloat32);
  EXPECT_EQ(q.tensor(q.inputs[0]).name, "in");
  EXPECT_EQ(q.tensor(0).name, "in_int8");
  EXPECT_EQ(q.tensor(q.outputs[0]).dtype, DType::kFloat32);
}

// 16x8 (TFLite's convention): int16 activations symmetric with zero point 0, int8 weights, int64 bias,
// softmax's output 1/32768 with zero point 0, the int16 operator versions.
TEST(QuantizeGraph, Int16ActivationsFollowTflites16x8Conventions) {
  QuantizeSettings s;
  s.activations = s.input_type = s.output_type = DType::kInt16;
  const Graph q = quantized_fc_softmax(s);
  const Tensor& in = q.tensor(0);
  EXPECT_EQ(in.dtype, DType::kInt16);
  EXPECT_FLOAT_EQ(in.quant.scale[0], 3.0f / 32767.0f);  // max(|-1|, |3|) / 32767
  EXPECT_EQ(in.quant.zero_point[0], 0);
  EXPECT_EQ(q.tensor(1).dtype, DType::kInt8);
  const Tensor& b = q.tensor(2);
  ASSERT_EQ(b.dtype, DType::kInt64);
  EXPECT_FLOAT_EQ(b.quant.scale[1], in.quant.scale[0] * q.tensor(1).quant.scale[1]);
  EXPECT_EQ(constant_values<int64_t>(b)[1], static_cast<int64_t>(std::round(-0.25 / b.quant.scale[1])));
  EXPECT_EQ(q.tensor(3).quant.zero_point[0], 0);
  EXPECT_FLOAT_EQ(q.tensor(3).quant.scale[0], 2.0f / 32767.0f);
  EXPECT_FLOAT_EQ(q.tensor(4).quant.scale[0], 1.0f / 32768.0f);
  EXPECT_EQ(q.tensor(4).quant.zero_point[0], 0);
  EXPECT_EQ(q.ops[0].version, 7);  // FULLY_CONNECTED int16 x int8
  EXPECT_EQ(q.ops[1].version, 3);  // SOFTMAX int16
}

// uint8 I/O as TFLite's converter writes it: a QUANTIZE uint8 -> int8 in front and int8 -> uint8 behind, the
// uint8 tensors with the int8 scale and the zero point moved by 128.
TEST(QuantizeGraph, Uint8InterfaceRequantizesAtTheBoundary) {
  QuantizeSettings s;
  s.input_type = s.output_type = DType::kUInt8;
  const Graph q = quantized_fc_softmax(s);
  ASSERT_EQ(q.ops.size(), 4u);
  EXPECT_EQ(q.ops.front().kind, OpKind::Quantize);
  EXPECT_EQ(q.ops.back().kind, OpKind::Quantize);
  const Tensor& in = q.tensor(q.inputs[0]);
  EXPECT_EQ(in.dtype, DType::kUInt8);
  EXPECT_EQ(in.quant.scale, q.tensor(0).quant.scale);
  EXPECT_EQ(in.quant.zero_point[0], q.tensor(0).quant.zero_point[0] + 128);
  EXPECT_EQ(q.tensor(q.outputs[0]).quant.zero_point[0], 0);  // softmax's -128 + 128
}

// int8 I/O of a 16x8 model: QUANTIZE int8 -> int16 in front and int16 -> int8 behind, int8 parameters from
// the calibrated ranges. uint8 has no kernel to or from int16 and is refused.
TEST(QuantizeGraph, Int8InterfaceOfAnInt16Model) {
  QuantizeSettings s;
  s.activations = DType::kInt16;
  const Graph q = quantized_fc_softmax(s);
  ASSERT_EQ(q.ops.size(), 4u);
  EXPECT_EQ(q.ops.front().version, 2);  // QUANTIZE to int16
  EXPECT_EQ(q.tensor(q.inputs[0]).dtype, DType::kInt8);
  EXPECT_FLOAT_EQ(q.tensor(q.inputs[0]).quant.scale[0], 4.0f / 255.0f);
  EXPECT_EQ(q.tensor(0).name, "in_int16");
  EXPECT_EQ(q.tensor(q.outputs[0]).dtype, DType::kInt8);
  s.input_type = DType::kUInt8;
  EXPECT_THROW(quantize_graph(read_tflite(float_fc_softmax()), kRanges, s), CompileError);
}

// --activations mixed: SOFTMAX (op 1) kept int16 reads its int8 input through a QUANTIZE int8 -> int16
// and the int8 output interface gets a QUANTIZE int16 -> int8 behind.
TEST(QuantizeGraph, MixedConvertsAtTheInt8Int16Boundaries) {
  QuantizeSettings s;
  s.int16_ops = {1};
  const Graph q = quantized_fc_softmax(s);
  ASSERT_EQ(q.ops.size(), 4u);
  EXPECT_EQ(q.ops[0].kind, OpKind::FullyConnected);
  EXPECT_EQ(q.tensor(3).dtype, DType::kInt8);
  ASSERT_EQ(q.ops[1].kind, OpKind::Quantize);
  EXPECT_EQ(q.ops[1].inputs[0], 3);
  const Tensor& wide = q.tensor(q.ops[1].outputs[0]);
  EXPECT_EQ(wide.dtype, DType::kInt16);
  EXPECT_FLOAT_EQ(wide.quant.scale[0], 2.0f / 32767.0f);
  EXPECT_EQ(q.ops[2].kind, OpKind::Softmax);
  EXPECT_EQ(q.ops[2].inputs[0], q.ops[1].outputs[0]);
  EXPECT_FLOAT_EQ(q.tensor(4).quant.scale[0], 1.0f / 32768.0f);
  EXPECT_EQ(q.ops[3].kind, OpKind::Quantize);
  EXPECT_EQ(q.tensor(q.outputs[0]).dtype, DType::kInt8);
}

// A dead channel (weights ~1e-30, bias 0.35) in 16x8: its widened weight scale keeps the rescale factor
// input x weight / output above 2^-31, which TFLite's QuantizeMultiplier would make 0 (the output lost;
// vww_mobilenet has two such channels).
TEST(QuantizeGraph, DeadChannelKeepsAUsableRescaleIn16x8) {
  QuantizeSettings s;
  s.activations = s.input_type = s.output_type = DType::kInt16;
  const std::vector<uint8_t> model =
      float_fc_then(op(47, 1, {3}, {4}), {1.0f, -0.6f, 2e-30f, 1e-30f}, {0.5f, 0.35f});  // then EXP (kept float)
  const Graph q = quantize_graph(read_tflite(model), kRanges, s);
  const double rescale = static_cast<double>(q.tensor(0).quant.scale[0]) * q.tensor(1).quant.scale[1] /
                         q.tensor(3).quant.scale[0];
  EXPECT_GE(rescale, std::ldexp(1.0, -31));
  EXPECT_LE(std::llabs(constant_values<int64_t>(q.tensor(2))[1]), int64_t{1} << 30);
}

TEST(QuantizeGraph, MissingRangeIsNamed) {
  std::map<int, Range> partial = kRanges;
  partial.erase(3);
  try {
    quantize_graph(read_tflite(float_fc_softmax()), partial, {});
    FAIL() << "no error";
  } catch (const CompileError& e) {
    EXPECT_NE(std::string(e.what()).find("'h'"), std::string::npos) << e.what();
  }
}

TEST(QuantizeGraph, AlreadyQuantizedModelIsRefused) {
  try {
    check_quantizable(read_tflite(build_model(small_fc_model())), false);
    FAIL() << "no error";
  } catch (const CompileError& e) {
    EXPECT_NE(std::string(e.what()).find("already quantized"), std::string::npos) << e.what();
  }
}

std::vector<uint8_t> float_fc_exp() { return float_fc_then(op(47, 1, {3}, {4})); }  // EXP

TEST(QuantizeGraph, StrictRefusesAnOperatorWithoutInt8Rule) {
  const Graph g = read_tflite(float_fc_exp());
  EXPECT_NO_THROW(check_quantizable(g, false));
  EXPECT_EQ(float_ops(g), std::vector<int>{1});
  try {
    check_quantizable(g, true);
    FAIL() << "no error";
  } catch (const CompileError& e) {
    EXPECT_NE(std::string(e.what()).find("EXP (op 1)"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("--strict"), std::string::npos) << e.what();
  }
}

// Without --strict EXP stays float32: a DEQUANTIZE in front, and the int8 output a QUANTIZE behind.
TEST(QuantizeGraph, OperatorWithoutInt8RuleIsKeptFloat) {
  const std::map<int, Range> ranges = {{0, {-1.0f, 3.0f}}, {3, {-2.0f, 2.0f}}, {4, {0.0f, 7.4f}}};
  const Graph q = read_tflite(write_tflite(quantize_graph(read_tflite(float_fc_exp()), ranges, {})));
  ASSERT_EQ(q.ops.size(), 4u);
  EXPECT_EQ(q.ops[0].kind, OpKind::FullyConnected);
  EXPECT_EQ(q.tensor(3).dtype, DType::kInt8);
  EXPECT_EQ(q.ops[1].kind, OpKind::Dequantize);
  EXPECT_EQ(q.ops[2].kind, OpKind::Exp);
  EXPECT_EQ(q.tensor(q.ops[2].inputs[0]).dtype, DType::kFloat32);
  EXPECT_EQ(q.tensor(4).dtype, DType::kFloat32);
  EXPECT_EQ(q.ops[3].kind, OpKind::Quantize);
  const Tensor& out = q.tensor(q.outputs[0]);
  EXPECT_EQ(out.dtype, DType::kInt8);
  EXPECT_FLOAT_EQ(out.quant.scale[0], 7.4f / 255.0f);
}

}  // namespace
}  // namespace microaot
