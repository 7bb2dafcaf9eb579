// Tests of the TRANSPOSE_CONV handler on hand-built graphs with options read from a TransposeConvOptions table:
// the kernel call and its argument order, TFLM's padding (including its truncated VALID arithmetic), the
// requantization constants, MACs counted by hand, and every refusal, naming the tensor.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "microaot/fit/transpose_conv.h"
#include "microaot/packed_matmul.h"
#include "ops/packed_weights.h"
#include "ops/reduce_test_util.h"
#include "target/target.h"

namespace microaot {
namespace {

struct Spec {
  DType type = DType::kInt8;
  std::vector<int32_t> input{1, 4, 4, 3}, filter{2, 3, 3, 3}, output{1, 8, 8, 2};
  bool bias = true;
  float input_scale = 0.5f, output_scale = 0.25f;
  int64_t input_zp = -3, output_zp = 7;
  std::vector<float> filter_scales{0.25f, 1.5f};  // real multipliers 0.5 and 3
  tflite::Padding padding = tflite::Padding::SAME;
  int stride_h = 2, stride_w = 2;
  tflite::ActivationFunctionType activation = tflite::ActivationFunctionType::NONE;
  int version = 3;
};

Spec int16_spec() {
  Spec s;
  s.type = DType::kInt16;
  s.input_zp = s.output_zp = 0;
  return s;
}

Spec float_spec() {
  Spec s;
  s.type = DType::kFloat32;
  return s;
}

DType bias_type(DType type) {
  return type == DType::kInt8 ? DType::kInt32 : type == DType::kInt16 ? DType::kInt64 : DType::kFloat32;
}

// A constant of `shape` whose elements are 1, 2, 3, 1, 2, 3, ... (little-endian, the tensor's element size).
Tensor constant(const char* name, DType type, std::vector<int32_t> shape) {
  Tensor t;
  t.name = name, t.dtype = type, t.shape = std::move(shape), t.is_constant = true;
  for (int64_t i = 0; i < t.num_elements(); ++i) {
    const uint64_t value = static_cast<uint64_t>(1 + i % 3);
    for (size_t b = 0; b < dtype_size(type); ++b) t.data.push_back(static_cast<uint8_t>(value >> (8 * b)));
  }
  return t;
}

// Tensors: 0 output shape, 1 weights, 2 input x, 3 bias (when present), then the output y.
Graph build(const Spec& s) {
  const bool q = s.type != DType::kFloat32;
  Tensor shape = constant("shape", DType::kInt32, {4});
  std::memcpy(shape.data.data(), s.output.data(), 16);
  Tensor weights = constant("weights", q ? DType::kInt8 : s.type, s.filter);
  Tensor x = spec_tensor("x", s.type, {s.input, q ? s.input_scale : 0, s.input_zp});
  Tensor y = spec_tensor("y", s.type, {s.output, q ? s.output_scale : 0, s.output_zp});
  if (q) weights.quant = {s.filter_scales, std::vector<int64_t>(s.filter_scales.size(), 0), 0};
  Graph g;
  g.tensors = {shape, weights, x};
  if (s.bias) g.tensors.push_back(constant("bias", bias_type(s.type), {s.filter[0]}));
  g.tensors.push_back(y);
  const int out = static_cast<int>(g.tensors.size()) - 1;
  Op op{OpKind::TransposeConv, 7, s.version, {0, 1, 2}, {out}, {}};
  if (s.bias) op.inputs.push_back(3);
  g.ops.push_back(op);
  read_table_options(g, tflite::BuiltinOptions::TransposeConvOptions, [&](auto& fbb) {
    return tflite::CreateTransposeConvOptions(fbb, s.padding, s.stride_w, s.stride_h, s.activation).Union();
  });
  return g;
}

std::string lower_error(const Graph& g) {
  try {
    lower_for_test(g);
  } catch (const CompileError& e) {
    return e.what();
  }
  return "";
}

int64_t macs(const Graph& g) { return op_handler(g.ops[0].kind).macs(g, g.ops[0]); }

TEST(TransposeConvHandler, Int8CallGeometryAndConstants) {
  const KernelCall call = lower_for_test(build(Spec{}));
  EXPECT_EQ(call.info().function(), "microaot_transpose_conv_s8");
  EXPECT_EQ(call.info().params->c_type(), "microaot_transpose_conv_params_q");
  EXPECT_EQ(call.source, "kernels/portable/transpose_conv_s8.c");
  EXPECT_EQ(call.args, (std::vector<int>{2, 1, 3, 4}));  // input, weights, bias, output
  const auto f = param_text(call);
  EXPECT_EQ(f.at("input_height"), "4");
  EXPECT_EQ(f.at("input_depth"), "3");
  EXPECT_EQ(f.at("filter_height"), "3");
  EXPECT_EQ(f.at("output_width"), "8");
  EXPECT_EQ(f.at("output_depth"), "2");
  EXPECT_EQ(f.at("stride_height"), "2");
  // The forward convolution of an 8-wide input: 4 outputs, total padding (4 - 1) * 2 + 3 - 8 = 1 -> 0 before.
  EXPECT_EQ(f.at("pad_height"), "0");
  EXPECT_EQ(f.at("input_offset"), "3");
  EXPECT_EQ(f.at("output_offset"), "7");
  EXPECT_EQ(f.at("activation_min"), "-128");
  EXPECT_EQ(param_arrays(call).at("output_multiplier"), (std::vector<int64_t>{1 << 30, 1610612736}));
  EXPECT_EQ(param_arrays(call).at("output_shift"), (std::vector<int64_t>{0, 2}));
}

TEST(TransposeConvHandler, PaddingAsTflmComputesIt) {
  Spec s;
  s.output = {1, 7, 7, 2};  // SAME: 4 forward outputs, total (4 - 1) * 2 + 3 - 7 = 2 -> 1 before
  EXPECT_EQ(param_text(lower_for_test(build(s))).at("pad_width"), "1");
  // VALID, 1x1 output, 8x8 filter, stride 5: the forward size (1 + 5 - 8) / 5 truncates to 0, so the total
  // is -5 + 8 - 1 = 2 and one row is cut; with stride 2 it is negative (-2) and the padding stays 0.
  s.input = {1, 1, 1, 3}, s.filter = {2, 8, 8, 3}, s.output = {1, 1, 1, 2};
  s.padding = tflite::Padding::VALID, s.stride_h = s.stride_w = 5;
  EXPECT_EQ(param_text(lower_for_test(build(s))).at("pad_height"), "1");
  s.stride_h = 2;
  EXPECT_EQ(param_text(lower_for_test(build(s))).at("pad_height"), "0");
}

TEST(TransposeConvHandler, MacsCountTheProductsThatLandInTheOutput) {
  // Per axis, 2 inputs, 3 taps, stride 2, 4 outputs, no padding: input 0 lands 3 taps, input 1 two (x = 4 is
  // cut): 5 pairs per axis, times 3 input and 2 output channels.
  Spec s;
  s.input = {1, 2, 2, 3}, s.output = {1, 4, 4, 2};
  EXPECT_EQ(param_text(lower_for_test(build(s))).at("pad_height"), "0");
  EXPECT_EQ(macs(build(s)), 5 * 5 * 3 * 2);
  s.input = {2, 2, 2, 3}, s.output = {2, 4, 4, 2};
  EXPECT_EQ(macs(build(s)), 2 * 5 * 5 * 3 * 2);
}

TEST(TransposeConvHandler, Int16TakesAnInt64BiasOrNone) {
  Spec s = int16_spec();
  s.activation = tflite::ActivationFunctionType::RELU;
  s.version = 4;
  KernelCall call = lower_for_test(build(s));
  EXPECT_EQ(call.info().function(), "microaot_transpose_conv_s16");
  EXPECT_EQ(param_text(call).at("input_offset"), "0");
  EXPECT_EQ(param_text(call).at("activation_min"), "0");
  EXPECT_EQ(param_text(call).at("activation_max"), "32767");
  s.bias = false;
  call = lower_for_test(build(s));
  EXPECT_EQ(call.info().function(), "microaot_transpose_conv_s16");
  EXPECT_EQ(call.args[2], kNoTensor);
}

TEST(TransposeConvHandler, FloatWithFusedActivation) {
  Spec s = float_spec();
  s.activation = tflite::ActivationFunctionType::RELU6;
  const KernelCall call = lower_for_test(build(s));
  EXPECT_EQ(call.info().function(), "microaot_transpose_conv_f32");
  EXPECT_EQ(call.info().params->c_type(), "microaot_transpose_conv_params_f32");
  EXPECT_EQ(param_text(call).at("activation_min"), "0x0p+0f");
  EXPECT_EQ(param_text(call).at("activation_max"), "0x1.8p+2f");
  EXPECT_TRUE(param_arrays(call).empty());
}

// As TFLM, which never reads it: an output shape computed at run time is accepted and not passed to the
// kernel (the output tensor's static shape sizes the op).
TEST(TransposeConvHandler, AcceptsAnOutputShapeComputedAtRunTime) {
  Graph g = build(Spec{});
  g.tensor(0).is_constant = false;
  g.tensor(0).data.clear();
  EXPECT_EQ(check_error(g), "");
  const KernelCall call = lower_for_test(g);
  for (const int arg : call.args) EXPECT_NE(arg, 0);
}

TEST(TransposeConvHandler, RefusesAnOutputShapeThatIsNotTheOutputs) {
  Graph g = build(Spec{});
  g.tensor(0).data[4] = 9;  // height 9
  EXPECT_TRUE(refuses(g, "'shape' (tensor 0): the output shape it holds differs from the output tensor's"));
  g = build(Spec{});
  g.tensor(0).dtype = DType::kInt64;
  EXPECT_TRUE(refuses(g, "'shape' (tensor 0): type int64 is not supported"));
}

TEST(TransposeConvHandler, RefusesShapesThatDoNotMatch) {
  Spec s;
  s.filter = {2, 3, 3, 4};
  EXPECT_TRUE(refuses(build(s), "'weights' (tensor 1): filter depth 4 differs from the input depth 3"));
  s = Spec{};
  s.output = {1, 8, 8, 3};
  EXPECT_TRUE(refuses(build(s), "'y' (tensor 4): shape [1,8,8,3] differs from"));
  s = Spec{};
  s.output = {2, 8, 8, 2};
  EXPECT_TRUE(refuses(build(s), "differs from [input batches, height, width, filter channels] [1,8,8,2]"));
  s = Spec{};
  s.input = {1, 4, 4};
  EXPECT_TRUE(refuses(build(s), "'x'"));
}

TEST(TransposeConvHandler, RefusesWhatTflmRefusesOrWouldGetWrong) {
  Spec s = int16_spec();
  Graph g = build(s);
  g.tensor(3).dtype = DType::kInt32;  // TFLM would read it as int64
  g.tensor(3).data.resize(8);
  EXPECT_TRUE(refuses(g, "'bias' (tensor 3): type int32 is not supported here (expected int64)"));
  s = int16_spec();
  s.input_zp = 2;
  EXPECT_TRUE(refuses(build(s), "'x' (tensor 2): zero point 2: int16 tensors must be symmetric"));
  g = build(float_spec());
  g.tensor(1).dtype = DType::kInt8;
  EXPECT_TRUE(refuses(g, "hybrid"));
  s = Spec{};
  s.filter_scales = {0.1f, 0.2f, 0.3f};
  EXPECT_TRUE(refuses(build(s), "'weights' (tensor 1): has 3 quantization scales, expected 1 or one per output"));
  s = Spec{};
  s.version = 6;
  EXPECT_TRUE(refuses(build(s), "version 6 is not supported (up to 5)"));
  g = build(Spec{});
  g.ops[0].options = {};
  EXPECT_TRUE(refuses(g, "has no TransposeConvOptions"));
  g = build(Spec{});
  g.tensor(1).is_constant = false;
  EXPECT_TRUE(refuses(g, "'weights' (tensor 1): must be a constant"));
}

TEST(TransposeConvHandler, RefusesA16x8RescaleBeyondItsRequantization) {
  Spec s = int16_spec();
  s.input_scale = 0.5f, s.output_scale = 0.001f, s.filter_scales = {1.0f, 1.0f};  // real 500: shift 9
  EXPECT_NE(lower_error(build(s)).find("beyond TFLite's 16x8 requantization"), std::string::npos);
}

}  // namespace
}  // namespace microaot

