// LOGISTIC and TANH handlers: TFLM's int8 Q4.27 multiplier and radius, its int16 input multiplier for
// power-of-two and other scales, the sigmoid table (against entries of TFLM's table), and the fixed output
// quantization it requires. Expected values from Python.
#include <gtest/gtest.h>

#include <cmath>

#include "ops/unary.h"
#include "ops/unary_test_util.h"

namespace microaot {
namespace {

TEST(LogisticHandler, Int8Q427MultiplierAndRadius) {
  const KernelCall call =
      lower_for_test(unary_graph(OpKind::Logistic, DType::kInt8, {{6}, 0.1f, 5}, {{6}, 1.0f / 256, -128}));
  EXPECT_EQ(call.info().function(), "microaot_logistic_s8");
  const auto f = param_text(call);
  EXPECT_EQ(f.at("input_zero_point"), "5");
  EXPECT_EQ(f.at("input_multiplier"), "1717986944");  // 0.1f * 2^27 = 0.8 * 2^24
  EXPECT_EQ(f.at("input_shift"), "24");
  EXPECT_EQ(f.at("input_range_radius"), "120");  // floor(15 * 2^27 / 2^24)
  const KernelCall tanh =
      lower_for_test(unary_graph(OpKind::Tanh, DType::kInt8, {{6}, 0.1f, 5}, {{6}, 1.0f / 128, 0}));
  EXPECT_EQ(tanh.info().function(), "microaot_tanh_s8");
  EXPECT_EQ(param_text(tanh).at("input_range_radius"), "120");
}

TEST(LogisticHandler, Int16InputMultipliers) {
  const auto fields = [](OpKind kind, float scale) {
    return param_text(lower_for_test(unary_graph(kind, DType::kInt16, {{6}, scale, 0}, {{6}, 1.0f / 32768, 0})));
  };
  // 2^-12: a power of two with shift 0, the multiplier 3.
  EXPECT_EQ(fields(OpKind::Logistic, 1.0f / 4096).at("input_multiplier"), "3");
  // 2^-11: TANH's special case 3 << 1; LOGISTIC doubles 6 until above 2^14 - 1/2: 24576 with shift 12.
  EXPECT_EQ(fields(OpKind::Tanh, 1.0f / 2048).at("input_multiplier"), "6");
  EXPECT_EQ(fields(OpKind::Tanh, 1.0f / 2048).at("input_shift"), "0");
  EXPECT_EQ(fields(OpKind::Logistic, 1.0f / 2048).at("input_multiplier"), "24576");
  EXPECT_EQ(fields(OpKind::Logistic, 1.0f / 2048).at("input_shift"), "12");
  // 0.0003 * 4096 * 3 = 3.6864, doubled 13 times and truncated.
  EXPECT_EQ(fields(OpKind::Logistic, 0.0003f).at("input_multiplier"), "30198");
  EXPECT_EQ(fields(OpKind::Logistic, 0.0003f).at("input_shift"), "13");
}

TEST(LogisticHandler, SigmoidTableMatchesTflite) {
  const std::vector<int64_t> table = sigmoid_table();
  ASSERT_EQ(table.size(), 256u);
  // Entries of TFLM's sigmoid_table_uint16, minus 32768.
  EXPECT_EQ(table[0], 0);
  EXPECT_EQ(table[1], 33451 - 32768);
  EXPECT_EQ(table[10], 39498 - 32768);
  EXPECT_EQ(table[23], 47369 - 32768);
  EXPECT_EQ(table[255], 32767);
  EXPECT_EQ(table[28], 49975 - 32768);
  // Every entry within 1.5 of the exact value: TFLM's entries are biased by half the interpolation error.
  for (int i = 0; i < 255; ++i) {
    const double sigmoid = 1.0 / (1.0 + std::exp(-i / 24.0));
    EXPECT_NEAR(static_cast<double>(table[i] + 32768), sigmoid * 65536.0, 1.5) << i;
  }
}

TEST(LogisticHandler, RefusesOtherOutputQuantization) {
  EXPECT_TRUE(refuses(unary_graph(OpKind::Logistic, DType::kInt8, {{6}, 0.1f, 5}, {{6}, 1.0f / 256, 0}),
                      "scale 1/256 and zero point -128"));
  EXPECT_TRUE(refuses(unary_graph(OpKind::Tanh, DType::kInt8, {{6}, 0.1f, 5}, {{6}, 1.0f / 256, -128}),
                      "scale 1/128 and zero point 0"));
  EXPECT_TRUE(refuses(unary_graph(OpKind::Tanh, DType::kInt16, {{6}, 0.001f, 0}, {{6}, 1.0f / 16384, 0}),
                      "scale 1/32768"));
  EXPECT_TRUE(refuses(unary_graph(OpKind::Logistic, DType::kInt16, {{6}, 3.0f, 0}, {{6}, 1.0f / 32768, 0}),
                      "input scale is too large"));
}

}  // namespace
}  // namespace microaot
