// SOFTMAX handler: the Prepare-time constants (hand-derived and computed independently in double), the
// kernel choice per type pair, and the diagnostics for what TFLM rejects.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>

#include "ops/lowering_test_util.h"
#include "ops/op_options.h"
#include "ops/op_handler.h"
#include "support/diagnostics.h"

namespace microaot {
namespace {

Tensor make_tensor(const std::string& name, DType type, std::vector<int32_t> shape, float scale, int64_t zp) {
  Tensor t;
  t.name = name;
  t.dtype = type;
  t.shape = std::move(shape);
  if (scale > 0) {
    t.quant.scale = {scale};
    t.quant.zero_point = {zp};
  }
  return t;
}

// One SOFTMAX op: input tensor 0 -> output tensor 1.
Graph softmax_graph(DType in_type, DType out_type, std::vector<int32_t> shape, float in_scale, float beta,
                    float out_scale, int64_t out_zp, int64_t in_zp = 0) {
  Graph g;
  g.tensors.push_back(make_tensor("x", in_type, shape, in_scale, in_zp));
  g.tensors.push_back(make_tensor("y", out_type, shape, out_scale, out_zp));
  Op op;
  op.kind = OpKind::Softmax;
  op.source_index = 0;
  op.inputs = {0};
  op.outputs = {1};
  op.options = SoftmaxOptions{beta};
  g.ops.push_back(op);
  g.inputs = {0};
  g.outputs = {1};
  return g;
}

std::map<std::string, std::string> lower_fields(const Graph& g, KernelCall* call_out = nullptr) {
  const KernelCall call = lower_for_test(g);
  if (call_out) *call_out = call;
  return param_text(call);
}

std::string check_error(const Graph& g) {
  try {
    op_handler(OpKind::Softmax).check(g, g.ops[0]);
  } catch (const CompileError& e) {
    return e.what();
  }
  return "";
}

TEST(SoftmaxHandler, PowerOfTwoScaleGivesHandDerivedConstants) {
  // 1/16 * 2^26 = 2^22 = 0.5 * 2^23: mantissa 2^30, shift 23; radius floor(31 * 2^26 / 2^23) = 248.
  KernelCall call;
  const auto f = lower_fields(softmax_graph(DType::kInt8, DType::kInt8, {2, 3, 7}, 1.0f / 16, 1.0f, 1.0f / 256, -128),
                              &call);
  EXPECT_EQ(call.info().function(), "microaot_softmax_s8");
  EXPECT_EQ(call.info().params->c_type(), "microaot_softmax_params_s8");
  EXPECT_EQ(call.info().header, "microaot/kernels/softmax.h");
  EXPECT_EQ(call.source, "kernels/portable/softmax_s8.c");
  EXPECT_EQ(call.args, (std::vector<int>{0, 1}));
  EXPECT_EQ(f.at("outer_size"), "6");
  EXPECT_EQ(f.at("depth"), "7");
  EXPECT_EQ(f.at("input_multiplier"), "1073741824");
  EXPECT_EQ(f.at("input_left_shift"), "23");
  EXPECT_EQ(f.at("diff_min"), "-248");
}

TEST(SoftmaxHandler, OpSuiteScalesMatchIndependentDoubleMath) {
  // Values from Python: frexp(float32(beta) * float32(scale) * 2^26), mantissa rounded half away.
  auto f = lower_fields(softmax_graph(DType::kInt8, DType::kInt8, {1, 10}, 0.03551384434103966f, 1.0f, 1.0f / 256,
                                      -128));
  EXPECT_EQ(f.at("input_multiplier"), "1220246400");
  EXPECT_EQ(f.at("input_left_shift"), "22");
  EXPECT_EQ(f.at("diff_min"), "-496");
  f = lower_fields(softmax_graph(DType::kInt8, DType::kInt8, {2, 3, 7}, 0.02006847970187664f, 0.5f, 1.0f / 256, -128));
  EXPECT_EQ(f.at("input_multiplier"), "1379095424");
  EXPECT_EQ(f.at("input_left_shift"), "20");
  EXPECT_EQ(f.at("diff_min"), "-1984");
}

TEST(SoftmaxHandler, LargeBetaCapsTheMultiplier) {
  const auto f = lower_fields(softmax_graph(DType::kInt8, DType::kInt8, {4}, 1.0f, 64.0f, 1.0f / 256, -128));
  EXPECT_EQ(f.at("input_multiplier"), "2147483647");
  EXPECT_EQ(f.at("input_left_shift"), "31");
  EXPECT_EQ(f.at("diff_min"), "0");
}

TEST(SoftmaxHandler, Int16OutputUsesItsOwnKernelWithTheSameConstants) {
  KernelCall call;
  const Graph g = softmax_graph(DType::kInt8, DType::kInt16, {2, 10}, 1.0f / 16, 1.0f, 1.0f / 65536, -32768);
  const auto f = lower_fields(g, &call);
  EXPECT_EQ(call.info().function(), "microaot_softmax_s8_s16");
  EXPECT_EQ(call.info().params->c_type(), "microaot_softmax_params_s8");
  EXPECT_EQ(call.source, "kernels/portable/softmax_s8_s16.c");
  EXPECT_EQ(f.at("input_left_shift"), "23");
}

TEST(SoftmaxHandler, Int16InputUsesTheTablePath) {
  // Multiplier from Python: frexp(float32(scale) * beta / (10 / 65535)), mantissa rounded half away.
  KernelCall call;
  const auto f = lower_fields(
      softmax_graph(DType::kInt16, DType::kInt16, {1, 10}, 0.00035483730607666075f, 1.0f, 1.0f / 32768, 0), &call);
  EXPECT_EQ(call.info().function(), "microaot_softmax_s16");
  EXPECT_EQ(call.info().params->c_type(), "microaot_softmax_params_s16");
  EXPECT_EQ(call.source, "kernels/portable/softmax_s16.c");
  EXPECT_EQ(f.at("input_multiplier"), "1248453731");
  EXPECT_EQ(f.at("input_shift"), "2");
  EXPECT_EQ(lower_fields(softmax_graph(DType::kInt16, DType::kInt16, {2, 3, 7}, 0.0004606821748893708f, 0.5f,
                                       1.0f / 32768, 0))
                .at("input_shift"),
            "1");
  const auto arrays = param_arrays(call);
  ASSERT_EQ(arrays.size(), 2u);
  const std::vector<int64_t>& e = arrays.at("exp_lut");
  const std::vector<int64_t>& r = arrays.at("one_over_one_plus_x_lut");
  ASSERT_EQ(e.size(), 513u);
  ASSERT_EQ(r.size(), 513u);
  // Sampled every 10/512 on [-10, 0] and every 1/512 on [0, 1], in Q0.15 (x 32768), ends clamped to 32767;
  // rounding (1/2) plus the midpoint bias (at most 1) keep each entry within 1.5 of the function.
  EXPECT_EQ(e[512], 32767);
  EXPECT_EQ(r[0], 32767);
  EXPECT_EQ(r[512], 16384);
  int biased = 0;
  for (int i = 0; i < 513; ++i) {
    EXPECT_NEAR(e[i], std::exp(-10.0 + 10.0 * i / 512) * 32768, 1.5) << i;
    EXPECT_NEAR(r[i], 32768 / (1.0 + i / 512.0), 1.5) << i;
    biased += e[i] != std::llround(std::exp(-10.0 + 10.0 * i / 512) * 32768);
  }
  EXPECT_GT(biased, 0);  // the convex exp is interpolated from above: some entries are lowered
}

TEST(SoftmaxHandler, FloatCarriesBeta) {
  KernelCall call;
  const auto f = lower_fields(softmax_graph(DType::kFloat32, DType::kFloat32, {4, 16}, 0, 2.0f, 0, 0), &call);
  EXPECT_EQ(call.info().function(), "microaot_softmax_f32");
  EXPECT_EQ(call.info().params->c_type(), "microaot_softmax_params_f32");
  EXPECT_EQ(f.at("outer_size"), "4");
  EXPECT_EQ(f.at("depth"), "16");
  EXPECT_EQ(f.at("beta"), "0x1p+1f");
}

TEST(SoftmaxHandler, RejectsOutputQuantizationTflmRejects) {
  EXPECT_NE(check_error(softmax_graph(DType::kInt8, DType::kInt8, {10}, 0.1f, 1.0f, 1.0f / 128, -128))
                .find("scale 1/256 and zero point -128"),
            std::string::npos);
  EXPECT_NE(check_error(softmax_graph(DType::kInt8, DType::kInt8, {10}, 0.1f, 1.0f, 1.0f / 256, 0)).find("1/256"),
            std::string::npos);
  EXPECT_NE(check_error(softmax_graph(DType::kInt8, DType::kInt16, {10}, 0.1f, 1.0f, 1.0f / 32768, 0))
                .find("1/65536 and zero point -32768"),
            std::string::npos);
}

TEST(SoftmaxHandler, RejectsUnsupportedTypesAndShapes) {
  const std::string int32 = check_error(softmax_graph(DType::kInt32, DType::kInt32, {10}, 1e-4f, 1.0f, 1e-4f, 0));
  EXPECT_NE(int32.find("SOFTMAX (op 0), input 0 'x' (tensor 0): type int32 is not supported"), std::string::npos)
      << int32;
  const std::string narrowing =
      check_error(softmax_graph(DType::kInt16, DType::kInt8, {10}, 1e-4f, 1.0f, 1.0f / 256, -128));
  EXPECT_NE(narrowing.find("output 0"), std::string::npos) << narrowing;
  EXPECT_NE(check_error(softmax_graph(DType::kInt16, DType::kInt16, {10}, 1e-4f, 1.0f, 1.0f / 65536, 0))
                .find("1/32768 and zero point 0"),
            std::string::npos);
  EXPECT_NE(check_error(softmax_graph(DType::kFloat32, DType::kInt8, {10}, 0, 1.0f, 1.0f / 256, -128)).find("output 0"),
            std::string::npos);
  Graph g = softmax_graph(DType::kFloat32, DType::kFloat32, {2, 5}, 0, 1.0f, 0, 0);
  g.tensors[1].shape = {10};
  EXPECT_NE(check_error(g).find("must have the input's shape"), std::string::npos);
  g = softmax_graph(DType::kFloat32, DType::kFloat32, {}, 0, 1.0f, 0, 0);
  EXPECT_NE(check_error(g).find("at least one dimension"), std::string::npos);
}

TEST(SoftmaxHandler, RejectsBetaOutsideTheFixedPointRange) {
  // 1e-9 * 1e-2 * 2^26 < 1: TFLM's QuantizeMultiplierGreaterThanOne would abort.
  EXPECT_NE(check_error(softmax_graph(DType::kInt8, DType::kInt8, {10}, 1e-2f, 1e-9f, 1.0f / 256, -128)).find("beta"),
            std::string::npos);
  // int16: 6 * 6553.5 > 2^15, the rescaled differences would overflow.
  EXPECT_NE(check_error(softmax_graph(DType::kInt16, DType::kInt16, {10}, 6.0f, 1.0f, 1.0f / 32768, 0))
                .find("too large for the int16 softmax"),
            std::string::npos);
}

TEST(SoftmaxHandler, MacsCountOnePerElement) {
  const Graph g = softmax_graph(DType::kFloat32, DType::kFloat32, {3, 7}, 0, 1.0f, 0, 0);
  EXPECT_EQ(op_handler(OpKind::Softmax).macs(g, g.ops[0]), 21);
}

}  // namespace
}  // namespace microaot
