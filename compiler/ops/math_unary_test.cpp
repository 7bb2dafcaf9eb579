// Math handlers (ABS, NEG, RSQRT, ..., LOGICAL_NOT): the stem per type, TFLM's multipliers for the quantized
// ABS and RSQRT (expected values computed independently in Python from the float scales), and refusals.
#include <gtest/gtest.h>

#include <cctype>
#include <string>

#include "ops/unary_test_util.h"

namespace microaot {
namespace {

TEST(MathHandler, FloatOnlyOperatorsCallTheirFloatKernel) {
  const OpKind kinds[] = {OpKind::Neg, OpKind::Sqrt, OpKind::Square, OpKind::Exp, OpKind::Log, OpKind::Sin,
                          OpKind::Cos, OpKind::Floor, OpKind::Ceil, OpKind::Round, OpKind::Abs, OpKind::Rsqrt};
  for (OpKind kind : kinds) {
    SCOPED_TRACE(op_kind_name(kind));
    const KernelCall call = lower_for_test(unary_graph(kind, DType::kFloat32, {{2, 3}}, {{2, 3}}));
    std::string stem = op_kind_name(kind);
    for (char& c : stem) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    EXPECT_EQ(call.info().function(), "microaot_" + stem + "_f32");
    EXPECT_EQ(call.args, (std::vector<int>{0, 1}));
    EXPECT_EQ(param_text(call).at("size"), "6");
    EXPECT_TRUE(refuses(unary_graph(kind, DType::kInt32, {{2}}, {{2}}), "type int32 is not supported"));
  }
  EXPECT_TRUE(refuses(unary_graph(OpKind::Exp, DType::kInt8, {{2}, 0.1f, 0}, {{2}, 0.1f, 0}),
                      "type int8 is not supported"));
}

TEST(MathHandler, LogicalNotTakesBool) {
  const KernelCall call = lower_for_test(unary_graph(OpKind::LogicalNot, DType::kBool, {{5}}, {{5}}));
  EXPECT_EQ(call.info().function(), "microaot_logical_not_bool");
  EXPECT_TRUE(refuses(unary_graph(OpKind::LogicalNot, DType::kFloat32, {{5}}, {{5}}), "not supported"));
}

TEST(MathHandler, AbsInt8RescalesByTheFloatRatioOfScales) {
  // 0.05f / 0.03f in float, then QuantizeMultiplier: 1789569792 * 2^(1 - 31).
  const KernelCall call = lower_for_test(unary_graph(OpKind::Abs, DType::kInt8, {{4}, 0.05f, 3}, {{4}, 0.03f, -10}));
  EXPECT_EQ(call.info().function(), "microaot_abs_s8");
  const auto f = param_text(call);
  EXPECT_EQ(f.at("input_offset"), "-3");
  EXPECT_EQ(f.at("output_multiplier"), "1789569792");
  EXPECT_EQ(f.at("output_shift"), "1");
  EXPECT_EQ(f.at("output_offset"), "-10");
  EXPECT_EQ(f.at("activation_min"), "-128");
  EXPECT_EQ(f.at("activation_max"), "127");
}

TEST(MathHandler, AbsInt16MayBeUnquantizedOrSymmetric) {
  const KernelCall plain = lower_for_test(unary_graph(OpKind::Abs, DType::kInt16, {{4}}, {{4}}));
  const auto f = param_text(plain);
  EXPECT_EQ(f.at("output_multiplier"), "1073741824");  // exactly 1: 2^30 * 2^(1 - 31)
  EXPECT_EQ(f.at("output_shift"), "1");
  EXPECT_EQ(f.at("activation_max"), "32767");
  EXPECT_TRUE(refuses(unary_graph(OpKind::Abs, DType::kInt16, {{4}, 0.1f, 4}, {{4}, 0.1f, 0}),
                      "int16 tensors must be symmetric"));
}

TEST(MathHandler, RsqrtMultiplierIsOneOverSqrtInputScaleTimesOutputScale) {
  const KernelCall call =
      lower_for_test(unary_graph(OpKind::Rsqrt, DType::kInt8, {{4}, 0.02f, -128}, {{4}, 0.1f, -128}));
  EXPECT_EQ(call.info().function(), "microaot_rsqrt_s8");
  const auto f = param_text(call);
  EXPECT_EQ(f.at("output_multiplier"), "1186328359");
  EXPECT_EQ(f.at("output_shift"), "7");
  EXPECT_EQ(lower_for_test(unary_graph(OpKind::Rsqrt, DType::kInt16, {{4}, 0.001f, 0}, {{4}, 0.01f, 0}))
                .info()
                .function(),
            "microaot_rsqrt_s16");
  // 1 / (sqrt(100) * 500) = 2^-12.3: its shift minus the kernel's 20 fraction bits passes 31.
  EXPECT_TRUE(refuses(unary_graph(OpKind::Rsqrt, DType::kInt8, {{4}, 100.0f, 0}, {{4}, 500.0f, 0}), "below 2^-12"));
}

TEST(MathHandler, RefusesMismatchedShapesTypesAndVersions) {
  EXPECT_TRUE(refuses(unary_graph(OpKind::Sqrt, DType::kFloat32, {{2, 3}}, {{7}}), "element"));
  EXPECT_TRUE(refuses(unary_graph(OpKind::Abs, DType::kInt8, {{4}, 0.1f, 0}, DType::kInt16, {{4}, 0.1f, 0}),
                      "output 0"));
  Graph versioned = unary_graph(OpKind::Sin, DType::kFloat32, {{4}}, {{4}});
  versioned.ops[0].version = 2;
  EXPECT_TRUE(refuses(versioned, "version 2 is not supported"));
}

TEST(MathHandler, MayWriteOverItsInputAndCountsOneOpPerElement) {
  const Graph g = unary_graph(OpKind::Exp, DType::kFloat32, {{2, 5}}, {{2, 5}});
  const std::vector<InPlaceOption> options = op_handler(OpKind::Exp).in_place(g, g.ops[0]);
  ASSERT_EQ(options.size(), 1u);
  EXPECT_EQ(options[0].input, 0);
  EXPECT_EQ(op_handler(OpKind::Exp).macs(g, g.ops[0]), 10);
}

}  // namespace
}  // namespace microaot
