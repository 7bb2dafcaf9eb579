// L2_NORMALIZATION handler: rows of the last dimension, the int8 input offset, TFLite's fixed int8 output
// quantization (1/128, zero point 0) required, rank up to 4, and a fused activation refused when read.
#include <gtest/gtest.h>

#include <string>

#include "ops/reduce_test_util.h"
#include "support/diagnostics.h"

namespace microaot {
namespace {

Graph l2_graph(DType type, const TensorSpec& in, const TensorSpec& out) {
  return unary_graph(OpKind::L2Normalization, type, in, out);
}

TEST(L2NormalizationHandler, RowsOfTheLastDimension) {
  const KernelCall call = lower_for_test(l2_graph(DType::kInt8, {{1, 8, 8, 3}, 0.02f, -7}, {{1, 8, 8, 3}, 1.0f / 128, 0}));
  EXPECT_EQ(call.info().function(), "microaot_l2_normalization_s8");
  const auto f = param_text(call);
  EXPECT_EQ(f.at("outer"), "64");
  EXPECT_EQ(f.at("depth"), "3");
  EXPECT_EQ(f.at("input_offset"), "7");
  const KernelCall flat = lower_for_test(l2_graph(DType::kFloat32, {{17}}, {{17}}));
  EXPECT_EQ(flat.info().function(), "microaot_l2_normalization_f32");
  EXPECT_EQ(param_text(flat).at("outer"), "1");
}

TEST(L2NormalizationHandler, Refusals) {
  EXPECT_TRUE(refuses(l2_graph(DType::kInt8, {{2, 3}, 0.02f, 0}, {{2, 3}, 0.01f, 0}),
                      "int8 output needs scale 1/128 and zero point 0"));
  EXPECT_TRUE(refuses(l2_graph(DType::kFloat32, {{1, 1, 2, 2, 3}}, {{1, 1, 2, 2, 3}}), "rank 5 is not supported"));
  EXPECT_TRUE(refuses(l2_graph(DType::kInt16, {{2, 3}, 0.02f, 0}, {{2, 3}, 1.0f / 128, 0}),
                      "type int16 is not supported"));
  Graph relu = l2_graph(DType::kFloat32, {{2, 3}}, {{2, 3}});
  try {
    read_table_options(relu, tflite::BuiltinOptions::L2NormOptions, [](auto& fbb) {
      return tflite::CreateL2NormOptions(fbb, tflite::ActivationFunctionType::RELU).Union();
    });
    ADD_FAILURE() << "a fused RELU was accepted";
  } catch (const CompileError& e) {
    EXPECT_NE(std::string(e.what()).find("a fused activation is not supported"), std::string::npos) << e.what();
  }
  Graph none = l2_graph(DType::kFloat32, {{2, 3}}, {{2, 3}});
  read_table_options(none, tflite::BuiltinOptions::L2NormOptions, [](auto& fbb) {
    return tflite::CreateL2NormOptions(fbb, tflite::ActivationFunctionType::NONE).Union();
  });
  EXPECT_EQ(check_error(none), "");
}

}  // namespace
}  // namespace microaot
