// LEAKY_RELU handler: alpha read from the options table, TFLM's two multipliers computed in float (expected
// values from Python), a negative alpha as a magnitude and a flag, and refusals.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "ops/unary_test_util.h"
#include "tflite_schema_generated.h"

namespace microaot {
namespace {

// The graph with its options read from a LeakyReluOptions table holding `alpha`, as the reader does.
Graph leaky_graph(DType type, const TensorSpec& in, const TensorSpec& out, float alpha) {
  Graph g = unary_graph(OpKind::LeakyRelu, type, in, out);
  flatbuffers::FlatBufferBuilder fbb;
  const auto options = tflite::CreateLeakyReluOptions(fbb, alpha);
  fbb.Finish(tflite::CreateOperator(fbb, 0, 0, 0, tflite::BuiltinOptions::LeakyReluOptions, options.Union()));
  const auto* source = flatbuffers::GetRoot<tflite::Operator>(fbb.GetBufferPointer());
  g.ops[0].options = op_handler(OpKind::LeakyRelu).read_options(g, g.ops[0], *source);
  return g;
}

TEST(LeakyReluHandler, Int8MultipliersForEachSign) {
  const KernelCall call = lower_for_test(leaky_graph(DType::kInt8, {{6}, 0.05f, 0}, {{6}, 0.04f, 5}, -0.2f));
  EXPECT_EQ(call.info().function(), "microaot_leaky_relu_s8");
  const auto f = param_text(call);
  EXPECT_EQ(f.at("identity_multiplier"), "1342177280");  // 0.05f / 0.04f = 1.25
  EXPECT_EQ(f.at("identity_shift"), "1");
  EXPECT_EQ(f.at("alpha_multiplier"), "1073741952");  // |0.05f * -0.2f / 0.04f| ~ 0.25
  EXPECT_EQ(f.at("alpha_shift"), "-1");
  EXPECT_EQ(f.at("alpha_negative"), "1");
  EXPECT_EQ(f.at("output_offset"), "5");
  EXPECT_EQ(f.at("activation_min"), "-128");
}

TEST(LeakyReluHandler, FloatCarriesAlphaAndInt16IsAccepted) {
  const KernelCall call = lower_for_test(leaky_graph(DType::kFloat32, {{6}}, {{6}}, 0.3f));
  EXPECT_EQ(call.info().function(), "microaot_leaky_relu_f32");
  EXPECT_EQ(param_text(call).at("alpha"), c_float_literal(0.3f));
  const KernelCall s16 = lower_for_test(leaky_graph(DType::kInt16, {{6}, 0.001f, 0}, {{6}, 0.001f, 0}, 0.5f));
  EXPECT_EQ(param_text(s16).at("alpha_negative"), "0");
  EXPECT_EQ(param_text(s16).at("activation_max"), "32767");
}

// An ONNX QDQ group's int8 LeakyRelu (onnx_table): the lut kernel over each input's result rounded half to even:
// input scale 0.5, zero point 1, alpha 0.25, output scale 0.25, zero point -3. Input q: x = (q - 1) / 2,
// q - 1 >= 0 gives 2 (q - 1) - 3; below, (q - 1) / 2 - 3 rounded to even: q = 0 gives -0.5 -> 0 -> -3,
// q = -2 gives -1.5 -> -2 -> -5 (TFLM's multipliers round both halves away from zero).
TEST(LeakyReluHandler, OnnxInt8IsATableOfTheResultRoundedToEven) {
  Graph g = unary_graph(OpKind::LeakyRelu, DType::kInt8, {{6}, 0.5f, 1}, {{6}, 0.25f, -3});
  LeakyReluOptions options;
  options.alpha = 0.25f, options.onnx_table = true;
  g.ops[0].options = options;
  const KernelCall call = lower_for_test(g);
  EXPECT_EQ(call.info().function(), "microaot_lut_s8");
  const std::vector<int64_t>& table = call.params.find("table")->integers;
  ASSERT_EQ(table.size(), 256u);
  auto at = [&](int q) { return table[static_cast<size_t>(q + 128)]; };
  EXPECT_EQ(at(1), -3);
  EXPECT_EQ(at(2), -1);
  EXPECT_EQ(at(63), 121);
  EXPECT_EQ(at(127), 127);  // 249, clamped
  EXPECT_EQ(at(0), -3);
  EXPECT_EQ(at(-1), -4);
  EXPECT_EQ(at(-2), -5);
  EXPECT_EQ(at(-128), -67);  // -64.5 -> -64
}

TEST(LeakyReluHandler, RefusesANonFiniteAlpha) {
  try {
    leaky_graph(DType::kFloat32, {{6}}, {{6}}, std::numeric_limits<float>::infinity());
    FAIL() << "an infinite alpha was read";
  } catch (const CompileError& e) {
    EXPECT_NE(std::string(e.what()).find("alpha is not finite"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace microaot
