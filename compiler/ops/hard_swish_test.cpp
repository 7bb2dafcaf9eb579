// HARD_SWISH handler: TFLM's two Q15 multipliers on the "hires" input scale (expected values from Python:
// float ratios, QuantizeMultiplier, the mantissa rounded to 16 bits) and the output scale it refuses.
#include <gtest/gtest.h>

#include "ops/unary_test_util.h"

namespace microaot {
namespace {

TEST(HardSwishHandler, Int8Q15Multipliers) {
  const KernelCall call =
      lower_for_test(unary_graph(OpKind::HardSwish, DType::kInt8, {{6}, 0.05f, 10}, {{6}, 0.03f, -20}));
  EXPECT_EQ(call.info().function(), "microaot_hard_swish_s8");
  const auto f = param_text(call);
  EXPECT_EQ(f.at("input_zero_point"), "10");
  EXPECT_EQ(f.at("output_zero_point"), "-20");
  EXPECT_EQ(f.at("output_multiplier"), "27307");  // (0.05 / 128) / 0.03 = 0.01302 = 0.8333 * 2^-6
  EXPECT_EQ(f.at("output_shift"), "-6");
  EXPECT_EQ(f.at("reluish_multiplier"), "17476");  // (0.05 / 128) / (3 / 32768) = 4.2667 = 0.5333 * 2^3
  EXPECT_EQ(f.at("reluish_shift"), "3");
}

TEST(HardSwishHandler, FloatAndRefusals) {
  EXPECT_EQ(lower_for_test(unary_graph(OpKind::HardSwish, DType::kFloat32, {{6}}, {{6}})).info().function(),
            "microaot_hard_swish_f32");
  EXPECT_TRUE(refuses(unary_graph(OpKind::HardSwish, DType::kInt8, {{6}, 1.0f, 0}, {{6}, 0.001f, 0}),
                      "output scale must be above input scale / 128"));
  EXPECT_TRUE(refuses(unary_graph(OpKind::HardSwish, DType::kInt16, {{6}, 0.1f, 0}, {{6}, 0.1f, 0}),
                      "type int16 is not supported"));
}

}  // namespace
}  // namespace microaot
