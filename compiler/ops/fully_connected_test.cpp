// FULLY_CONNECTED handler: kernel call fields (shapes, offsets, TFLM's multiplier rounding for per-channel
// and per-tensor weights, activation ranges) and the diagnostics of what it refuses.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "microaot/kernels/packed.h"
#include "ops/op_options.h"
#include "ops/lowering_test_util.h"
#include "ops/op_handler.h"
#include "ops/packed_weights.h"
#include "ops/palette_weights.h"
#include "ops/quant_math.h"
#include "support/diagnostics.h"
#include "target/target.h"

namespace microaot {
namespace {

template <typename T>
std::vector<uint8_t> bytes_of(const std::vector<T>& values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(T));
  if (!values.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

int add_tensor(Graph& g, DType type, std::vector<int32_t> shape, std::vector<float> scales = {},
               std::vector<int64_t> zero_points = {}) {
  Tensor t;
  t.name = "t" + std::to_string(g.tensors.size());
  t.dtype = type;
  t.shape = std::move(shape);
  t.quant.scale = std::move(scales);
  t.quant.zero_point = std::move(zero_points);
  t.source_index = static_cast<int>(g.tensors.size());
  g.tensors.push_back(t);
  return t.source_index;
}

template <typename T>
void make_constant(Graph& g, int id, const std::vector<T>& values) {
  g.tensor(id).is_constant = true;
  g.tensor(id).data = bytes_of(values);
}

struct Fc {
  Graph graph;
  int input = -1, weights = -1, bias = kNoTensor, output = -1;
  Op& op() { return graph.ops[0]; }
};

// int8 FC: input [2,3,12] -> [6 rows of 12] -> 4 units, per-channel weights, int32 bias.
Fc int8_fc(bool per_channel = true, bool with_bias = true) {
  Fc fc;
  Graph& g = fc.graph;
  const float in_scale = 0.0389f;
  std::vector<float> w_scales = {0.011f, 0.0042f, 0.0191f, 0.007f};
  if (!per_channel) w_scales = {0.009f};
  fc.input = add_tensor(g, DType::kInt8, {2, 3, 12}, {in_scale}, {2});
  fc.weights = add_tensor(g, DType::kInt8, {4, 12}, w_scales, std::vector<int64_t>(w_scales.size(), 0));
  std::vector<int8_t> w(48);
  for (size_t i = 0; i < w.size(); ++i) w[i] = static_cast<int8_t>(static_cast<int>(i * 37 % 255) - 127);
  make_constant(g, fc.weights, w);
  if (with_bias) {
    fc.bias = add_tensor(g, DType::kInt32, {4}, {in_scale * w_scales[0]}, {0});
    make_constant(g, fc.bias, std::vector<int32_t>{100, -2000, 35, 0});
  }
  fc.output = add_tensor(g, DType::kInt8, {2, 3, 4}, {0.05f}, {-10});
  FullyConnectedOptions options;
  options.activation = Activation::kRelu6;
  options.keep_num_dims = true;
  g.ops.push_back(Op{OpKind::FullyConnected, 0, 1, {fc.input, fc.weights, fc.bias}, {fc.output}, options});
  return fc;
}

Fc float_fc() {
  Fc fc;
  Graph& g = fc.graph;
  fc.input = add_tensor(g, DType::kFloat32, {3, 10});
  fc.weights = add_tensor(g, DType::kFloat32, {5, 10});
  make_constant(g, fc.weights, std::vector<float>(50, 0.5f));
  fc.output = add_tensor(g, DType::kFloat32, {3, 5});
  g.ops.push_back(Op{OpKind::FullyConnected, 0, 1, {fc.input, fc.weights}, {fc.output}, FullyConnectedOptions{}});
  return fc;
}

std::map<std::string, std::string> fields_of(const KernelCall& call) { return param_text(call); }

std::vector<int64_t> array_of(const KernelCall& call, const std::string& field) {
  const auto arrays = param_arrays(call);
  if (arrays.count(field) == 0) throw std::runtime_error("no array " + field);
  return arrays.at(field);
}

KernelCall checked_lower(Fc& fc) { return lower_for_test(fc.graph, fc.op()); }

// The CompileError text of check(), or "" when it passes.
std::string check_error(Fc& fc) {
  try {
    op_handler(OpKind::FullyConnected).check(fc.graph, fc.op());
  } catch (const CompileError& e) {
    return e.what();
  }
  return "";
}

TEST(FullyConnectedHandler, LowersPerChannelInt8) {
  Fc fc = int8_fc();
  const KernelCall call = checked_lower(fc);
  EXPECT_EQ(call.info().function(), "microaot_fully_connected_s8");
  EXPECT_EQ(call.info().params->c_type(), "microaot_fully_connected_params_q");
  EXPECT_EQ(call.info().header, "microaot/kernels/fully_connected.h");
  EXPECT_EQ(call.source, "kernels/portable/fully_connected_s8.c");
  EXPECT_EQ(call.args, (std::vector<int>{fc.input, fc.weights, fc.bias, fc.output}));
  auto f = fields_of(call);
  EXPECT_EQ(f["batches"], "6");  // keep_num_dims: 2x3 rows
  EXPECT_EQ(f["input_depth"], "12");
  EXPECT_EQ(f["output_depth"], "4");
  EXPECT_EQ(f["input_offset"], "-2");
  EXPECT_EQ(f["filter_offset"], "0");
  EXPECT_EQ(f["output_offset"], "-10");
  EXPECT_EQ(f["activation_min"], "-10");   // RELU6: quantized 0
  EXPECT_EQ(f["activation_max"], "110");   // -10 + 6 / 0.05
  const auto mult = array_of(call, "output_multiplier");
  const auto shift = array_of(call, "output_shift");
  ASSERT_EQ(mult.size(), 4u);
  const auto& scales = fc.graph.tensor(fc.weights).quant.scale;
  for (size_t u = 0; u < 4; ++u) {
    // TFLM's per-channel path: input_scale * filter_scale / output_scale, all in double.
    const QuantizedMultiplier want = quantize_multiplier(static_cast<double>(0.0389f) * scales[u] / 0.05f);
    EXPECT_EQ(mult[u], want.multiplier) << u;
    EXPECT_EQ(shift[u], want.shift) << u;
  }
  EXPECT_NE(mult[0], mult[1]);
}

// With the DSP extension: the packed kernel over derived constants (packed_weights_test.cpp checks the
// layout), int16 weight words (--optimize speed), the output step's table holding the bias with the input zero
// point folded in, and input_offset 0.
TEST(FullyConnectedHandler, PacksWeightsAndFoldsTheInputOffsetForTheDspExtension) {
  Fc fc = int8_fc();
  const KernelCall call = lower_in_place_for_test(fc.graph, parse_target("cortex-m4"));
  EXPECT_EQ(call.info().function(), "microaot_fully_connected_s8_packed_w16");
  EXPECT_EQ(call.specialisation.rfind("packed: 2 rows x 2 units per step, weights int16", 0), 0u)
      << call.specialisation;
  EXPECT_EQ(fields_of(call)["input_offset"], "0");
  const Tensor& packed = fc.graph.tensor(call.args[1]);
  const Tensor& table = fc.graph.tensor(call.args[2]);
  EXPECT_EQ(packed.dtype, DType::kInt32);
  EXPECT_EQ(packed.num_elements(), 2 * 3 * 4);  // 2 unit pairs x 3 groups of four x 4 words
  EXPECT_EQ(call.scratch_bytes, 48);             // two rows of depth 12 widened to int16
  const std::vector<int32_t> bias = {100, -2000, 35, 0};
  ASSERT_EQ(table.num_elements(), 2 * 8);  // 2 unit pairs x MICROAOT_PACKED_STEP_WORDS, the biases first
  for (int u = 0; u < 4; ++u) {
    int32_t sum = 0;  // unit u's weights, as int8_fc() makes them
    for (int k = 0; k < 12; ++k) sum += static_cast<int>((u * 12 + k) * 37 % 255) - 127;
    int32_t got = 0;
    std::memcpy(&got, table.data.data() + 4 * (8 * (u / 2) + u % 2), 4);
    EXPECT_EQ(got, bias[static_cast<size_t>(u)] - 2 * sum) << u;  // input zero point 2
  }
}

// --optimize balanced: the same kernel over int8 weight words, half the flash.
TEST(FullyConnectedHandler, BalancedKeepsInt8PackedWeights) {
  Fc fc = int8_fc();
  Target target = parse_target("cortex-m4");
  target.optimize_balanced = true;
  const KernelCall call = lower_in_place_for_test(fc.graph, target);
  EXPECT_EQ(call.info().function(), "microaot_fully_connected_s8_packed");
  EXPECT_EQ(call.specialisation.rfind("packed: 2 rows x 2 units per step, weights int8", 0), 0u)
      << call.specialisation;
  EXPECT_EQ(fc.graph.tensor(call.args[1]).num_elements(), 2 * 3 * 2);  // 2 unit pairs x 3 groups x 2 words
}

// --optimize balanced with 8 units or more: the raw form of the int8 words (docs/packed-raw-form.md), its table's
// biases 256 times the folded bias plus 256 * 127 * the unit's weights at odd positions; a weight -128 after a
// negative one keeps the int8 words.
Fc int8_fc_of_8_units(int8_t odd_weight) {
  Fc fc;
  Graph& g = fc.graph;
  fc.input = add_tensor(g, DType::kInt8, {1, 6}, {0.04f}, {3});
  fc.weights = add_tensor(g, DType::kInt8, {8, 6}, {0.01f}, {0});
  std::vector<int8_t> w(48);
  for (size_t i = 0; i < w.size(); ++i) w[i] = static_cast<int8_t>(static_cast<int>(i * 37 % 251) - 125);
  w[0] = -5, w[1] = odd_weight;
  make_constant(g, fc.weights, w);
  fc.bias = add_tensor(g, DType::kInt32, {8}, {0.0004f}, {0});
  make_constant(g, fc.bias, std::vector<int32_t>{100, -2000, 35, 0, 7, 8, 9, 10});
  fc.output = add_tensor(g, DType::kInt8, {1, 8}, {0.05f}, {-10});
  g.ops.push_back(Op{OpKind::FullyConnected, 0, 1, {fc.input, fc.weights, fc.bias}, {fc.output}, FullyConnectedOptions{}});
  return fc;
}

TEST(FullyConnectedHandler, BalancedTakesTheRawFormOfInt8Words) {
  Target target = parse_target("cortex-m4");
  target.optimize_balanced = true;
  Fc fc = int8_fc_of_8_units(-128);  // -128 after -5: the byte would be -129
  EXPECT_EQ(lower_in_place_for_test(fc.graph, target).info().function(), "microaot_fully_connected_s8_packed");
  fc = int8_fc_of_8_units(100);
  const KernelCall call = lower_in_place_for_test(fc.graph, target);
  EXPECT_EQ(call.info().function(), "microaot_fully_connected_s8_packed_raw");
  EXPECT_NE(call.specialisation.find("weights int8 (raw form)"), std::string::npos) << call.specialisation;
  const std::vector<int8_t> w = constant_values<int8_t>(int8_fc_of_8_units(100).graph.tensor(fc.weights));
  const std::vector<int32_t> bias = {100, -2000, 35, 0, 7, 8, 9, 10};
  const Tensor& table = fc.graph.tensor(call.args[2]);
  for (int u = 0; u < 8; ++u) {
    int32_t sum = 0, odd = 0;
    for (int k = 0; k < 6; ++k) sum += w[static_cast<size_t>(u * 6 + k)];
    for (int k = 1; k < 6; k += 2) odd += w[static_cast<size_t>(u * 6 + k)];
    int32_t got = 0;
    std::memcpy(&got, table.data.data() + 4 * (8 * (u / 2) + u % 2), 4);
    EXPECT_EQ(got, 256 * (bias[static_cast<size_t>(u)] - 3 * sum) + 256 * 127 * odd) << u;  // input zero point 3
  }
}

// Requantization outside what the packed kernels' output step computes exactly (an output scale below input
// scale x weight scale: a left shift) keeps the unpacked kernel and the model's tensors.
TEST(FullyConnectedHandler, KeepsTheUnpackedKernelOutsideTheOutputStepProof) {
  Fc fc = int8_fc();
  fc.graph.tensor(fc.output).quant.scale = {0.0001f};  // 0.0389 x 0.011 / 0.0001 > 4: a left shift
  const KernelCall call = lower_in_place_for_test(fc.graph, parse_target("cortex-m4"));
  EXPECT_EQ(call.info().function(), "microaot_fully_connected_s8");
  EXPECT_EQ(call.specialisation, kOutsideStepRange);
  EXPECT_EQ(call.scratch_bytes, 0);
  EXPECT_TRUE(call.derived.empty());
  EXPECT_EQ(call.args, (std::vector<int>{fc.input, fc.weights, fc.bias, fc.output}));
  EXPECT_EQ(fields_of(call)["input_offset"], "-2");
}

TEST(FullyConnectedHandler, KeepsTheUnpackedKernelWithoutTheDspExtension) {
  Fc fc = int8_fc();
  const KernelCall call = lower_in_place_for_test(fc.graph, parse_target("cortex-m4+nodsp"));
  EXPECT_EQ(call.info().function(), "microaot_fully_connected_s8");
  EXPECT_EQ(call.specialisation, "not packed: the target has no DSP extension");
  EXPECT_EQ(call.scratch_bytes, 0);
  EXPECT_EQ(call.args, (std::vector<int>{fc.input, fc.weights, fc.bias, fc.output}));
}

TEST(FullyConnectedHandler, PerTensorMultiplierTakesTheScaleProductInFloat) {
  // Find scales where a float product and a double product round to different multipliers, so the test
  // tells the two apart (TFLM's GetQuantizedConvolutionMultipler multiplies the floats first).
  float in_scale = 0.0f, w_scale = 0.009f;
  for (int k = 0; k < 1000 && in_scale == 0.0f; ++k) {
    const float candidate = 0.02f + static_cast<float>(k) * 1.3e-5f;
    const double via_float = static_cast<double>(candidate * w_scale) / 0.05f;
    const double via_double = static_cast<double>(candidate) * w_scale / 0.05f;
    if (quantize_multiplier(via_float).multiplier != quantize_multiplier(via_double).multiplier) in_scale = candidate;
  }
  ASSERT_NE(in_scale, 0.0f);
  Fc fc = int8_fc(/*per_channel=*/false);
  fc.graph.tensor(fc.input).quant.scale = {in_scale};
  fc.graph.tensor(fc.bias).quant.scale = {in_scale * w_scale};
  fc.graph.tensor(fc.weights).quant.zero_point = {3};  // per-tensor weights may be asymmetric
  const KernelCall call = checked_lower(fc);
  const QuantizedMultiplier want = quantize_multiplier(static_cast<double>(in_scale * w_scale) / 0.05f);
  EXPECT_EQ(array_of(call, "output_multiplier"), std::vector<int64_t>(4, want.multiplier));
  EXPECT_EQ(array_of(call, "output_shift"), std::vector<int64_t>(4, want.shift));
  EXPECT_EQ(fields_of(call)["filter_offset"], "-3");
}

TEST(FullyConnectedHandler, LowersFloatWithoutBias) {
  Fc fc = float_fc();
  std::any_cast<FullyConnectedOptions&>(fc.op().options).activation = Activation::kRelu6;
  const KernelCall call = checked_lower(fc);
  EXPECT_EQ(call.info().function(), "microaot_fully_connected_f32");
  EXPECT_EQ(call.info().params->c_type(), "microaot_fully_connected_params_f32");
  EXPECT_EQ(call.source, "kernels/portable/fully_connected_f32.c");
  EXPECT_EQ(call.args, (std::vector<int>{fc.input, fc.weights, kNoTensor, fc.output}));
  EXPECT_TRUE(param_arrays(call).empty());
  auto f = fields_of(call);
  EXPECT_EQ(f["batches"], "3");
  EXPECT_EQ(f["activation_min"], c_float_literal(0.0f));
  EXPECT_EQ(f["activation_max"], c_float_literal(6.0f));
  EXPECT_EQ(op_handler(OpKind::FullyConnected).macs(fc.graph, fc.op()), 3 * 5 * 10);
}

// The int8 FC as 16x8: int16 activations (zero point 0), the same int8 weights, an int64 bias (or int32).
Fc int16_fc(DType bias_type = DType::kInt64, bool per_channel = true) {
  Fc fc = int8_fc(per_channel);
  Graph& g = fc.graph;
  g.tensor(fc.input).dtype = g.tensor(fc.output).dtype = DType::kInt16;
  g.tensor(fc.input).quant = {{0.0003f}, {0}, 0};
  g.tensor(fc.output).quant = {{0.0005f}, {0}, 0};
  g.tensor(fc.bias).dtype = bias_type;
  g.tensor(fc.bias).quant.scale = {0.0003f * g.tensor(fc.weights).quant.scale[0]};
  if (bias_type == DType::kInt64) make_constant(g, fc.bias, std::vector<int64_t>{100, -2000, 35, 0});
  return fc;
}

TEST(FullyConnectedHandler, LowersInt16ToThe16x8Kernels) {
  Fc fc = int16_fc();
  KernelCall call = checked_lower(fc);
  EXPECT_EQ(call.info().function(), "microaot_fully_connected_s16");
  EXPECT_EQ(call.info().params->c_type(), "microaot_fully_connected_params_q");
  EXPECT_EQ(call.source, "kernels/portable/fully_connected_s16.c");
  EXPECT_EQ(call.args, (std::vector<int>{fc.input, fc.weights, fc.bias, fc.output}));
  auto f = fields_of(call);
  EXPECT_EQ(f["input_offset"], "0");
  EXPECT_EQ(f["output_offset"], "0");
  EXPECT_EQ(f["activation_min"], "0");
  EXPECT_EQ(f["activation_max"], "12000");  // relu6: 6 / 0.0005
  const QuantizedMultiplier m = quantize_multiplier(static_cast<double>(0.0003f) * static_cast<double>(0.0042f) / static_cast<double>(0.0005f));
  EXPECT_EQ(array_of(call, "output_multiplier")[1], m.multiplier);
  EXPECT_EQ(array_of(call, "output_shift")[1], m.shift);

  Fc bias32 = int16_fc(DType::kInt32);
  EXPECT_EQ(checked_lower(bias32).info().function(), "microaot_fully_connected_s16_bias32");
  Fc per_tensor = int16_fc(DType::kInt64, /*per_channel=*/false);
  EXPECT_EQ(checked_lower(per_tensor).info().function(), "microaot_fully_connected_s16");
}

// On a DSP target a 16x8 FULLY_CONNECTED of rows of one int32 sum and at least kPackedMinUnits units takes the
// packed 16x8 kernel (int16 weight words at speed, int8 at balanced), the bias and requantization kept.
TEST(FullyConnectedHandler, Int16RowsOfOneSumTakeThePackedKernelOnTheDsp) {
  Fc fc = int16_fc();
  const KernelCall call = lower_in_place_for_test(fc.graph, parse_target("cortex-m4"));
  EXPECT_EQ(call.info().function(), "microaot_fully_connected_s16_packed_w16");
  EXPECT_EQ(fc.graph.tensor(call.args[1]).num_elements(), 2 * 3 * 4);  // 2 unit pairs x 3 groups x 4 words
  EXPECT_EQ(call.args[2], fc.bias);
  EXPECT_EQ(call.scratch_bytes, MICROAOT_PACKED_CHUNK_ROWS_BYTES(12));
  EXPECT_EQ(call.specialisation.rfind("packed 16x8: rows in SMLAD's lane order", 0), 0u) << call.specialisation;
  Fc balanced_fc = int16_fc();
  Target balanced = parse_target("cortex-m4");
  balanced.optimize_balanced = true;
  EXPECT_EQ(lower_in_place_for_test(balanced_fc.graph, balanced).info().function(),
            "microaot_fully_connected_s16_packed");
  Fc m3 = int16_fc();
  EXPECT_EQ(lower_in_place_for_test(m3.graph, parse_target("cortex-m3")).info().function(),
            "microaot_fully_connected_s16");
}

TEST(FullyConnectedHandler, Int16WithoutBiasFollowsQuantizedBiasType) {
  Fc fc = int16_fc();
  fc.op().inputs.pop_back();
  EXPECT_EQ(checked_lower(fc).info().function(), "microaot_fully_connected_s16");
  std::any_cast<FullyConnectedOptions&>(fc.op().options).int32_bias = true;
  EXPECT_EQ(checked_lower(fc).info().function(), "microaot_fully_connected_s16_bias32");
}

TEST(FullyConnectedHandler, Int16Limits) {
  Fc fc = int16_fc();
  make_constant(fc.graph, fc.bias, std::vector<int64_t>{0, 0, int64_t{1} << 47, 0});
  EXPECT_NE(check_error(fc).find("output channel 2 could overflow the 48-bit range of the int64 accumulator"),
            std::string::npos)
      << check_error(fc);
  // Biases at the ends of int64 (a fuzzer finding): refused, the bound saturating instead of overflowing.
  for (int64_t extreme : {std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::min()}) {
    make_constant(fc.graph, fc.bias, std::vector<int64_t>{0, extreme, 0, 0});
    EXPECT_NE(check_error(fc).find("output channel 1 could overflow"), std::string::npos) << check_error(fc);
  }
  // A rescale of 2^8 or more: beyond the 16x8 requantization, fine for the 32-bit one.
  fc = int16_fc();
  fc.graph.tensor(fc.output).quant.scale = {1e-8f};
  try {
    checked_lower(fc);
    ADD_FAILURE() << "lowered a rescale beyond 2^7";
  } catch (const CompileError& e) {
    EXPECT_NE(std::string(e.what()).find("beyond TFLite's 16x8 requantization"), std::string::npos) << e.what();
  }
  fc = int16_fc(DType::kInt32);
  fc.graph.tensor(fc.output).quant.scale = {1e-8f};
  EXPECT_GT(array_of(checked_lower(fc), "output_shift")[0], 7);
}

TEST(FullyConnectedHandler, RefusesWhatTheKernelCannotRun) {
  struct Case {
    const char* what;
    void (*mutate)(Fc&);
    const char* message;
  };
  const Case cases[] = {
      {"int16 x int16",
       [](Fc& fc) {
         fc.graph.tensor(fc.input).dtype = fc.graph.tensor(fc.output).dtype = DType::kInt16;
         fc.graph.tensor(fc.weights).dtype = DType::kInt16;
       },
       "type int16 is not supported here (expected int8)"},
      {"uint8", [](Fc& fc) { fc.graph.tensor(fc.input).dtype = DType::kUInt8; }, "type uint8 is not supported"},
      {"weights computed at run time", [](Fc& fc) { fc.graph.tensor(fc.weights).is_constant = false; },
       "must be a constant"},
      {"output rows", [](Fc& fc) { fc.graph.tensor(fc.output).shape = {2, 3, 5}; }, "rows of 4 units"},
      {"ragged input", [](Fc& fc) { fc.graph.tensor(fc.input).shape = {1, 13}; }, "not a whole number of rows"},
      {"per-channel count", [](Fc& fc) { fc.graph.tensor(fc.weights).quant.scale.pop_back(); },
       "one scale and zero point per unit"},
      {"per-channel zero point", [](Fc& fc) { fc.graph.tensor(fc.weights).quant.zero_point[1] = 4; }, "symmetric"},
      {"bias length", [](Fc& fc) { fc.graph.tensor(fc.bias).shape = {5}; }, "one value per unit"},
      {"bias type", [](Fc& fc) { fc.graph.tensor(fc.bias).dtype = DType::kInt64; }, "type int64 is not supported"},
      {"accumulator overflow",
       [](Fc& fc) { make_constant(fc.graph, fc.bias, std::vector<int32_t>{2147483000, 0, 0, 0}); },
       "output channel 0 could overflow the int32 accumulator"},
      {"keep_num_dims rank", [](Fc& fc) { fc.graph.tensor(fc.output).shape = {6, 4}; }, "keep_num_dims"},
      {"output quantization", [](Fc& fc) { fc.graph.tensor(fc.output).quant.scale.clear(); }, "per-tensor"},
      {"version 8 (sparse weights)", [](Fc& fc) { fc.op().version = 8; }, "version 8 is not supported"},
  };
  for (const Case& c : cases) {
    Fc fc = int8_fc();
    c.mutate(fc);
    const std::string error = check_error(fc);
    EXPECT_NE(error.find("FULLY_CONNECTED (op 0)"), std::string::npos) << c.what << ": " << error;
    EXPECT_NE(error.find(c.message), std::string::npos) << c.what << ": " << error;
  }
}

TEST(FullyConnectedHandler, RefusesUnquantizedHybridWeightsAndBadPerTensorBiasScale) {
  // int8 weights of a float32 op without a scale (hybrid_weights_test.cpp has the rest of the hybrid rules).
  Fc hybrid = float_fc();
  hybrid.graph.tensor(hybrid.weights).dtype = DType::kInt8;
  hybrid.graph.tensor(hybrid.weights).data.resize(50);
  EXPECT_NE(check_error(hybrid).find("need 1 scale or one per output channel (5), got 0"), std::string::npos)
      << check_error(hybrid);

  Fc fc = int8_fc(/*per_channel=*/false);
  fc.graph.tensor(fc.bias).quant.scale = {0.5f};
  EXPECT_NE(check_error(fc).find("scale must equal input scale * weight scale"), std::string::npos)
      << check_error(fc);
}

TEST(FullyConnectedHandler, AcceptsTheOpSuiteVariants) {
  Fc nobias = int8_fc(true, /*with_bias=*/false);
  nobias.op().inputs.pop_back();
  EXPECT_EQ(check_error(nobias), "");
  EXPECT_EQ(checked_lower(nobias).args[2], kNoTensor);
  Fc flat = int8_fc();  // batch > 1 without keep_num_dims
  std::any_cast<FullyConnectedOptions&>(flat.op().options).keep_num_dims = false;
  flat.graph.tensor(flat.output).shape = {6, 4};
  EXPECT_EQ(check_error(flat), "");
}

// Weights of two values per unit: --compress-weights lossless keeps 1-bit indices and a table of two per unit
// instead of the packed words; off keeps the packed kernel, and so does balanced's default on the M4 (palettes
// only through the DSP palette kernel, which takes 1x1 CONV_2D layers alone).
TEST(FullyConnectedHandler, PalettisesWeightsOfFewValuesWhenCompressionIsOn) {
  Fc fc = int8_fc();
  std::vector<int8_t> w(48);
  for (size_t i = 0; i < w.size(); ++i) w[i] = static_cast<int8_t>(i % 3 == 0 ? 40 - static_cast<int>(i / 12) : -7);
  make_constant(fc.graph, fc.weights, w);
  Target target = parse_target("cortex-m4");
  target.optimize_balanced = true;
  EXPECT_EQ(default_compress_bits(target), kLosslessPaletteBits);
  EXPECT_TRUE(default_compress_fast_only(target));
  target.compress_bits = kLosslessPaletteBits;
  Graph graph = fc.graph;
  const KernelCall call = lower_in_place_for_test(graph, target);
  EXPECT_EQ(call.info().function(), "microaot_fully_connected_s8_palette");
  EXPECT_EQ(call.specialisation.rfind("palettised weights: 1-bit indices and 2 values per channel, int8 48 B -> 9 + 8 B", 0),
            0u)
      << call.specialisation;
  EXPECT_EQ(call.scratch_bytes, 12);
  ASSERT_EQ(call.args.size(), 5u);
  EXPECT_EQ(graph.tensor(call.args[1]).dtype, DType::kUInt8);
  EXPECT_EQ(graph.tensor(call.args[2]).dtype, DType::kInt8);
  EXPECT_EQ(call.args[3], fc.bias);
  const PaletteFacts facts = palette_facts(graph, call);
  EXPECT_EQ(facts.bits, 1);
  EXPECT_EQ(facts.int8_bytes, 48);
  EXPECT_EQ(facts.bytes, 17);

  target.compress_fast_only = true;
  Graph fast_only = fc.graph;
  EXPECT_EQ(lower_in_place_for_test(fast_only, target).info().function(), "microaot_fully_connected_s8_packed");
  target.compress_bits = 0;
  target.compress_fast_only = false;
  Graph off = fc.graph;
  EXPECT_EQ(lower_in_place_for_test(off, target).info().function(), "microaot_fully_connected_s8_packed");
}

// 4-bit weights (16 values in all: one shared table) on a DSP target take the pair-table kernel where a palette is
// asked for; at --optimize size (no DSP kernels) the portable one; balanced's default keeps the packed kernel (at
// one batch no palette kernel comes within 1.15x of it).
TEST(FullyConnectedHandler, FourBitPalettesTakeThePairTableKernelOnTheDsp) {
  Fc fc = int8_fc();
  std::vector<int8_t> w(48);
  for (size_t i = 0; i < w.size(); ++i) w[i] = static_cast<int8_t>(static_cast<int>(i % 16) * 5 - 40);
  make_constant(fc.graph, fc.weights, w);
  Target target = parse_target("cortex-m4");
  target.optimize_balanced = true;
  target.compress_bits = kLosslessPaletteBits;
  Graph graph = fc.graph;
  const KernelCall call = lower_in_place_for_test(graph, target);
  EXPECT_EQ(call.info().function(), "microaot_fully_connected_s8_packed_palette");
  EXPECT_EQ(call.scratch_bytes, MICROAOT_FC_PALETTE_PAIRS_BYTES(12));
  EXPECT_NE(call.specialisation.find("4-bit indices and 16 values in one table"), std::string::npos) << call.specialisation;
  EXPECT_NE(call.specialisation.find("a table of their weight pairs for SMLAD (built once)"), std::string::npos);
  const PaletteFacts facts = palette_facts(graph, call);
  EXPECT_EQ(facts.bits, 4);
  EXPECT_TRUE(facts.shared);
  EXPECT_EQ(facts.int8_bytes, 48);
  EXPECT_EQ(facts.bytes, 1 + 4 * 6 + 16);

  target.optimize_balanced = false, target.optimize_size = true;
  Graph size = fc.graph;
  EXPECT_EQ(lower_in_place_for_test(size, target).info().function(), "microaot_fully_connected_s8_palette");
  target.optimize_size = false, target.optimize_balanced = true, target.compress_fast_only = true;
  Graph fast_only = fc.graph;
  const std::string packed = lower_in_place_for_test(fast_only, target).info().function();
  EXPECT_EQ(packed.rfind("microaot_fully_connected_s8_packed", 0), 0u) << packed;
  EXPECT_EQ(packed.find("palette"), std::string::npos) << packed;
}

}  // namespace
}  // namespace microaot
