// UNIDIRECTIONAL_SEQUENCE_LSTM handler: TFLM's Prepare-time multipliers (power-of-two scales, so the expected
// mantissas and shifts are exact by hand), the stacked weights, the zero points folded into the biases, the
// cell tanh rescale, and every refusal TFLM's kernel makes (peephole, projection, layer norm, activation,
// state, cell scale).
#include <gtest/gtest.h>

#include <cstring>

#include "ops/unary_test_util.h"
#include "ops/lowering_test_util.h"
#include "ops/unidirectional_sequence_lstm.h"
#include "microaot/kernels/lstm.h"
#include "target/target.h"

namespace microaot {
namespace {

Tensor tensor(const char* name, DType type, std::vector<int32_t> shape, float scale, int64_t zp) {
  return spec_tensor(name, type, {std::move(shape), scale, zp});
}

template <typename V>
Tensor constant(const char* name, DType type, std::vector<int32_t> shape, float scale, std::vector<V> values) {
  Tensor t = tensor(name, type, std::move(shape), scale, 0);
  t.is_constant = true;
  const auto* bytes = reinterpret_cast<const uint8_t*>(values.data());
  t.data.assign(bytes, bytes + values.size() * sizeof(V));
  return t;
}

template <typename W>
Tensor weights(const char* name, DType type, std::vector<int32_t> shape, float scale, std::vector<int> values) {
  return constant<W>(name, type, std::move(shape), scale, std::vector<W>(values.begin(), values.end()));
}

// Batch-major, 1 batch, 2 steps, input 3, state 2 (time-major: the input [2, 1, 3]). int8: input scale 1/2
// (zero point 1), input weights 2^-10, hidden 2^-7 (zero point -1), recurrent weights 2^-8, cell 2^-11; int16
// the same with zero points 0 and int64 biases; float unquantized. Gate g's input weights are rows
// [g+1, 2, 3] and [0, 0, 1]; its bias [100 g, -5]; recurrent weights [[1, 1], [0, -2]].
Graph lstm_graph(DType act = DType::kInt8, float cell_scale = 1.0f / 2048, bool time_major = false) {
  const bool is_float = act == DType::kFloat32, int8 = act == DType::kInt8;
  const float q = is_float ? 0.0f : 1.0f;  // scales multiply by q: 0 leaves float tensors unquantized
  const int64_t zp = int8 ? 1 : 0;
  Graph g;
  g.tensors.push_back(tensor("x", act, time_major ? std::vector<int32_t>{2, 1, 3} : std::vector<int32_t>{1, 2, 3},
                             q * 0.5f, zp));
  std::vector<int> inputs(24, kNoTensor);
  inputs[0] = 0;
  for (int gate = 0; gate < 4; ++gate) {
    const std::vector<int> wi = {gate + 1, 2, 3, 0, 0, 1}, wr = {1, 1, 0, -2}, b = {100 * gate, -5};
    inputs[1 + gate] = static_cast<int>(g.tensors.size());
    g.tensors.push_back(is_float ? weights<float>("wi", act, {2, 3}, 0, wi)
                                 : weights<int8_t>("wi", DType::kInt8, {2, 3}, 1.0f / 1024, wi));
    inputs[5 + gate] = static_cast<int>(g.tensors.size());
    g.tensors.push_back(is_float ? weights<float>("wr", act, {2, 2}, 0, wr)
                                 : weights<int8_t>("wr", DType::kInt8, {2, 2}, 1.0f / 256, wr));
    inputs[12 + gate] = static_cast<int>(g.tensors.size());
    g.tensors.push_back(is_float ? weights<float>("b", act, {2}, 0, b)
                        : int8   ? weights<int32_t>("b", DType::kInt32, {2}, 0.5f / 1024, b)
                                 : weights<int64_t>("b", DType::kInt64, {2}, 0.5f / 1024, b));
  }
  inputs[18] = static_cast<int>(g.tensors.size());
  g.tensors.push_back(tensor("h", act, {1, 2}, q / 128, -zp));
  inputs[19] = static_cast<int>(g.tensors.size());
  g.tensors.push_back(tensor("c", is_float ? act : DType::kInt16, {1, 2}, q * cell_scale, 0));
  g.tensors[inputs[18]].is_persistent = g.tensors[inputs[19]].is_persistent = true;
  g.tensors.push_back(tensor("y", act, {g.tensors[0].shape[0], g.tensors[0].shape[1], 2}, q / 128, -zp));
  LstmOptions options;
  options.activation = tflite::ActivationFunctionType::TANH;
  options.cell_clip = 0.5f;
  options.time_major = time_major;
  g.ops.push_back(Op{OpKind::UnidirectionalSequenceLstm, 0, 1, inputs, {static_cast<int>(g.tensors.size()) - 1},
                     options});
  g.inputs = {0};
  g.outputs = {g.ops[0].outputs[0]};
  return g;
}
Graph int8_lstm(float cell_scale = 1.0f / 2048) { return lstm_graph(DType::kInt8, cell_scale); }

std::vector<int32_t> int32_values(const Tensor& t) {
  std::vector<int32_t> v(t.data.size() / 4);
  std::memcpy(v.data(), t.data.data(), t.data.size());
  return v;
}

TEST(LstmHandler, Int8MultipliersAndCellParams) {
  const KernelCall call = lower_for_test(int8_lstm());
  EXPECT_EQ(call.info().function(), "microaot_unidirectional_sequence_lstm_s8");
  const auto f = param_text(call);
  EXPECT_EQ(f.at("batches"), "1");
  EXPECT_EQ(f.at("time_steps"), "2");
  EXPECT_EQ(f.at("time_major"), "0");
  const auto a = param_arrays(call);
  // input side: 2^-1 * 2^-10 * 2^12 = 2 = 2^30 * 2^(2 - 31); recurrent: 2^-7 * 2^-8 * 2^12 = 2^-3.
  EXPECT_EQ(a.at("gate_multiplier"), std::vector<int64_t>(8, 1 << 30));
  EXPECT_EQ(a.at("gate_shift"), (std::vector<int64_t>{2, 2, 2, 2, -2, -2, -2, -2}));
  EXPECT_EQ(f.at("forget_shift"), "-14");  // 2^-15
  EXPECT_EQ(f.at("input_shift"), "-18");   // 2^-30 / 2^-11
  EXPECT_EQ(f.at("hidden_shift"), "-22");  // 2^-30 / 2^-7
  EXPECT_EQ(f.at("hidden_zero_point"), "-1");
  EXPECT_EQ(f.at("hidden_min"), "-128");
  EXPECT_EQ(f.at("cell_clip"), "1024");           // 0.5 / 2^-11
  EXPECT_EQ(f.at("cell_tanh_multiplier"), "6");   // 15 - 11 - 3 = 1: 3 << 1
  EXPECT_EQ(f.at("cell_tanh_shift"), "0");
  EXPECT_EQ(call.scratch_bytes, 4 * 1 * 2 * 2);  // four int16 buffers of one row
}

TEST(LstmHandler, StacksWeightsAndFoldsZeroPoints) {
  const Graph g = int8_lstm();
  const KernelCall call = op_handler(g.ops[0].kind).lower(g, g.ops[0]);
  ASSERT_EQ(call.derived.size(), 3u);
  EXPECT_EQ(call.derived[0].shape, (std::vector<int32_t>{8, 3}));
  EXPECT_EQ(static_cast<int8_t>(call.derived[0].data[2 * 6]), 3);  // gate 2's first weight
  // Input side: bias - 1 * row sum; gate g row 0 sums g + 6, row 1 sums 1. Recurrent side: +1 * row sum.
  EXPECT_EQ(int32_values(call.derived[2]),
            (std::vector<int32_t>{-6, -6, 100 - 7, -6, 200 - 8, -6, 300 - 9, -6, 2, -2, 2, -2, 2, -2, 2, -2}));
}

TEST(LstmHandler, SixteenByEightAndFloatAndTimeMajor) {
  const KernelCall s16 = lower_for_test(lstm_graph(DType::kInt16));
  EXPECT_EQ(s16.info().function(), "microaot_unidirectional_sequence_lstm_s16");
  EXPECT_EQ(param_text(s16).at("hidden_min"), "-32768");
  EXPECT_EQ(param_text(s16).at("hidden_zero_point"), "0");
  const KernelCall f32 = lower_for_test(lstm_graph(DType::kFloat32, 0, /*time_major=*/true));
  EXPECT_EQ(f32.info().function(), "microaot_unidirectional_sequence_lstm_f32");
  const auto f = param_text(f32);
  EXPECT_EQ(f.at("time_major"), "1");
  EXPECT_EQ(f.at("batches"), "1");
  EXPECT_EQ(f.at("time_steps"), "2");
  EXPECT_EQ(f.at("cell_clip"), "0x1p-1f");
  EXPECT_EQ(f32.scratch_bytes, 4 * 1 * 2 * 4);  // four float buffers of the step's one row
  // The float biases: the input side's, then zeros for the recurrent side.
  const Graph g = lstm_graph(DType::kFloat32, 0);
  const KernelCall call = op_handler(g.ops[0].kind).lower(g, g.ops[0]);
  std::vector<float> bias(call.derived[2].data.size() / 4);
  std::memcpy(bias.data(), call.derived[2].data.data(), call.derived[2].data.size());
  EXPECT_EQ(bias, (std::vector<float>{0, -5, 100, -5, 200, -5, 300, -5, 0, 0, 0, 0, 0, 0, 0, 0}));
}

TEST(LstmHandler, RefusesWhatTflmRefuses) {
  Graph peephole = int8_lstm();
  peephole.ops[0].inputs[10] = 1;
  EXPECT_TRUE(refuses(peephole, "cell-to-forget peephole weights are not supported"));
  Graph projection = int8_lstm();
  projection.ops[0].inputs[16] = 1;
  EXPECT_TRUE(refuses(projection, "projection weights are not supported"));
  Graph layer_norm = int8_lstm();
  layer_norm.ops[0].inputs[22] = 1;
  EXPECT_TRUE(refuses(layer_norm, "cell layer norm coefficients are not supported"));
  Graph relu = int8_lstm();
  std::any_cast<LstmOptions&>(relu.ops[0].options).activation = tflite::ActivationFunctionType::RELU;
  EXPECT_TRUE(refuses(relu, "cell gate activation RELU is not supported"));
  Graph stateless = int8_lstm();
  stateless.tensors[stateless.ops[0].inputs[19]].is_persistent = false;
  EXPECT_TRUE(refuses(stateless, "input 19 'c'"));
  EXPECT_TRUE(refuses(int8_lstm(0.001f), "scale must be a power of two"));
  Graph hybrid = int8_lstm();
  hybrid.tensors[0].dtype = DType::kFloat32;
  EXPECT_TRUE(refuses(hybrid, "input 1"));  // float input with int8 weights
}

}  // namespace
}  // namespace microaot