namespace microaot {
namespace {

// The int8 family's chooser on a DSP target: the packed phases in the setting's weight form, their constants in
// the filter's and bias's places; the layers it leaves on the portable kernel say why.
KernelCall chosen(const Spec& s, const Target& target) {
  const Graph g = build(s);
  KernelCall call = lower_for_test(g);
  op_handler(g.ops[0].kind).choose(g, g.ops[0], target, call);
  return call;
}

// Spec{}'s layer with requantizations the packed output step takes (right shifts).
Spec packable() {
  Spec s;
  s.filter_scales = {0.01f, 0.02f};
  return s;
}

Target dsp_target() {
  Target t;
  t.cpu = "cortex-m4", t.arch = "armv7e-m", t.dsp = true;
  return t;
}

TEST(TransposeConvChooser, TakesThePackedPhasesInTheSettingsForm) {
  Target speed = dsp_target(), balanced = dsp_target();
  balanced.optimize_balanced = true;
  const KernelCall fast = chosen(packable(), speed);
  EXPECT_EQ(fast.stem, "transpose_conv_s8_packed_w16");
  EXPECT_EQ(fast.args, (std::vector<int>{2, derived_arg(0), derived_arg(1), 4}));
  ASSERT_EQ(fast.derived.size(), 2u);
  // 3x3 at stride 2: phases of 2x2, 2x1, 1x2 and 1x1 taps of 3 channels, one unit pair, a group per 4 elements
  // (12, 6, 6, 3 elements: 3, 2, 2, 1 groups), 4 int16 words per pair and group; a table of 8 words per phase.
  EXPECT_EQ(fast.derived[0].num_elements(), 4 * (3 + 2 + 2 + 1));
  EXPECT_EQ(fast.derived[1].num_elements(), 4 * MICROAOT_PACKED_STEP_WORDS);
  EXPECT_EQ(fast.scratch_bytes, MICROAOT_TRANSPOSE_CONV_PACKED_BYTES(12, 2));
  EXPECT_NE(fast.specialisation.find("4 stride phases"), std::string::npos) << fast.specialisation;
  EXPECT_EQ(chosen(packable(), balanced).stem, "transpose_conv_s8_packed");  // 2 channels: not the raw form
  Spec wide = packable();
  wide.filter = {8, 3, 3, 3}, wide.output = {1, 8, 8, 8}, wide.filter_scales.assign(8, 0.01f);
  EXPECT_EQ(chosen(wide, balanced).stem, "transpose_conv_s8_packed_raw");
}

TEST(TransposeConvChooser, SaysWhyALayerKeepsThePortableKernel) {
  Target size = dsp_target(), plain;
  size.optimize_size = true;
  EXPECT_EQ(chosen(packable(), size).stem, "transpose_conv_s8");
  EXPECT_EQ(chosen(packable(), size).specialisation, "not packed: --optimize size");
  EXPECT_EQ(chosen(packable(), plain).specialisation, "not packed: the target has no DSP extension");
  EXPECT_EQ(chosen(Spec{}, dsp_target()).specialisation, kOutsideStepRange);  // a multiplier of 3: a left shift
  Spec deep = packable();  // 2x2 phase taps of 161 channels: a window of 644 elements, beyond one chunk (640)
  deep.input = {1, 4, 4, 161}, deep.filter = {2, 3, 3, 161};
  const KernelCall call = chosen(deep, dsp_target());
  EXPECT_EQ(call.stem, "transpose_conv_s8");
  EXPECT_NE(call.specialisation.find("window of 644 elements is longer than one chunk"), std::string::npos)
      << call.specialisation;
}

}  // namespace
}  // namespace microaot
