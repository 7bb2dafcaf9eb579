// EQUAL, NOT_EQUAL, LESS, LESS_EQUAL, GREATER and GREATER_EQUAL handler: a bool output, the stem per operator
// and input type, TFLM's int8 rescale (left shift 8, each scale as a multiplier below one, computed
// independently) and the types and scales TFLM's kernels refuse.
#include <gtest/gtest.h>

#include <string>

#include "ops/binary_test_util.h"
#include "ops/lowering_test_util.h"

namespace microaot {
namespace {

Graph comparison_graph(OpKind kind, DType type, const TensorSpec& a, const TensorSpec& b, const TensorSpec& out) {
  Graph g = binary_graph(kind, type, a, b, out);
  g.tensors[2].dtype = DType::kBool;
  g.tensors[2].quant = {};
  return g;
}

TEST(ComparisonsHandler, Int8InputsAreRescaledByTheirOwnScales) {
  // From Python: 0.05 = 1717986944 * 2^(-4-31), 0.0234 = 1608035712 * 2^(-5-31) (float32 scales).
  const KernelCall call = lower_for_test(
      comparison_graph(OpKind::LessEqual, DType::kInt8, {{1, 4, 5}, 0.05f, 3}, {{5}, 0.0234f, -9}, {{1, 4, 5}}));
  EXPECT_EQ(call.info().function(), "microaot_less_equal_s8");
  EXPECT_EQ(call.info().params->c_type(), "microaot_comparison_params_s8");
  EXPECT_EQ(call.args, (std::vector<int>{0, 1, 2}));
  const auto f = param_text(call);
  EXPECT_EQ(f.at("left_shift"), "8");
  EXPECT_EQ(f.at("input1_offset"), "-3");
  EXPECT_EQ(f.at("input1_multiplier"), "1717986944");
  EXPECT_EQ(f.at("input1_shift"), "-4");
  EXPECT_EQ(f.at("input2_offset"), "9");
  EXPECT_EQ(f.at("input2_multiplier"), "1608035712");
  EXPECT_EQ(f.at("input2_shift"), "-5");
  EXPECT_EQ(param_arrays(call).at("input2_strides"), (std::vector<int64_t>{0, 1}));
}

TEST(ComparisonsHandler, OtherTypesCompareRawValues) {
  const struct {
    OpKind kind;
    DType type;
    const char* function;
  } cases[] = {{OpKind::Equal, DType::kBool, "microaot_equal_bool"},
               {OpKind::NotEqual, DType::kInt64, "microaot_not_equal_s64"},
               {OpKind::Less, DType::kFloat32, "microaot_less_f32"},
               {OpKind::Greater, DType::kInt32, "microaot_greater_s32"},
               {OpKind::GreaterEqual, DType::kFloat32, "microaot_greater_equal_f32"}};
  for (const auto& c : cases) {
    const KernelCall call = lower_for_test(comparison_graph(c.kind, c.type, {{2, 3}}, {{2, 3}}, {{2, 3}}));
    EXPECT_EQ(call.info().function(), c.function);
    EXPECT_EQ(call.info().params->c_type(), "microaot_binary_params");
  }
}

TEST(ComparisonsHandler, RefusesWhatTflmRefuses) {
  // Only EQUAL and NOT_EQUAL take bool; TFLM's kernels take no int16.
  EXPECT_NE(check_error(comparison_graph(OpKind::Less, DType::kBool, {{4}}, {{4}}, {{4}}))
                .find("LESS (op 2), input 0 'a' (tensor 0): type bool is not supported"),
            std::string::npos);
  EXPECT_NE(check_error(comparison_graph(OpKind::Equal, DType::kInt16, {{4}, 0.1f, 0}, {{4}, 0.1f, 0}, {{4}}))
                .find("type int16 is not supported"),
            std::string::npos);
  // The output is bool.
  const Graph same_type = binary_graph(OpKind::Greater, DType::kFloat32, {{4}}, {{4}}, {{4}});
  EXPECT_NE(check_error(same_type).find("output 0 'out' (tensor 2): type float32"), std::string::npos);
  // int8 scales become multipliers below one.
  EXPECT_NE(check_error(comparison_graph(OpKind::Equal, DType::kInt8, {{4}, 1.5f, 0}, {{4}, 0.1f, 0}, {{4}}))
                .find("input 0 'a' (tensor 0): scale must be below 1"),
            std::string::npos);
}

}  // namespace
}  // namespace microaot