namespace microaot {
namespace {

// The chooser: on a DSP target the packed kernel over each side's weights re-laid in the target's form (int16
// words at speed, the raw form of the int8 ones at balanced where it is exact, else int8 words), its scratch;
// without the extension the portable kernel.
TEST(LstmHandler, DspTargetsTakeThePackedKernel) {
  Graph g = int8_lstm();
  KernelCall call = lower_in_place_for_test(g, parse_target("cortex-m4"));
  EXPECT_EQ(call.info().function(), "microaot_unidirectional_sequence_lstm_s8_packed_w16");
  EXPECT_EQ(call.specialisation.rfind("packed: the four gates as one product per side, weights int16", 0), 0u)
      << call.specialisation;
  // 4 gates x state 2 = 8 units: 4 pairs x 1 group of the depth 3 x 4 words (int16 form)
  EXPECT_EQ(g.tensor(call.args[1]).num_elements(), 4 * 1 * 4);
  EXPECT_EQ(call.scratch_bytes, MICROAOT_LSTM_PACKED_SCRATCH_BYTES(1, 3, 2));
  Graph balanced_graph = int8_lstm();
  Target balanced = parse_target("cortex-m4");
  balanced.optimize_balanced = true;
  const Graph lowered = int8_lstm();
  const KernelCall stacked = op_handler(lowered.ops[0].kind).lower(lowered, lowered.ops[0]);
  call = lower_in_place_for_test(balanced_graph, balanced);
  EXPECT_EQ(call.info().function(), "microaot_unidirectional_sequence_lstm_s8_packed_raw");
  EXPECT_NE(call.specialisation.find("weights int8 (raw form)"), std::string::npos) << call.specialisation;
  EXPECT_EQ(balanced_graph.tensor(call.args[2]).num_elements(), 4 * 1 * 2);
  // the raw form's biases: 256 times, plus 256 * 127 times the unit's weights at odd positions (1 of depth 3 or 2)
  const std::vector<int32_t> bias = int32_values(stacked.derived[2]);
  const std::vector<int32_t> raw = int32_values(balanced_graph.tensor(call.args[3]));
  ASSERT_EQ(raw.size(), 16u);
  for (size_t u = 0; u < 16; ++u) {
    const Tensor& weights = stacked.derived[u / 8];
    const auto odd = static_cast<int8_t>(weights.data[(u % 8) * static_cast<size_t>(weights.shape[1]) + 1]);
    EXPECT_EQ(raw[u], 256 * bias[u] + 256 * 127 * odd) << "unit " << u;
  }
  // a weight -128 after a negative one (its raw byte would be -129): the int8 words
  Graph odd_weights = int8_lstm();
  odd_weights.tensor(odd_weights.ops[0].inputs[1]).data[0] = static_cast<uint8_t>(-1);
  odd_weights.tensor(odd_weights.ops[0].inputs[1]).data[1] = static_cast<uint8_t>(-128);
  EXPECT_EQ(lower_in_place_for_test(odd_weights, balanced).info().function(),
            "microaot_unidirectional_sequence_lstm_s8_packed");
  Graph plain = int8_lstm();
  EXPECT_EQ(lower_in_place_for_test(plain, parse_target("cortex-m4+nodsp")).info().function(),
            "microaot_unidirectional_sequence_lstm_s8");
}

}  // namespace
}  // namespace microaot
