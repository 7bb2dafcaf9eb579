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
