// CUMSUM handler: the [outer, depth, inner] view of the axis, exclusive / reverse from the options table,
// TFLM's int8 constants (expected values from Python: the Q31 mantissa of 1/2 and of
// 2 * input_scale / (2^20 * output_scale)), and the refusals.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ops/reduce_test_util.h"

namespace microaot {
namespace {

Graph cumsum_graph(DType type, const TensorSpec& in, const std::vector<int32_t>& axes, const TensorSpec& out,
                   bool exclusive, bool reverse) {
  Graph g = axis_graph(OpKind::Cumsum, type, in, axes, type, out);
  read_table_options(g, tflite::BuiltinOptions::CumsumOptions,
                     [&](auto& fbb) { return tflite::CreateCumsumOptions(fbb, exclusive, reverse).Union(); });
  return g;
}

TEST(CumsumHandler, Int8ConstantsAndTheAxisView) {
  const KernelCall call =
      lower_for_test(cumsum_graph(DType::kInt8, {{3, 4, 2}, 0.05f, 9}, {-2}, {{3, 4, 2}, 0.1f, -4}, true, false));
  EXPECT_EQ(call.info().function(), "microaot_cumsum_s8");
  const auto f = param_text(call);
  EXPECT_EQ(f.at("outer"), "3");
  EXPECT_EQ(f.at("depth"), "4");
  EXPECT_EQ(f.at("inner"), "2");
  EXPECT_EQ(f.at("exclusive"), "1");
  EXPECT_EQ(f.at("reverse"), "0");
  EXPECT_EQ(f.at("input_offset"), "-9");
  EXPECT_EQ(f.at("left_shift"), "20");
  EXPECT_EQ(f.at("input_multiplier"), "1073741824");  // 1/2
  EXPECT_EQ(f.at("input_shift"), "0");
  EXPECT_EQ(f.at("output_multiplier"), "1073741824");  // 2 * 0.05f / (2^20 * 0.1f) = 2^-20
  EXPECT_EQ(f.at("output_shift"), "-19");
  EXPECT_EQ(f.at("output_offset"), "-4");
}

TEST(CumsumHandler, FloatReverseAlongTheFirstAxis) {
  const KernelCall call = lower_for_test(cumsum_graph(DType::kFloat32, {{3, 4, 2}}, {0}, {{3, 4, 2}}, false, true));
  EXPECT_EQ(call.info().function(), "microaot_cumsum_f32");
  const auto f = param_text(call);
  EXPECT_EQ(f.at("outer"), "1");
  EXPECT_EQ(f.at("depth"), "3");
  EXPECT_EQ(f.at("inner"), "8");
  EXPECT_EQ(f.at("reverse"), "1");
}

TEST(CumsumHandler, Refusals) {
  EXPECT_TRUE(refuses(cumsum_graph(DType::kFloat32, {{3, 4}}, {0, 1}, {{3, 4}}, false, false),
                      "must hold exactly one axis, holds 2"));
  EXPECT_TRUE(refuses(cumsum_graph(DType::kFloat32, {{3, 4}}, {2}, {{3, 4}}, false, false), "axis 2 is out of range"));
  EXPECT_TRUE(refuses(cumsum_graph(DType::kFloat32, {{3, 4}}, {0}, {{4, 3}}, false, false),
                      "must have the input's shape"));
  EXPECT_TRUE(refuses(cumsum_graph(DType::kInt16, {{3, 4}, 0.5f, 0}, {0}, {{3, 4}, 0.5f, 0}, false, false),
                      "type int16 is not supported"));
  EXPECT_TRUE(refuses(cumsum_graph(DType::kInt8, {{3, 4}, 1.0f, 0}, {0}, {{3, 4}, 1e-6f, 0}, false, false),
                      "the input scale is more than 2^19 times the output scale"));
}

}  // namespace
}  // namespace microaot
