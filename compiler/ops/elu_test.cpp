// ELU handler: float kernel, and the int8 table TFLM builds at Prepare (entries worked out by hand).
#include <gtest/gtest.h>

#include "ops/unary_test_util.h"

namespace microaot {
namespace {

TEST(EluHandler, Int8IsATableOfTheQuantizedFunction) {
  const KernelCall call = lower_for_test(unary_graph(OpKind::Elu, DType::kInt8, {{6}, 0.1f, 0}, {{6}, 0.1f, 0}));
  EXPECT_EQ(call.info().function(), "microaot_lut_s8");
  const std::vector<int64_t> table = param_arrays(call).at("table");
  ASSERT_EQ(table.size(), 256u);
  EXPECT_EQ(table[128 + 5], 5);     // x >= 0: x
  EXPECT_EQ(table[128 + 127], 127);
  EXPECT_EQ(table[128 - 10], -6);   // exp(-1) - 1 = -0.632 -> -6.32 -> -6
  EXPECT_EQ(table[0], -10);         // exp(-12.8) - 1 -> -10.0
}

TEST(EluHandler, FloatAndRefusals) {
  EXPECT_EQ(lower_for_test(unary_graph(OpKind::Elu, DType::kFloat32, {{6}}, {{6}})).info().function(),
            "microaot_elu_f32");
  EXPECT_TRUE(refuses(unary_graph(OpKind::Elu, DType::kInt16, {{6}, 0.1f, 0}, {{6}, 0.1f, 0}),
                      "type int16 is not supported"));
  // 1 / 1e-45 overflows float: the table would hold 0 * inf (found by tools/differential.cpp).
  EXPECT_TRUE(refuses(unary_graph(OpKind::Elu, DType::kInt8, {{6}, 0.1f, 0}, {{6}, 1e-45f, 0}),
                      "scale too small to invert in float"));
}

}  // namespace
}  // namespace microaot
