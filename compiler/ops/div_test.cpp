// DIV handler: the stem per type, TFLM's int8 multiplier of input1 scale / (input2 scale * output scale)
// computed in float (expected values computed independently), int32 without quantization and the refusals.
#include <gtest/gtest.h>

#include <string>

#include "ops/binary_test_util.h"
#include "ops/lowering_test_util.h"

namespace microaot {
namespace {

Graph div_graph(DType type, const TensorSpec& a, const TensorSpec& b, const TensorSpec& out,
                Activation act = Activation::kNone) {
  return binary_graph(OpKind::Div, type, a, b, out, act);
}

TEST(DivHandler, Int8MultiplierIsTheFloatRatioOfScales) {
  // DIV/int8_1x4x4x3_same_shape scales; from Python with float32 steps: 1516080640 * 2^(3-31). The same ratio
  // in double would give 1516080598.
  const KernelCall call = lower_for_test(div_graph(DType::kInt8, {{1, 4, 4, 3}, 0.02450159192085266f, 1},
                                                   {{1, 4, 4, 3}, 0.021648334339261055f, -6},
                                                   {{1, 4, 4, 3}, 0.20039524137973785f, -128}, Activation::kRelu));
  EXPECT_EQ(call.info().function(), "microaot_div_s8");
  EXPECT_EQ(call.info().params->c_type(), "microaot_mul_params_q");
  EXPECT_EQ(call.source, "kernels/portable/div_s8.c");
  const auto f = param_text(call);
  EXPECT_EQ(f.at("input1_offset"), "-1");
  EXPECT_EQ(f.at("input2_offset"), "6");
  EXPECT_EQ(f.at("output_multiplier"), "1516080640");
  EXPECT_EQ(f.at("output_shift"), "3");
  EXPECT_EQ(f.at("output_offset"), "-128");
  EXPECT_EQ(f.at("activation_min"), "-128");
}

TEST(DivHandler, FloatAndInt32ClampToTheActivation) {
  const KernelCall f32 = lower_for_test(div_graph(DType::kFloat32, {{2, 5, 3}}, {{3}}, {{2, 5, 3}}, Activation::kRelu));
  EXPECT_EQ(f32.info().function(), "microaot_div_f32");
  EXPECT_EQ(param_text(f32).at("activation_min"), "0x0p+0f");
  EXPECT_EQ(param_arrays(f32).at("input2_strides"), (std::vector<int64_t>{0, 1}));
  const KernelCall s32 = lower_for_test(div_graph(DType::kInt32, {{4}}, {{4}}, {{4}}, Activation::kReluN1To1));
  EXPECT_EQ(s32.info().function(), "microaot_div_s32");
  EXPECT_EQ(param_text(s32).at("activation_min"), "-1");
  EXPECT_EQ(param_text(s32).at("activation_max"), "1");
}

TEST(DivHandler, RefusesWhatTflmRefuses) {
  EXPECT_NE(check_error(div_graph(DType::kInt16, {{4}, 0.1f, 0}, {{4}, 0.1f, 0}, {{4}, 0.1f, 0}))
                .find("DIV (op 2), input 0 'a' (tensor 0): type int16 is not supported"),
            std::string::npos);
  // TFLM's Prepare requires int32 tensors without quantization.
  EXPECT_NE(check_error(div_graph(DType::kInt32, {{4}}, {{4}, 1.0f, 0}, {{4}})).find("input 1 'b' (tensor 1): is int32"),
            std::string::npos);
  // 1 / (1 * 1e-7) = 2^23.25: the kernel's last shift would have to go left.
  EXPECT_NE(check_error(div_graph(DType::kInt8, {{4}, 1.0f, 0}, {{4}, 1.0f, 0}, {{4}, 1e-7f, 0}))
                .find("output 0 'out' (tensor 2): scale is too small"),
            std::string::npos);
  EXPECT_EQ(check_error(div_graph(DType::kInt8, {{4}, 1.0f, 0}, {{4}, 1.0f, 0}, {{4}, 2e-7f, 0})), "");  // 2^22.25
}

}  // namespace
}  // namespace microaot
