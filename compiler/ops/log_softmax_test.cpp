// LOG_SOFTMAX handler: TFLM's Prepare-time multipliers (expected values from Python: input_scale * 2^26 above
// one, its reverse below one, the radius), rows over the last dimension, and refusals.
#include <gtest/gtest.h>

#include "ops/unary_test_util.h"

namespace microaot {
namespace {

TEST(LogSoftmaxHandler, Int8Multipliers) {
  const KernelCall call = lower_for_test(
      unary_graph(OpKind::LogSoftmax, DType::kInt8, {{2, 3, 10}, 0.1f, 4}, {{2, 3, 10}, 16.0f / 256, 127}));
  EXPECT_EQ(call.info().function(), "microaot_log_softmax_s8");
  const auto f = param_text(call);
  EXPECT_EQ(f.at("outer_size"), "6");
  EXPECT_EQ(f.at("depth"), "10");
  EXPECT_EQ(f.at("input_multiplier"), "1717986944");  // 0.1f * 2^26 = 0.8 * 2^23
  EXPECT_EQ(f.at("input_shift"), "23");
  EXPECT_EQ(f.at("reverse_multiplier"), "1342177260");  // 2^(31 - 23) / 1717986944 = 0.625 * 2^-22
  EXPECT_EQ(f.at("reverse_shift"), "-22");
  EXPECT_EQ(f.at("diff_min"), "-248");  // -floor(31 * 2^26 / 2^23)
}

TEST(LogSoftmaxHandler, FloatAndRefusals) {
  EXPECT_EQ(lower_for_test(unary_graph(OpKind::LogSoftmax, DType::kFloat32, {{4, 5}}, {{4, 5}})).info().function(),
            "microaot_log_softmax_f32");
  EXPECT_TRUE(refuses(unary_graph(OpKind::LogSoftmax, DType::kInt8, {{4}, 0.1f, 0}, {{4}, 1.0f / 256, -128}),
                      "scale 16/256 and zero point 127"));
  EXPECT_TRUE(refuses(unary_graph(OpKind::LogSoftmax, DType::kFloat32, {{4, 5}}, {{5, 4}}), "input's shape"));
  EXPECT_TRUE(refuses(unary_graph(OpKind::LogSoftmax, DType::kFloat32, {{}}, {{}}), "at least one dimension"));
}

}  // namespace
}  // namespace microaot
