// Tests of the QUANTIZE and DEQUANTIZE handlers: accepted type pairs, the precomputed constants, and
// the diagnostics for unsupported models.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>

#include "ops/lowering_test_util.h"
#include "ops/op_handler.h"
#include "ops/quant_math.h"
#include "support/diagnostics.h"

namespace microaot {
namespace {

int add_tensor(Graph& g, DType dtype, std::vector<int32_t> shape, std::vector<float> scale = {},
               std::vector<int64_t> zero_point = {}) {
  Tensor t;
  t.name = "t" + std::to_string(g.tensors.size());
  t.dtype = dtype;
  t.shape = std::move(shape);
  t.quant.scale = std::move(scale);
  t.quant.zero_point = std::move(zero_point);
  t.source_index = static_cast<int>(g.tensors.size());
  g.tensors.push_back(t);
  return static_cast<int>(g.tensors.size()) - 1;
}

Op make_op(OpKind kind, int in, int out) {
  Op op;
  op.kind = kind;
  op.source_index = 0;
  op.inputs = {in};
  op.outputs = {out};
  return op;
}

struct Spec {
  Spec(DType d, std::vector<int32_t> s, std::vector<float> sc = {}, std::vector<int64_t> zp = {})
      : dtype(d), shape(std::move(s)), scale(std::move(sc)), zero_point(std::move(zp)) {}
  DType dtype;
  std::vector<int32_t> shape;
  std::vector<float> scale;
  std::vector<int64_t> zero_point;
};

// Adds the input tensor, then the output tensor (so their ids are predictable), and the op between them.
Op unary(Graph& g, OpKind kind, const Spec& in, const Spec& out) {
  const int in_id = add_tensor(g, in.dtype, in.shape, in.scale, in.zero_point);
  const int out_id = add_tensor(g, out.dtype, out.shape, out.scale, out.zero_point);
  return make_op(kind, in_id, out_id);
}

std::map<std::string, std::string> fields(const KernelCall& call) { return param_text(call); }

std::string check_error(const Graph& g, const Op& op) {
  try {
    op_handler(op.kind).check(g, op);
  } catch (const CompileError& e) {
    return e.what();
  }
  return "";
}

TEST(QuantizeHandler, FloatToInt8PassesTheScaleExactly) {
  Graph g;
  const int in = add_tensor(g, DType::kFloat32, {1, 5, 7});
  const int out = add_tensor(g, DType::kInt8, {1, 5, 7}, {0.02f}, {-5});
  const Op op = make_op(OpKind::Quantize, in, out);
  EXPECT_EQ(check_error(g, op), "");
  const KernelCall call = lower_for_test(g, op);
  EXPECT_EQ(call.info().function(), "microaot_quantize_f32_s8");
  EXPECT_EQ(call.info().params->c_type(), "microaot_quantize_params");
  EXPECT_EQ(call.info().header, "microaot/kernels/quantize.h");
  EXPECT_EQ(call.source, "kernels/portable/quantize_f32_s8.c");
  EXPECT_EQ(call.args, (std::vector<int>{in, out}));
  auto f = fields(call);
  EXPECT_EQ(f["size"], "35");
  EXPECT_EQ(std::strtof(f["output_scale"].c_str(), nullptr), 0.02f);  // hex float round-trips
  EXPECT_EQ(f["output_offset"], "-5");
}

TEST(QuantizeHandler, FloatToInt16UsesTheInt16Kernel) {
  Graph g;
  const Op op = unary(g, OpKind::Quantize, {DType::kFloat32, {4, 9}}, {DType::kInt16, {4, 9}, {0.000244140625f}, {0}});
  EXPECT_EQ(check_error(g, op), "");
  EXPECT_EQ(lower_for_test(g, op).info().function(), "microaot_quantize_f32_s16");
}

TEST(QuantizeHandler, Int8ToInt16MultiplierComesFromTheDoubleRatio) {
  Graph g;
  const int in = add_tensor(g, DType::kInt8, {3, 4, 5}, {0.05f}, {7});
  const int out = add_tensor(g, DType::kInt16, {3, 4, 5}, {0.0002f}, {0});
  const Op op = make_op(OpKind::Quantize, in, out);
  EXPECT_EQ(check_error(g, op), "");
  const KernelCall call = lower_for_test(g, op);
  EXPECT_EQ(call.info().function(), "microaot_requantize_s8_s16");
  EXPECT_EQ(call.info().params->c_type(), "microaot_requantize_params");
  EXPECT_EQ(call.source, "kernels/portable/requantize_s8_s16.c");
  auto f = fields(call);
  // The float scales divided in double (TFLM's Prepare), not in float: 250.0000100... -> 2^8 * 0.97656254.
  const QuantizedMultiplier expected = quantize_multiplier(double{0.05f} / double{0.0002f});
  const QuantizedMultiplier from_float = quantize_multiplier(0.05f / 0.0002f);
  ASSERT_NE(expected.multiplier, from_float.multiplier);
  EXPECT_EQ(f["output_multiplier"], std::to_string(expected.multiplier));
  EXPECT_EQ(f["output_shift"], "8");
  EXPECT_EQ(f["input_offset"], "-7");
  EXPECT_EQ(f["output_offset"], "0");
  EXPECT_EQ(f["size"], "60");
  const double real = expected.multiplier * std::ldexp(1.0, expected.shift - 31);
  EXPECT_NEAR(real, 250.0, 1e-4);
}

TEST(QuantizeHandler, Int8ToInt8Requantizes) {
  Graph g;
  const Op op =
      unary(g, OpKind::Quantize, {DType::kInt8, {2, 11}, {0.1f}, {-20}}, {DType::kInt8, {2, 11}, {0.08f}, {5}});
  EXPECT_EQ(check_error(g, op), "");
  const KernelCall call = lower_for_test(g, op);
  EXPECT_EQ(call.info().function(), "microaot_requantize_s8_s8");
  auto f = fields(call);
  EXPECT_EQ(f["input_offset"], "20");
  EXPECT_EQ(f["output_offset"], "5");
  EXPECT_EQ(f["output_shift"], "1");  // 1.25 = 0.625 * 2^1
}

TEST(QuantizeHandler, Int16Uint8AndInt32PairsAreSupported) {
  const std::pair<DType, DType> pairs[] = {{DType::kInt16, DType::kInt8}, {DType::kInt16, DType::kInt16},
                                           {DType::kUInt8, DType::kInt8}, {DType::kInt8, DType::kUInt8},
                                           {DType::kInt8, DType::kInt32},  {DType::kInt16, DType::kInt32},
                                           {DType::kInt32, DType::kInt8},  {DType::kInt32, DType::kInt16}};
  for (const auto& [from, to] : pairs) {
    Graph g;
    const int64_t in_zp = from == DType::kUInt8 ? 128 : 0;
    const int64_t out_zp = to == DType::kUInt8 ? 130 : -2;
    const Op op = unary(g, OpKind::Quantize, {from, {3, 10}, {0.0003f}, {in_zp}}, {to, {3, 10}, {0.05f}, {out_zp}});
    EXPECT_EQ(check_error(g, op), "") << dtype_name(from) << " -> " << dtype_name(to);
    EXPECT_EQ(lower_for_test(g, op).info().function(),
              std::string("microaot_requantize_") + dtype_short_name(from) + "_" + dtype_short_name(to));
  }
}

TEST(QuantizeHandler, RefusesUnsupportedTypePairs) {
  Graph g;
  const Op op = unary(g, OpKind::Quantize, {DType::kFloat32, {4}}, {DType::kInt32, {4}, {0.5f}, {0}});
  const std::string error = check_error(g, op);
  EXPECT_EQ(error.rfind("QUANTIZE (op 0): float32 -> int32 is not supported (supported: float32 -> int8", 0), 0u)
      << error;
}

TEST(QuantizeHandler, RefusesMissingOrPerChannelQuantization) {
  Graph g;
  const int in = add_tensor(g, DType::kFloat32, {2, 3});
  const Op missing = make_op(OpKind::Quantize, in, add_tensor(g, DType::kInt8, {2, 3}));
  EXPECT_NE(check_error(g, missing).find("output 0 't1' (tensor 1): needs per-tensor quantization"),
            std::string::npos)
      << check_error(g, missing);
  const Op per_channel =
      make_op(OpKind::Quantize, in, add_tensor(g, DType::kInt8, {2, 3}, {0.1f, 0.2f, 0.3f}, {0, 0, 0}));
  EXPECT_NE(check_error(g, per_channel).find("per-tensor"), std::string::npos);
  const Op bad_input = unary(g, OpKind::Quantize, {DType::kInt8, {2, 3}}, {DType::kInt8, {2, 3}, {0.1f}, {0}});
  EXPECT_NE(check_error(g, bad_input).find("input 0"), std::string::npos);
  const Op zero_scale = make_op(OpKind::Quantize, in, add_tensor(g, DType::kInt8, {2, 3}, {0.0f}, {0}));
  EXPECT_NE(check_error(g, zero_scale).find("finite and positive"), std::string::npos);
}

TEST(QuantizeHandler, RefusesZeroPointOutsideTheType) {
  Graph g;
  const Op op = unary(g, OpKind::Quantize, {DType::kFloat32, {2}}, {DType::kInt8, {2}, {0.1f}, {200}});
  EXPECT_NE(check_error(g, op).find("zero point 200 is outside the range of int8"), std::string::npos);
  // An int32 zero point is negated into an int32 kernel field: INT32_MIN and beyond are refused.
  const Op wide =
      unary(g, OpKind::Quantize, {DType::kInt32, {2}, {0.1f}, {INT32_MIN}}, {DType::kInt8, {2}, {0.1f}, {0}});
  EXPECT_NE(check_error(g, wide).find("zero point -2147483648 is outside the range of int32"), std::string::npos)
      << check_error(g, wide);
}

TEST(QuantizeHandler, RefusesElementCountMismatchAndLaterVersions) {
  Graph g;
  const Op op = unary(g, OpKind::Quantize, {DType::kFloat32, {2, 3}}, {DType::kInt8, {2, 4}, {0.1f}, {0}});
  EXPECT_NE(check_error(g, op).find("has 8 elements, the input has 6"), std::string::npos);
  Op v4 = make_op(OpKind::Quantize, 0, add_tensor(g, DType::kInt8, {2, 3}, {0.1f}, {0}));
  v4.version = 4;
  EXPECT_NE(check_error(g, v4).find("version 4 is not supported"), std::string::npos);
}

TEST(DequantizeHandler, Int8ToFloat) {
  Graph g;
  const int in = add_tensor(g, DType::kInt8, {2, 3, 4, 2}, {0.1f}, {17});
  const int out = add_tensor(g, DType::kFloat32, {2, 3, 4, 2});
  const Op op = make_op(OpKind::Dequantize, in, out);
  EXPECT_EQ(check_error(g, op), "");
  const KernelCall call = lower_for_test(g, op);
  EXPECT_EQ(call.info().function(), "microaot_dequantize_s8_f32");
  EXPECT_EQ(call.info().params->c_type(), "microaot_dequantize_params");
  EXPECT_EQ(call.info().header, "microaot/kernels/quantize.h");
  EXPECT_EQ(call.source, "kernels/portable/dequantize_s8_f32.c");
  EXPECT_EQ(call.args, (std::vector<int>{in, out}));
  auto f = fields(call);
  EXPECT_EQ(f["size"], "48");
  EXPECT_EQ(std::strtof(f["input_scale"].c_str(), nullptr), 0.1f);
  EXPECT_EQ(f["input_offset"], "-17");
}

TEST(DequantizeHandler, Int16ToFloat) {
  Graph g;
  const Op op = unary(g, OpKind::Dequantize, {DType::kInt16, {4, 9}, {0.0004f}, {0}}, {DType::kFloat32, {4, 9}});
  EXPECT_EQ(check_error(g, op), "");
  EXPECT_EQ(lower_for_test(g, op).info().function(), "microaot_dequantize_s16_f32");
}

TEST(DequantizeHandler, RefusesOtherTypesAndPerChannel) {
  Graph g;
  const Op uint8_in = unary(g, OpKind::Dequantize, {DType::kUInt8, {4}, {0.1f}, {0}}, {DType::kFloat32, {4}});
  EXPECT_EQ(check_error(g, uint8_in),
            "DEQUANTIZE (op 0), input 0 't0' (tensor 0): type uint8 is not supported here (expected int8 or int16)");
  const Op int8_out = unary(g, OpKind::Dequantize, {DType::kInt8, {4}, {0.1f}, {0}}, {DType::kInt8, {4}, {0.1f}, {0}});
  EXPECT_NE(check_error(g, int8_out).find("output 0"), std::string::npos);
  const Op per_channel =
      unary(g, OpKind::Dequantize, {DType::kInt8, {2, 2}, {0.1f, 0.2f}, {0, 0}}, {DType::kFloat32, {2, 2}});
  EXPECT_NE(check_error(g, per_channel).find("needs per-tensor quantization"), std::string::npos);
}

TEST(QuantizeHandlers, CountNoMacs) {
  Graph g;
  const Op op = unary(g, OpKind::Dequantize, {DType::kInt8, {8}, {0.1f}, {0}}, {DType::kFloat32, {8}});
  EXPECT_EQ(op_handler(op.kind).macs(g, op), 0);
}

}  // namespace
}  // namespace microaot
