// AVERAGE_POOL_2D and MAX_POOL_2D handlers: window geometry (SAME with odd sizes, VALID, non-square),
// activation ranges, kernel names, and the diagnostics of what they refuse.
#include <gtest/gtest.h>

#include <cfloat>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "ops/op_options.h"
#include "ops/lowering_test_util.h"
#include "ops/op_handler.h"
#include "ops/quant_math.h"
#include "support/diagnostics.h"
#include "target/target.h"

namespace microaot {
namespace {

struct Pool {
  Graph graph;
  Op& op() { return graph.ops[0]; }
  Tensor& input() { return graph.tensors[0]; }
  Tensor& output() { return graph.tensors[1]; }
};

Pool make_pool(OpKind kind, DType type, std::vector<int32_t> in_shape, std::vector<int32_t> out_shape,
               Pool2DOptions options) {
  Pool p;
  for (auto* shape : {&in_shape, &out_shape}) {
    Tensor t;
    t.name = p.graph.tensors.empty() ? "in" : "out";
    t.dtype = type;
    t.shape = *shape;
    t.source_index = static_cast<int>(p.graph.tensors.size());
    if (type == DType::kInt8) t.quant = Quantization{{0.05f}, {3}, 0};
    if (type == DType::kInt16) t.quant = Quantization{{0.0005f}, {0}, 0};
    p.graph.tensors.push_back(t);
  }
  p.graph.ops.push_back(Op{kind, 0, 1, {0}, {1}, options});
  return p;
}

Pool2DOptions options(Padding padding, int filter_h, int filter_w, int stride_h, int stride_w,
                      Activation activation = Activation::kNone) {
  Pool2DOptions o;
  o.padding = padding;
  o.filter_h = filter_h;
  o.filter_w = filter_w;
  o.stride_h = stride_h;
  o.stride_w = stride_w;
  o.activation = activation;
  return o;
}

KernelCall checked_lower(Pool& p) { return lower_for_test(p.graph, p.op()); }
std::map<std::string, std::string> fields_of(const KernelCall& call) { return param_text(call); }

std::string check_error(Pool& p) {
  try {
    op_handler(p.op().kind).check(p.graph, p.op());
  } catch (const CompileError& e) {
    return e.what();
  }
  return "";
}

TEST(Pool2DHandler, AverageInt8SameWithOddSizes) {
  // 9x9, 3x3 filter, stride 2, SAME: 5x5 output, total padding (5-1)*2+3-9 = 2, one row/column before.
  Pool p = make_pool(OpKind::AveragePool2D, DType::kInt8, {1, 9, 9, 4}, {1, 5, 5, 4},
                     options(Padding::kSame, 3, 3, 2, 2, Activation::kRelu6));
  const KernelCall call = checked_lower(p);
  EXPECT_EQ(call.info().function(), "microaot_average_pool_2d_s8");
  EXPECT_EQ(call.info().params->c_type(), "microaot_pool_2d_params_q");
  EXPECT_EQ(call.info().header, "microaot/kernels/pooling.h");
  EXPECT_EQ(call.source, "kernels/portable/average_pool_2d_s8.c");
  EXPECT_EQ(call.args, (std::vector<int>{0, 1}));
  auto f = fields_of(call);
  EXPECT_EQ(f["batches"], "1");
  EXPECT_EQ(f["input_height"], "9");
  EXPECT_EQ(f["channels"], "4");
  EXPECT_EQ(f["output_height"], "5");
  EXPECT_EQ(f["output_width"], "5");
  EXPECT_EQ(f["padding_height"], "1");
  EXPECT_EQ(f["padding_width"], "1");
  EXPECT_EQ(f["activation_min"], "3");    // zero point
  EXPECT_EQ(f["activation_max"], "123");  // 3 + 6 / 0.05
  EXPECT_EQ(op_handler(OpKind::AveragePool2D).macs(p.graph, p.op()), 5 * 5 * 4 * 9);
}

TEST(Pool2DHandler, MaxFloatValidAndNonSquareSame) {
  Pool valid = make_pool(OpKind::MaxPool2D, DType::kFloat32, {1, 8, 8, 3}, {1, 4, 4, 3},
                         options(Padding::kValid, 2, 2, 2, 2));
  KernelCall call = checked_lower(valid);
  EXPECT_EQ(call.info().function(), "microaot_max_pool_2d_f32");
  EXPECT_EQ(call.info().params->c_type(), "microaot_pool_2d_params_f32");
  auto f = fields_of(call);
  EXPECT_EQ(f["padding_height"], "0");
  EXPECT_EQ(f["activation_min"], c_float_literal(-FLT_MAX));
  EXPECT_EQ(f["activation_max"], c_float_literal(FLT_MAX));

  // 5x6, 3x2 filter, strides 2x3, SAME: 3x2 output; padding rows (2*2+3-5)/2 = 1, columns (3+2-6) < 0 -> 0.
  Pool odd = make_pool(OpKind::MaxPool2D, DType::kFloat32, {2, 5, 6, 3}, {2, 3, 2, 3},
                       options(Padding::kSame, 3, 2, 2, 3));
  f = fields_of(checked_lower(odd));
  EXPECT_EQ(f["filter_height"], "3");
  EXPECT_EQ(f["filter_width"], "2");
  EXPECT_EQ(f["stride_height"], "2");
  EXPECT_EQ(f["stride_width"], "3");
  EXPECT_EQ(f["padding_height"], "1");
  EXPECT_EQ(f["padding_width"], "0");

  // 7x7, 3x3, stride 1, SAME keeps the size with one cell of padding on each side.
  Pool same = make_pool(OpKind::AveragePool2D, DType::kFloat32, {1, 7, 7, 2}, {1, 7, 7, 2},
                        options(Padding::kSame, 3, 3, 1, 1));
  f = fields_of(checked_lower(same));
  EXPECT_EQ(f["padding_width"], "1");
  EXPECT_EQ(f["output_width"], "7");
}

TEST(Pool2DHandler, Int16LowersToTheInt16Kernels) {
  for (OpKind kind : {OpKind::AveragePool2D, OpKind::MaxPool2D}) {
    Pool p = make_pool(kind, DType::kInt16, {1, 9, 9, 4}, {1, 5, 5, 4},
                       options(Padding::kSame, 3, 3, 2, 2, Activation::kRelu));
    const KernelCall call = checked_lower(p);
    const std::string stem = kind == OpKind::AveragePool2D ? "average_pool_2d_s16" : "max_pool_2d_s16";
    EXPECT_EQ(call.info().function(), "microaot_" + stem);
    EXPECT_EQ(call.info().params->c_type(), "microaot_pool_2d_params_q");
    EXPECT_EQ(call.source, "kernels/portable/" + stem + ".c");
    auto f = fields_of(call);
    EXPECT_EQ(f["activation_min"], "0");
    EXPECT_EQ(f["activation_max"], "32767");
    p.output().quant.zero_point = {1};
    EXPECT_NE(check_error(p).find("input's scale and zero point"), std::string::npos) << check_error(p);
  }
}

// On a DSP cpu an int8 AVERAGE_POOL_2D the 16-bit lanes compute (at least 4 channels, a window of at most 256
// elements; 6 channels too) calls the lanes' own kernel; 3 channels, a 17x17 window, --optimize size, int16 and
// MAX_POOL_2D keep theirs.
TEST(Pool2DHandler, DspAverageInt8WithinTheLanesCallsTheLanesKernel) {
  const Target m4 = parse_target("cortex-m4");
  const auto call_on = [](Pool p, const Target& target) { return lower_in_place_for_test(p.graph, target); };
  const auto stem_on = [&call_on](const Pool& p, const Target& target) { return call_on(p, target).stem; };
  const Pool within = make_pool(OpKind::AveragePool2D, DType::kInt8, {1, 17, 16, 8}, {1, 2, 1, 8},
                                options(Padding::kValid, 16, 16, 1, 1));
  const KernelCall lanes = call_on(within, m4);
  EXPECT_EQ(lanes.info().function(), "microaot_average_pool_2d_s8_lanes");
  EXPECT_NE(lanes.specialisation.find("16-bit lanes"), std::string::npos) << lanes.specialisation;
  EXPECT_EQ(stem_on(within, Target{}), "average_pool_2d_s8");
  Target size = m4;
  size.optimize_size = true;
  EXPECT_EQ(stem_on(within, size), "average_pool_2d_s8");

  const Pool six = make_pool(OpKind::AveragePool2D, DType::kInt8, {1, 9, 9, 6}, {1, 5, 5, 6},
                             options(Padding::kSame, 3, 3, 2, 2));
  EXPECT_EQ(stem_on(six, m4), "average_pool_2d_s8_lanes");
  const Pool three = make_pool(OpKind::AveragePool2D, DType::kInt8, {1, 9, 9, 3}, {1, 5, 5, 3},
                               options(Padding::kSame, 3, 3, 2, 2));
  const KernelCall three_call = call_on(three, m4);
  EXPECT_EQ(three_call.stem, "average_pool_2d_s8");
  EXPECT_NE(three_call.specialisation.find("one element at a time"), std::string::npos) << three_call.specialisation;
  const Pool large = make_pool(OpKind::AveragePool2D, DType::kInt8, {1, 17, 17, 8}, {1, 1, 1, 8},
                               options(Padding::kValid, 17, 17, 1, 1));
  EXPECT_EQ(stem_on(large, m4), "average_pool_2d_s8");
  const Pool wide = make_pool(OpKind::AveragePool2D, DType::kInt8, {1, 2, 256, 4}, {1, 2, 1, 4},
                              options(Padding::kValid, 1, 256, 1, 1));  // 256 elements in one row: the lanes'
  EXPECT_EQ(stem_on(wide, m4), "average_pool_2d_s8_lanes");
  const Pool int16 = make_pool(OpKind::AveragePool2D, DType::kInt16, {1, 16, 16, 8}, {1, 1, 1, 8},
                               options(Padding::kValid, 16, 16, 1, 1));
  EXPECT_EQ(stem_on(int16, m4), "average_pool_2d_s16");
  const Pool max = make_pool(OpKind::MaxPool2D, DType::kInt8, {1, 16, 16, 8}, {1, 1, 1, 8},
                             options(Padding::kValid, 16, 16, 1, 1));
  EXPECT_EQ(stem_on(max, m4), "max_pool_2d_s8");
}

// On a DSP cpu an int8 global AVERAGE_POOL_2D (the window the whole plane, within the lanes) calls the global
// kernel; a 17x16 plane pooled by a 16x16 window, one beyond 256 pixels, and SAME padding over the plane do not.
TEST(Pool2DHandler, DspAverageInt8GlobalCallsTheGlobalKernel) {
  const Target m4 = parse_target("cortex-m4");
  const auto call_on = [&m4](Pool p) { return lower_in_place_for_test(p.graph, m4); };
  const Pool kws = make_pool(OpKind::AveragePool2D, DType::kInt8, {2, 25, 5, 64}, {2, 1, 1, 64},
                             options(Padding::kValid, 25, 5, 1, 1));
  const KernelCall global = call_on(kws);
  EXPECT_EQ(global.info().function(), "microaot_average_pool_2d_s8_global");
  EXPECT_NE(global.specialisation.find("global"), std::string::npos) << global.specialisation;
  const Pool taller = make_pool(OpKind::AveragePool2D, DType::kInt8, {1, 17, 16, 8}, {1, 2, 1, 8},
                                options(Padding::kValid, 16, 16, 1, 1));
  EXPECT_EQ(call_on(taller).stem, "average_pool_2d_s8_lanes");
  const Pool beyond = make_pool(OpKind::AveragePool2D, DType::kInt8, {1, 13, 20, 4}, {1, 1, 1, 4},
                                options(Padding::kValid, 13, 20, 1, 1));  // 260 pixels
  EXPECT_EQ(call_on(beyond).stem, "average_pool_2d_s8");
  const Pool same = make_pool(OpKind::AveragePool2D, DType::kInt8, {1, 4, 4, 4}, {1, 4, 4, 4},
                              options(Padding::kSame, 4, 4, 1, 1));
  EXPECT_EQ(call_on(same).stem, "average_pool_2d_s8_lanes");
}

TEST(Pool2DHandler, L2IsFloatOnlyOverTheSameWindows) {
  Pool same = make_pool(OpKind::L2Pool2D, DType::kFloat32, {1, 7, 7, 2}, {1, 7, 7, 2},
                        options(Padding::kSame, 3, 3, 1, 1, Activation::kRelu6));
  const KernelCall call = checked_lower(same);
  EXPECT_EQ(call.info().function(), "microaot_l2_pool_2d_f32");
  auto f = fields_of(call);
  EXPECT_EQ(f["padding_height"], "1");
  EXPECT_EQ(f["activation_max"], c_float_literal(6.0f));
  Pool quantized = make_pool(OpKind::L2Pool2D, DType::kInt8, {1, 4, 4, 1}, {1, 2, 2, 1},
                             options(Padding::kValid, 2, 2, 2, 2));
  EXPECT_NE(check_error(quantized).find("L2_POOL_2D (op 0), input 0 'in'"), std::string::npos)
      << check_error(quantized);
}

TEST(Pool2DHandler, MaxExplicitPaddingSetsLeadingPaddingAndOutputSize) {
  // fold_pad's form: 8 rows + (2, 1) padding, 3x3 stride 2 -> 5 rows; 8 columns + (0, 1) -> 4 columns.
  Pool2DOptions o = options(Padding::kSame, 3, 3, 2, 2);  // ignored: explicit padding wins
  o.explicit_padding = ExplicitPadding{2, 1, 0, 1};
  Pool p = make_pool(OpKind::MaxPool2D, DType::kInt8, {1, 8, 8, 2}, {1, 5, 4, 2}, o);
  auto f = fields_of(checked_lower(p));
  EXPECT_EQ(f["input_height"], "8");
  EXPECT_EQ(f["output_height"], "5");
  EXPECT_EQ(f["output_width"], "4");
  EXPECT_EQ(f["padding_height"], "2");
  EXPECT_EQ(f["padding_width"], "0");
}

TEST(Pool2DHandler, ExplicitPaddingMustLeaveAnInputElementInEveryWindow) {
  Pool2DOptions o = options(Padding::kValid, 2, 2, 1, 1);
  o.explicit_padding = ExplicitPadding{2, 0, 0, 0};  // the first window covers the two padded rows only
  Pool p = make_pool(OpKind::MaxPool2D, DType::kInt8, {1, 4, 4, 1}, {1, 5, 3, 1}, o);
  EXPECT_NE(check_error(p).find("explicit padding leaves a window without input elements"), std::string::npos)
      << check_error(p);
  o.explicit_padding = ExplicitPadding{0, 2, 0, 0};  // the last one likewise
  p = make_pool(OpKind::MaxPool2D, DType::kInt8, {1, 4, 4, 1}, {1, 5, 3, 1}, o);
  EXPECT_NE(check_error(p).find("without input elements"), std::string::npos) << check_error(p);
  o.explicit_padding = ExplicitPadding{1, 1, 0, 0};  // every window keeps a row: accepted
  p = make_pool(OpKind::MaxPool2D, DType::kInt8, {1, 4, 4, 1}, {1, 5, 3, 1}, o);
  EXPECT_EQ(check_error(p), "");
}

TEST(Pool2DHandler, AverageRefusesWindowsWhoseSumCouldOverflow) {
  // 32768 * 256 * 256 = 2^31 > INT32_MAX: the int32 sum of a full int16 window could overflow.
  Pool big = make_pool(OpKind::AveragePool2D, DType::kInt16, {1, 256, 256, 1}, {1, 1, 1, 1},
                       options(Padding::kValid, 256, 256, 1, 1));
  EXPECT_NE(check_error(big).find("256x256 window could overflow the int32 sum"), std::string::npos)
      << check_error(big);
  Pool max = make_pool(OpKind::MaxPool2D, DType::kInt16, {1, 256, 256, 1}, {1, 1, 1, 1},
                       options(Padding::kValid, 256, 256, 1, 1));
  EXPECT_EQ(check_error(max), "");
  Pool fits = make_pool(OpKind::AveragePool2D, DType::kInt16, {1, 256, 255, 1}, {1, 1, 1, 1},
                        options(Padding::kValid, 256, 255, 1, 1));
  EXPECT_EQ(check_error(fits), "");
}

TEST(Pool2DHandler, RefusesWhatTheKernelsCannotRun) {
  struct Case {
    const char* what;
    void (*mutate)(Pool&);
    const char* message;
  };
  const Case cases[] = {
      {"int32", [](Pool& p) { p.input().dtype = p.output().dtype = DType::kInt32; }, "type int32 is not supported"},
      {"mixed types", [](Pool& p) { p.output().dtype = DType::kFloat32; }, "type float32 is not supported"},
      {"rank", [](Pool& p) { p.input().shape = {9, 9, 4}; }, "expected rank 4"},
      {"output shape", [](Pool& p) { p.output().shape = {1, 4, 4, 4}; }, "does not match the [1,5,5,4]"},
      {"scale differs", [](Pool& p) { p.output().quant.scale = {0.06f}; }, "input's scale and zero point"},
      {"zero point differs", [](Pool& p) { p.output().quant.zero_point = {4}; }, "input's scale and zero point"},
      {"no quantization", [](Pool& p) { p.input().quant = Quantization{}; }, "per-tensor quantization"},
      {"stride", [](Pool& p) { std::any_cast<Pool2DOptions&>(p.op().options).stride_w = 0; }, "strides"},
      {"filter bigger than input", [](Pool& p) {
         auto& o = std::any_cast<Pool2DOptions&>(p.op().options);
         o.padding = Padding::kValid;
         o.filter_h = 10;
       }, "smaller than the 10x3 filter"},
      {"two inputs", [](Pool& p) { p.op().inputs.push_back(0); }, "expects 1 inputs"},
      {"version", [](Pool& p) { p.op().version = 4; }, "version 4 is not supported"},
  };
  for (OpKind kind : {OpKind::AveragePool2D, OpKind::MaxPool2D}) {
    for (const Case& c : cases) {
      Pool p = make_pool(kind, DType::kInt8, {1, 9, 9, 4}, {1, 5, 5, 4}, options(Padding::kSame, 3, 3, 2, 2));
      c.mutate(p);
      const std::string error = check_error(p);
      EXPECT_NE(error.find(std::string(op_kind_name(kind)) + " (op 0)"), std::string::npos) << c.what << ": " << error;
      EXPECT_NE(error.find(c.message), std::string::npos) << c.what << ": " << error;
    }
  }
}

}  // namespace
}  // namespace microaot
