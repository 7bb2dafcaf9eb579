// Tests of the CONV_2D and DEPTHWISE_CONV_2D handlers on hand-built graphs: requantization constants
// against an independent decomposition, padding and output geometry, activation ranges, the kernel call,
// and the diagnostics for models they must refuse.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "ops/op_options.h"
#include "ops/lowering_test_util.h"
#include "ops/op_handler.h"
#include "kernels/params_struct.h"
#include "microaot/internal/depthwise_group_words.h"
#include "ops/packed_weights.h"
#include "ops/palette_weights.h"
#include "microaot/internal/palette.h"
#include "microaot/kernels/conv.h"
#include "microaot/kernels/packed.h"
#include "support/diagnostics.h"
#include "target/target.h"

namespace microaot {
namespace {

// ---------------------------------------------------------------- graph building

struct Spec {
  OpKind kind = OpKind::Conv2D;
  DType type = DType::kInt8;
  std::vector<int32_t> input{1, 8, 8, 3}, filter{4, 3, 3, 3}, output{1, 8, 8, 4};
  bool bias = true;
  float input_scale = 0.05f, output_scale = 0.1f;
  int64_t input_zp = -10, output_zp = 5;
  std::vector<float> filter_scales{0.01f, 0.02f, 0.005f, 0.0125f};
  int filter_axis = 0;
  OpOptions options = Conv2DOptions{Padding::kSame, 1, 1, 1, 1, Activation::kNone};
  int version = 3;
  DType bias_type = DType::kUnsupported;  // the type's usual one: int32 (int8), int64 (int16), float32
};

// An int16 (16x8) variant of a spec: symmetric activations, int8 weights, an int64 bias.
Spec int16_spec(Spec s) {
  s.type = DType::kInt16;
  s.input_zp = s.output_zp = 0;
  s.input_scale = 0.0004f, s.output_scale = 0.0008f;
  return s;
}

DType bias_type_of(const Spec& s) {
  if (s.bias_type != DType::kUnsupported) return s.bias_type;
  return s.type == DType::kInt8 ? DType::kInt32 : s.type == DType::kInt16 ? DType::kInt64 : DType::kFloat32;
}

int add_tensor(Graph& g, const std::string& name, DType type, std::vector<int32_t> shape) {
  Tensor t;
  t.name = name;
  t.dtype = type;
  t.shape = std::move(shape);
  t.source_index = static_cast<int>(g.tensors.size());
  g.tensors.push_back(t);
  return t.source_index;
}

void make_constant(Tensor& t, int64_t fill) {
  t.is_constant = true;
  const size_t size = dtype_size(t.dtype);
  for (int64_t i = 0; i < t.num_elements(); ++i) {
    const auto value = static_cast<uint64_t>(fill + i % 3);  // little-endian bytes of a small value
    for (size_t b = 0; b < size; ++b) t.data.push_back(static_cast<uint8_t>(value >> (8 * b)));
  }
}

Graph build(const Spec& s) {
  Graph g;
  const bool q = s.type != DType::kFloat32;
  const int in = add_tensor(g, "x", s.type, s.input);
  const int w = add_tensor(g, "conv/weights", q ? DType::kInt8 : s.type, s.filter);
  const int b = s.bias ? add_tensor(g, "conv/bias", bias_type_of(s), {s.output[3]}) : kNoTensor;
  const int out = add_tensor(g, "y", s.type, s.output);
  make_constant(g.tensor(w), s.type == DType::kFloat32 ? 0 : 1);
  if (b != kNoTensor) make_constant(g.tensor(b), s.type == DType::kFloat32 ? 0 : 100);
  if (q) {
    g.tensor(in).quant = {{s.input_scale}, {s.input_zp}, 0};
    g.tensor(out).quant = {{s.output_scale}, {s.output_zp}, 0};
    g.tensor(w).quant = {s.filter_scales, std::vector<int64_t>(s.filter_scales.size(), 0), s.filter_axis};
  }
  Op op{s.kind, 7, s.version, {in, w, b}, {out}, s.options};
  if (!s.bias) op.inputs.pop_back();
  g.ops.push_back(op);
  g.inputs = {in};
  g.outputs = {out};
  return g;
}

Spec depthwise_spec() {
  Spec s;
  s.kind = OpKind::DepthwiseConv2D;
  s.input = {1, 10, 10, 2};
  s.filter = {1, 3, 3, 6};
  s.output = {1, 10, 10, 6};
  s.filter_scales = {0.01f, 0.02f, 0.03f, 0.04f, 0.05f, 0.06f};
  s.filter_axis = 3;
  s.options = DepthwiseConv2DOptions{Padding::kSame, 1, 1, 2, 2, 3, Activation::kNone};
  return s;
}

const OpHandler& handler(const Graph& g) { return op_handler(g.ops[0].kind); }
KernelCall lower(const Graph& g) { return lower_for_test(g); }

std::string field(const KernelCall& call, const std::string& name) {
  const auto fields = param_text(call);
  if (fields.count(name) != 0) return fields.at(name);
  ADD_FAILURE() << "no field " << name;
  return "";
}

std::vector<int64_t> array(const KernelCall& call, const std::string& name) {
  const auto arrays = param_arrays(call);
  if (arrays.count(name) != 0) return arrays.at(name);
  ADD_FAILURE() << "no array " << name;
  return {};
}

// The CompileError text check() throws, or "" when it accepts the graph.
std::string check_error(const Graph& g) {
  try {
    handler(g).check(g, g.ops[0]);
  } catch (const CompileError& e) {
    return e.what();
  }
  return "";
}

void expect_error(const Graph& g, const std::string& op_name, const std::string& tensor, const std::string& text) {
  const std::string message = check_error(g);
  ASSERT_FALSE(message.empty()) << "check() accepted the graph";
  EXPECT_NE(message.find(op_name + " (op 7)"), std::string::npos) << message;
  if (!tensor.empty()) {
    EXPECT_NE(message.find("'" + tensor + "'"), std::string::npos) << message;
  }
  EXPECT_NE(message.find(text), std::string::npos) << message;
}

// ---------------------------------------------------------------- requantization constants

// Independent of quant_math: scale the real multiplier into [2^30, 2^31) by repeated halving/doubling.
void decompose(double real, int64_t& multiplier, int64_t& shift) {
  shift = 0;
  while (real >= 1.0) real /= 2, ++shift;
  while (real < 0.5) real *= 2, --shift;
  multiplier = std::llround(real * 2147483648.0);
  if (multiplier == (int64_t{1} << 31)) multiplier /= 2, ++shift;
}

double tflite_real(float input, float filter, float output) {
  return static_cast<double>(input) * static_cast<double>(filter) / static_cast<double>(output);
}

void expect_multipliers(const Spec& s, const KernelCall& call) {
  const std::vector<int64_t> m = array(call, "output_multiplier"), sh = array(call, "output_shift");
  const int channels = s.output[3];
  ASSERT_EQ(m.size(), static_cast<size_t>(channels));
  ASSERT_EQ(sh.size(), static_cast<size_t>(channels));
  for (int c = 0; c < channels; ++c) {
    const float fs = s.filter_scales.size() == 1 ? s.filter_scales[0] : s.filter_scales[c];
    int64_t want_m = 0, want_shift = 0;
    decompose(tflite_real(s.input_scale, fs, s.output_scale), want_m, want_shift);
    EXPECT_EQ(m[c], want_m) << "channel " << c;
    EXPECT_EQ(sh[c], want_shift) << "channel " << c;
  }
}

TEST(ConvHandler, PerChannelMultipliersMatchIndependentDecomposition) {
  Spec s;
  s.input_scale = 0.0351383313536644f;
  s.output_scale = 0.02293192781507969f;
  s.filter_scales = {0.0021f, 0.00037f, 0.0119f, 0.9f};  // the last one gives a multiplier above 1
  const KernelCall call = lower(build(s));
  expect_multipliers(s, call);
  EXPECT_GT(array(call, "output_shift")[3], 0);
}

TEST(ConvHandler, KnownMultipliers) {
  Spec s;
  s.input_scale = 0.5f, s.output_scale = 0.25f;
  s.filter_scales = {0.25f, 1.5f, 0.125f, 0.1875f};  // real 0.5, 3, 0.25, 0.375
  const KernelCall call = lower(build(s));
  EXPECT_EQ(array(call, "output_multiplier"), (std::vector<int64_t>{1 << 30, 1610612736, 1 << 30, 1610612736}));
  EXPECT_EQ(array(call, "output_shift"), (std::vector<int64_t>{0, 2, -1, -1}));
}

TEST(ConvHandler, ProductIsTakenInDoubleNotFloat) {
  // Find scales where a float product would round to a different multiplier, then check the handler
  // follows TFLite's double arithmetic.
  std::mt19937 rng(42);
  std::uniform_real_distribution<float> dist(0.001f, 0.1f);
  for (int attempt = 0; attempt < 10000; ++attempt) {
    Spec s;
    s.input_scale = dist(rng), s.output_scale = dist(rng);
    s.filter_scales = {dist(rng) / 10};
    int64_t m_double = 0, m_float = 0, shift = 0;
    decompose(tflite_real(s.input_scale, s.filter_scales[0], s.output_scale), m_double, shift);
    decompose(s.input_scale * s.filter_scales[0] / s.output_scale, m_float, shift);
    if (m_double == m_float) continue;
    EXPECT_EQ(array(lower(build(s)), "output_multiplier")[0], m_double);
    return;
  }
  FAIL() << "no distinguishing scales found";
}

TEST(ConvHandler, PerTensorFilterScaleRepeatsForEveryChannel) {
  Spec s;
  s.filter_scales = {0.0173f};
  const KernelCall call = lower(build(s));
  expect_multipliers(s, call);
  const std::vector<int64_t> m = array(call, "output_multiplier");
  EXPECT_EQ(m, std::vector<int64_t>(4, m[0]));
}

// ---------------------------------------------------------------- geometry and fields

TEST(ConvHandler, SameStride2PaddingAndCall) {
  Spec s;  // the ops suite's 1x49x10x1, 10x4 filter, stride 2, SAME
  s.input = {1, 49, 10, 1};
  s.filter = {8, 10, 4, 1};
  s.output = {1, 25, 5, 8};
  s.filter_scales = std::vector<float>(8, 0.01f);
  s.options = Conv2DOptions{Padding::kSame, 2, 2, 1, 1, Activation::kRelu};
  const Graph g = build(s);
  const KernelCall call = lower(g);
  EXPECT_EQ(call.info().function(), "microaot_conv_2d_s8");
  EXPECT_EQ(call.info().params->c_type(), "microaot_conv_2d_params_q");
  EXPECT_EQ(call.info().header, "microaot/kernels/conv.h");
  EXPECT_EQ(call.source, "kernels/portable/conv_2d_s8.c");
  EXPECT_EQ(call.args, (std::vector<int>{0, 1, 2, 3}));
  // total padding rows (25 - 1) * 2 + 10 - 49 = 9 -> 4 before; columns (5 - 1) * 2 + 4 - 10 = 2 -> 1 before.
  EXPECT_EQ(field(call, "pad_height"), "4");
  EXPECT_EQ(field(call, "pad_width"), "1");
  EXPECT_EQ(field(call, "stride_height"), "2");
  EXPECT_EQ(field(call, "filter_height"), "10");
  EXPECT_EQ(field(call, "filter_width"), "4");
  EXPECT_EQ(field(call, "filter_depth"), "1");
  EXPECT_EQ(field(call, "input_offset"), "10");  // -zero point
  EXPECT_EQ(field(call, "output_offset"), "5");
  EXPECT_EQ(handler(g).macs(g, g.ops[0]), int64_t{25} * 5 * 8 * 10 * 4);
}

// With the DSP extension a 1x1 filter is a matrix product: the packed kernel (int16 weights; int8 with
// --optimize balanced), input offset in the bias.
TEST(ConvHandler, PointwiseTakesThePackedKernelWithTheDspExtension) {
  Spec s;
  s.filter = {4, 1, 1, 3};
  s.options = Conv2DOptions{Padding::kSame, 1, 1, 1, 1, Activation::kNone};
  Graph balanced_graph = build(s);
  Target balanced = parse_target("cortex-m7");
  balanced.optimize_balanced = true;
  const KernelCall int8_call = lower_in_place_for_test(balanced_graph, balanced);
  EXPECT_EQ(int8_call.info().function(), "microaot_conv_2d_s8_packed");
  EXPECT_EQ(balanced_graph.tensor(int8_call.args[1]).byte_size(), 2 * 1 * 2 * 4);  // 2 pairs x 1 group x 2 words
  Graph g = build(s);
  const KernelCall call = lower_in_place_for_test(g, parse_target("cortex-m7"));
  EXPECT_EQ(call.info().function(), "microaot_conv_2d_s8_packed_w16");
  EXPECT_EQ(g.tensor(call.args[1]).byte_size(), 2 * 1 * 4 * 4);  // 2 pairs x 1 group x 4 words
  EXPECT_EQ(field(call, "input_offset"), "0");
  // Filter values 1 + i % 3 (build()): channel 0 sums 1 + 2 + 3; bias 100 + i % 3; input zero point -10. The
  // output step's table (argument 2, in the bias's place) starts with it.
  int32_t folded = 0;
  std::memcpy(&folded, g.tensor(call.args[2]).data.data(), 4);
  EXPECT_EQ(folded, 100 + 10 * 6);
}

// Balanced's default on a DSP cpu (palettes only where the DSP palette kernel pays): a 1x1 layer of 3 values per
// channel over 16x16 pixels takes it (2-bit indices, the packed kernels' output step table after them); where the
// plan could write its output over its input, the overlap flavor's decode per chunk of 4 rows is counted and does
// not pay; over 4x4 pixels its decode does not pay, and a depth that is not whole words does not fit: all keep the
// packed kernel.
TEST(ConvHandler, PointwiseTakesTheDspPaletteKernelWhereItsDecodePays) {
  Spec s;
  s.input = {1, 16, 16, 64}, s.filter = {8, 1, 1, 64}, s.output = {1, 16, 16, 8};
  s.filter_scales.assign(8, 0.01f);
  Target balanced = parse_target("cortex-m4");
  balanced.optimize_balanced = true;
  balanced.compress_bits = default_compress_bits(balanced);
  balanced.compress_fast_only = default_compress_fast_only(balanced);
  Graph sole_reader = build(s);  // in place: 4 decodes (chunks of 64 pixels) of 512 weights for 256 pixels
  EXPECT_EQ(lower_in_place_for_test(sole_reader, balanced).info().function(), "microaot_conv_2d_s8_packed_raw");
  EXPECT_FALSE(packed_palette_pays(2, 256, 8, 64, 4));
  Graph g = build(s);
  g.outputs.push_back(g.ops[0].inputs[0]);  // the input outlives the layer: nothing to lose
  const KernelCall call = lower_in_place_for_test(g, balanced);
  EXPECT_EQ(call.info().function(), "microaot_conv_2d_s8_packed_palette");
  ASSERT_EQ(call.args.size(), 5u);
  // The indices' header: 2 bits, one table for all channels (the filter's values are 1 + i % 3 in every channel).
  EXPECT_EQ(g.tensor(call.args[1]).data[0], 2 | MICROAOT_PALETTE_SHARED);
  EXPECT_EQ(call.scratch_bytes, MICROAOT_PACKED_PALETTE_BLOCK_BYTES(64));
  int32_t folded = 0;  // channel 0: filter 1 + i % 3 over 64 taps (sum 127), bias 100, input zero point -10
  std::memcpy(&folded, g.tensor(call.args[3]).data.data(), 4);
  EXPECT_EQ(folded, 100 + 10 * 127);
  EXPECT_EQ(palette_facts(g, call).int8_bytes, 8 * 64);
  EXPECT_TRUE(packed_palette_pays(2, 256, 8, 64));
  EXPECT_FALSE(packed_palette_pays(2, 16, 8, 64));

  Spec small = s;
  small.input = {1, 4, 4, 64}, small.output = {1, 4, 4, 8};
  Graph g_small = build(small);
  g_small.outputs.push_back(g_small.ops[0].inputs[0]);
  EXPECT_EQ(lower_in_place_for_test(g_small, balanced).info().function(), "microaot_conv_2d_s8_packed_raw");
  Spec odd = s;
  odd.input[3] = odd.filter[3] = 62;
  Graph g_odd = build(odd);
  g_odd.outputs.push_back(g_odd.ops[0].inputs[0]);
  EXPECT_EQ(lower_in_place_for_test(g_odd, balanced).info().function(), "microaot_conv_2d_s8_packed_raw");
}

// The Cortex-M4 at balanced: its default compression, or (`asked`) a palette asked for by --compress-weights.
Target balanced_m4(bool asked) {
  Target t = parse_target("cortex-m4");
  t.optimize_balanced = true;
  t.compress_bits = default_compress_bits(t);
  t.compress_fast_only = !asked && default_compress_fast_only(t);
  return t;
}

// A 1x1 layer where a palette is asked for (--compress-weights): alone in its model (its activations the busiest
// op's) it keeps the 1x1 DSP palette kernel (8 bytes of scratch per input channel); beside an op of more
// activation bytes than its own plus the k x k kernel's block, it takes the k x k DSP palette kernel, whose scratch
// then raises no peak; below 16 input channels the 1x1 kernel, the faster there; balanced's default never.
TEST(ConvHandler, PointwiseTakesTheKxkPaletteKernelWhereItsBlockFitsUnderTheBusiestOp) {
  Spec s;
  s.input = {1, 4, 4, 64}, s.filter = {8, 1, 1, 64}, s.output = {1, 4, 4, 8};
  s.filter_scales.assign(8, 0.01f);
  const Target asked = balanced_m4(true);
  const auto beside_a_busier_op = [](Spec spec) {
    Graph g = build(spec);
    Op busier = g.ops[0];
    busier.inputs = {add_tensor(g, "big_in", DType::kInt8, {1, 16, 16, 64})};
    busier.outputs = {add_tensor(g, "big_out", DType::kInt8, {1, 16, 16, 8})};
    g.ops.push_back(busier);
    return g;
  };
  Graph alone = build(s);
  const KernelCall one = lower_in_place_for_test(alone, asked);
  EXPECT_EQ(one.info().function(), "microaot_conv_2d_s8_packed_palette");
  EXPECT_FALSE(fits_under_busiest_op(alone, alone.ops[0], 1));
  EXPECT_TRUE(fits_under_busiest_op(alone, alone.ops[0], 0));
  Graph roomy = beside_a_busier_op(s);
  const KernelCall call = lower_in_place_for_test(roomy, asked);
  EXPECT_EQ(call.info().function(), "microaot_conv_2d_s8_packed_kxk_palette");
  EXPECT_EQ(call.scratch_bytes, MICROAOT_PACKED_KXK_PALETTE_BYTES(64, 8));
  EXPECT_EQ(palette_facts(roomy, call).int8_bytes, 8 * 64);
  const Target balanced = balanced_m4(false);
  Graph by_default = beside_a_busier_op(s);
  EXPECT_NE(lower_in_place_for_test(by_default, balanced).info().function(), "microaot_conv_2d_s8_packed_kxk_palette");
  Spec shallow = s;
  shallow.input[3] = shallow.filter[3] = 8;
  Graph shallow_roomy = beside_a_busier_op(shallow);
  EXPECT_EQ(lower_in_place_for_test(shallow_roomy, asked).info().function(), "microaot_conv_2d_s8_packed_palette");
}

// A 3x3 layer on a DSP cpu: balanced's default keeps the packed k x k kernel over int8 weights (the k x k palette
// kernel would cost 1.12-1.47x the layer: docs/compressed-weights.md); --compress-weights lossless takes the k x k
// DSP palette kernel, with the packed k x k kernel's table (padding's products folded in) and params (input_offset
// the padding's value), and a scratch of the block, two widened windows, one gathered and two pixels' outputs.
TEST(ConvHandler, KxkTakesTheDspPaletteKernelWhenAPaletteIsAskedFor) {
  Spec s;
  s.input = {1, 8, 8, 4}, s.filter = {4, 3, 3, 4}, s.output = {1, 8, 8, 4};
  Target balanced = parse_target("cortex-m4");
  balanced.optimize_balanced = true;
  balanced.compress_bits = default_compress_bits(balanced);
  balanced.compress_fast_only = default_compress_fast_only(balanced);
  Graph by_default = build(s);
  by_default.outputs.push_back(by_default.ops[0].inputs[0]);  // nothing to lose in place: only the cost decides
  EXPECT_EQ(lower_in_place_for_test(by_default, balanced).info().function(), "microaot_conv_2d_s8_packed_kxk");
  Target asked = balanced;
  asked.compress_fast_only = false;
  Graph g = build(s);
  const KernelCall call = lower_in_place_for_test(g, asked);
  EXPECT_EQ(call.info().function(), "microaot_conv_2d_s8_packed_kxk_palette");
  ASSERT_EQ(call.args.size(), 5u);
  EXPECT_EQ(g.tensor(call.args[1]).data[0] & ~MICROAOT_PALETTE_SHARED, 2);  // the filter's values: 1 + i % 3
  EXPECT_EQ(call.scratch_bytes, MICROAOT_PACKED_KXK_PALETTE_BYTES(36, 4));
  EXPECT_EQ(call.params.find("input_offset")->integer, 10);
  EXPECT_EQ(palette_facts(g, call).int8_bytes, 4 * 36);
}

// A 3x3 window of 720 elements (past the one chunk the k x k DSP palette kernel gathers) keeps the portable palette
// kernel on a DSP cpu, and its specialisation (network_info.txt) says why; a 3x3x3 window (not whole words) takes
// the DSP one.
TEST(ConvHandler, KxkSaysWhyItKeepsThePortablePaletteKernel) {
  Target asked = parse_target("cortex-m4");
  asked.optimize_balanced = true;
  asked.compress_bits = default_compress_bits(asked);
  asked.compress_fast_only = false;
  Spec wide;
  wide.input = {1, 4, 4, 80}, wide.filter = {4, 3, 3, 80}, wide.output = {1, 4, 4, 4};
  Graph g = build(wide);
  const KernelCall call = lower_in_place_for_test(g, asked);
  EXPECT_EQ(call.info().function(), "microaot_conv_2d_s8_palette");
  EXPECT_NE(call.specialisation.find("not the k x k DSP palette kernel: a window of 720 elements, past the 640"),
            std::string::npos)
      << call.specialisation;
  Graph stem = build(Spec{});
  EXPECT_EQ(lower_in_place_for_test(stem, asked).info().function(), "microaot_conv_2d_s8_packed_kxk_palette");
}

// --optimize size: the same layer on the same DSP cpu keeps the portable kernel and the model's weights.
TEST(ConvHandler, PointwiseKeepsThePortableKernelWhenOptimizingForSize) {
  Spec s;
  s.filter = {4, 1, 1, 3};
  s.options = Conv2DOptions{Padding::kSame, 1, 1, 1, 1, Activation::kNone};
  Graph g = build(s);
  Target target = parse_target("cortex-m7");
  target.optimize_size = true;
  const KernelCall call = lower_in_place_for_test(g, target);
  EXPECT_EQ(call.info().function(), "microaot_conv_2d_s8");
  EXPECT_EQ(call.specialisation, "not packed: --optimize size");
  EXPECT_EQ(field(call, "input_offset"), "10");
  EXPECT_TRUE(call.derived.empty());
}

// The packed kernel's scratch holds two input pixels widened to int16, padded to groups of four: it follows
// the input depth up to MICROAOT_PACKED_CHUNK (640), beyond which the pixels are reduced in chunks (1000: two of
// 500) and the 4 channels' sums of two pixels (32 bytes) follow the rows.
TEST(ConvHandler, PackedScratchFollowsTheInputDepth) {
  const std::pair<int, int64_t> depth_bytes[] = {{3, 16}, {4, 16}, {13, 64}, {640, 2560}, {1000, 2000 + 32}};
  for (const auto& [depth, bytes] : depth_bytes) {
    Spec s;
    s.input = {1, 4, 4, depth};
    s.filter = {4, 1, 1, depth};
    s.output = {1, 4, 4, 4};
    s.options = Conv2DOptions{Padding::kValid, 1, 1, 1, 1, Activation::kNone};
    Graph g = build(s);
    const KernelCall call = lower_in_place_for_test(g, parse_target("cortex-m4"));
    EXPECT_EQ(call.info().function(), "microaot_conv_2d_s8_packed_w16") << depth;
    EXPECT_EQ(call.scratch_bytes, bytes) << depth;
  }
  Spec three_channels;  // a convolution of any channel count is packed (kPackedConvMinUnits)
  three_channels.filter = {3, 3, 3, 3};
  three_channels.output = {1, 8, 8, 3};
  three_channels.filter_scales = {0.01f, 0.02f, 0.005f};
  Graph packed = build(three_channels);
  EXPECT_EQ(lower_in_place_for_test(packed, parse_target("cortex-m4")).info().function(),
            "microaot_conv_2d_s8_packed_kxk_w16");
}

// A k x k window is a matrix product over the pixels' windows: the packed words (int16, --optimize speed) of
// kh * kw * depth elements per channel, the input offset both kept (the padding's value) and folded into the
// bias, scratch for the rows and the three windows.
TEST(ConvHandler, WindowTakesThePackedWindowKernelWithTheDspExtension) {
  Graph g = build(Spec{});  // 3x3 over 3 channels, SAME, 4 output channels
  const KernelCall call = lower_in_place_for_test(g, parse_target("cortex-m4"));
  EXPECT_EQ(call.info().function(), "microaot_conv_2d_s8_packed_kxk_w16");
  EXPECT_EQ(field(call, "input_offset"), "10");
  // 27 elements: 7 groups of 4; 24 B of three rows + 3 x 4 B of windows each (rows of 9: every window gathered),
  // then the padded rows (three of 10 columns of 3 channels, in words)
  EXPECT_EQ(call.scratch_bytes, 36 * 7 + 92);
  EXPECT_NE(call.specialisation.find("padded rows (92 bytes)"), std::string::npos) << call.specialisation;
  EXPECT_EQ(g.tensor(call.args[1]).byte_size(), 2 * 7 * 4 * 4);  // 2 channel pairs x 7 groups x 4 words
  EXPECT_NE(call.specialisation.find("weights int16"), std::string::npos) << call.specialisation;
  // Filter values 1 + i % 3 (build()): channel 0's 27 weights sum to 9 * (1 + 2 + 3); bias 100; zero point -10:
  // the first word of the output step's table (argument 2, in the bias's place).
  int32_t folded = 0;
  std::memcpy(&folded, g.tensor(call.args[2]).data.data(), 4);
  EXPECT_EQ(folded, 100 + 10 * 54);
  EXPECT_NE(call.specialisation.find("packed windows: each output pixel's 27 taps"), std::string::npos)
      << call.specialisation;
  // The output step's table holds every channel's step: the params' arrays are left empty.
  EXPECT_EQ(g.tensor(call.args[2]).num_elements(), 2 * 8);  // 2 channel pairs x MICROAOT_PACKED_STEP_WORDS
  EXPECT_NE(call.specialisation.find("output step one SMMLAR per value"), std::string::npos);
  const auto arrays = param_arrays(call);
  EXPECT_EQ(arrays.count("output_multiplier"), 0u);
  EXPECT_EQ(arrays.count("output_shift"), 0u);
  EXPECT_EQ(call.params.find("output_multiplier")->form, ParamValue::Form::kIntegers);
}

// The portable kernel on the Cortex-M4, for the reason given.
void expect_unpacked(const Spec& s, const std::string& reason) {
  Graph g = build(s);
  const KernelCall call = lower_in_place_for_test(g, parse_target("cortex-m4"));
  EXPECT_EQ(call.info().function(), "microaot_conv_2d_s8") << reason;
  EXPECT_EQ(call.specialisation, reason);
}

// A layer whose output step the compiler cannot prove exact (an output scale below input scale x filter scale:
// multipliers with a left shift) keeps the unpacked kernel and the model's tensors, 1x1 and k x k, at either
// --optimize setting that packs and on each DSP cpu.
TEST(ConvHandler, LayersOutsideTheOutputStepProofKeepTheUnpackedKernel) {
  Spec pointwise;
  pointwise.filter = {4, 1, 1, 3};
  Spec window;  // 3x3
  for (Spec* s : {&pointwise, &window}) {
    s->output_scale = 0.0001f;  // 0.05 x 0.01 / 0.0001 = 5: shift 3
    for (const char* cpu : {"cortex-m4", "cortex-m7", "cortex-m33"}) {
      for (bool balanced : {false, true}) {
        Graph g = build(*s);
        Target target = parse_target(cpu);
        target.optimize_balanced = balanced;
        const KernelCall call = lower_in_place_for_test(g, target);
        EXPECT_EQ(call.info().function(), "microaot_conv_2d_s8") << cpu;
        EXPECT_EQ(call.specialisation, kOutsideStepRange);
        EXPECT_TRUE(call.derived.empty());
        EXPECT_EQ(call.args, (std::vector<int>{0, 1, 2, 3}));  // input, filter, bias, output of build()
        EXPECT_EQ(field(call, "input_offset"), "10");
        EXPECT_EQ(array(call, "output_shift")[0], 3);
      }
    }
  }
}

// Any window takes the packed kernel: one longer than MICROAOT_PACKED_CHUNK is reduced in chunks, its scratch
// bounded (the three rows and the gathered part of a chunk, then the sums).
TEST(ConvHandler, WideWindowsTakeThePackedWindowKernel) {
  for (const auto& [channels, chunk] : {std::pair<int, int64_t>{72, 324}, {128, 576}, {300, 540}}) {
    Spec wide;  // 3x3 x 72 channels: 648 elements per window, two chunks; 1152; 2700: five
    wide.input = {1, 4, 4, channels};
    wide.filter = {5, 3, 3, channels};
    wide.output = {1, 4, 4, 5};
    wide.filter_scales.assign(5, 0.0001f);
    Graph g = build(wide);
    const KernelCall call = lower_in_place_for_test(g, parse_target("cortex-m4"));
    EXPECT_EQ(call.info().function(), "microaot_conv_2d_s8_packed_kxk_w16") << channels;
    EXPECT_EQ(call.scratch_bytes, 7 * chunk + 3 * 24) << channels;  // 3 channel pairs' sums of three pixels
    EXPECT_NE(call.specialisation.find("packed windows: each output pixel's " + std::to_string(9 * channels)),
              std::string::npos)
        << call.specialisation;
  }
}

TEST(ConvHandler, GroupsKeepTheUnpackedKernel) {
  Spec grouped;
  grouped.input = {1, 8, 8, 6};
  grouped.filter = {4, 1, 1, 3};
  expect_unpacked(grouped, "not packed: grouped filter");
}

TEST(ConvHandler, DilatedSameAndValidStride2Padding) {
  Spec dilated;
  dilated.input = {1, 10, 10, 2};
  dilated.filter = {4, 3, 3, 2};
  dilated.output = {1, 10, 10, 4};
  dilated.options = Conv2DOptions{Padding::kSame, 1, 1, 2, 2, Activation::kNone};
  KernelCall call = lower(build(dilated));
  EXPECT_EQ(field(call, "pad_height"), "2");  // effective filter 5: total 4
  EXPECT_EQ(field(call, "dilation_width"), "2");

  Spec valid;
  valid.input = {1, 9, 9, 3};
  valid.output = {1, 4, 4, 4};
  valid.options = Conv2DOptions{Padding::kValid, 2, 2, 1, 1, Activation::kNone};
  call = lower(build(valid));
  EXPECT_EQ(field(call, "output_height"), "4");
  EXPECT_EQ(field(call, "pad_height"), "0");
  EXPECT_EQ(field(call, "pad_width"), "0");
}

TEST(ConvHandler, AsymmetricStrideAndDilation) {
  Spec s;
  s.input = {1, 8, 9, 3};
  s.filter = {4, 3, 2, 3};
  s.output = {1, 8, 5, 4};  // height: stride 1 SAME; width: stride 2 SAME -> ceil(9 / 2)
  Conv2DOptions options;
  options.padding = Padding::kSame;
  options.stride_h = 1, options.stride_w = 2, options.dilation_h = 2, options.dilation_w = 1;
  s.options = options;
  const KernelCall call = lower(build(s));
  EXPECT_EQ(field(call, "stride_height"), "1");
  EXPECT_EQ(field(call, "stride_width"), "2");
  EXPECT_EQ(field(call, "dilation_height"), "2");
  EXPECT_EQ(field(call, "dilation_width"), "1");
  EXPECT_EQ(field(call, "pad_height"), "2");  // effective 5 rows: (8 - 1) + 5 - 8 = 4 -> 2
  EXPECT_EQ(field(call, "pad_width"), "0");   // (5 - 1) * 2 + 2 - 9 = 1 -> 0 before, 1 after
}

TEST(ConvHandler, ExplicitPaddingSetsLeadingPadsAndOutputSize) {
  Spec s;  // MobileNetV2's stem after folding its PAD: (0, 1) rows and columns, then a stride-2 VALID 3x3
  s.input = {1, 8, 8, 3};
  s.output = {1, 4, 4, 4};  // (8 + 0 + 1 - 3) / 2 + 1
  Conv2DOptions options{Padding::kSame, 2, 2, 1, 1, Activation::kNone};  // ignored: explicit padding wins
  options.explicit_padding = ExplicitPadding{0, 1, 0, 1};
  s.options = options;
  KernelCall call = lower(build(s));
  EXPECT_EQ(field(call, "input_height"), "8");
  EXPECT_EQ(field(call, "output_height"), "4");
  EXPECT_EQ(field(call, "pad_height"), "0");
  EXPECT_EQ(field(call, "pad_width"), "0");

  options.explicit_padding = ExplicitPadding{2, 1, 1, 0};  // asymmetric: 11 rows, 9 columns
  s.output = {1, 5, 4, 4};
  s.options = options;
  call = lower(build(s));
  EXPECT_EQ(field(call, "pad_height"), "2");
  EXPECT_EQ(field(call, "pad_width"), "1");
  EXPECT_EQ(field(call, "output_width"), "4");

  Spec depthwise = depthwise_spec();  // dilation 2: effective 5x5 over 10 + 3 + 1 rows
  DepthwiseConv2DOptions dw{Padding::kValid, 1, 1, 2, 2, 3, Activation::kNone};
  dw.explicit_padding = ExplicitPadding{3, 1, 0, 0};
  depthwise.options = dw;
  depthwise.output = {1, 10, 6, 6};
  call = lower(build(depthwise));
  EXPECT_EQ(field(call, "pad_height"), "3");
  EXPECT_EQ(field(call, "pad_width"), "0");
}

TEST(ConvHandler, ExplicitPaddingIsChecked) {
  Spec s;
  s.input = {1, 8, 8, 3};
  s.output = {1, 4, 4, 4};
  Conv2DOptions options{Padding::kValid, 2, 2, 1, 1, Activation::kNone};
  options.explicit_padding = ExplicitPadding{0, 3, 0, 1};  // 11 rows give 5 output rows, not 4
  s.options = options;
  expect_error(build(s), "CONV_2D", "y", "differs from the computed [1,5,4,4]");
  options.explicit_padding = ExplicitPadding{-1, 2, 0, 1};
  s.options = options;
  expect_error(build(s), "CONV_2D", "", "explicit padding must not be negative");
}

TEST(ConvHandler, NoBiasAndBatch2) {
  Spec s;
  s.input = {2, 5, 7, 3};
  s.filter = {5, 1, 1, 3};
  s.output = {2, 5, 7, 5};
  s.bias = false;
  s.filter_scales = {0.01f, 0.01f, 0.01f, 0.01f, 0.01f};
  s.options = Conv2DOptions{Padding::kValid, 1, 1, 1, 1, Activation::kNone};
  const KernelCall call = lower(build(s));
  EXPECT_EQ(call.args, (std::vector<int>{0, 1, kNoTensor, 2}));
  EXPECT_EQ(field(call, "batches"), "2");
}

TEST(ConvHandler, GroupedFilter) {
  Spec s;
  s.input = {1, 6, 6, 4};
  s.filter = {6, 3, 3, 2};
  s.output = {1, 6, 6, 6};
  s.filter_scales = std::vector<float>(6, 0.01f);
  EXPECT_EQ(field(lower(build(s)), "filter_depth"), "2");
  s.filter = {5, 3, 3, 2};
  s.output = {1, 6, 6, 5};
  s.filter_scales = std::vector<float>(5, 0.01f);
  expect_error(build(s), "CONV_2D", "conv/weights", "cannot be split into 2 groups");
}

TEST(ConvHandler, QuantizedActivationRanges) {
  struct Row {
    Activation activation;
    const char* min;
    const char* max;
  };
  // output scale 0.05, zero point -10: 0 -> -10, 6 -> 110, -1 -> -30, 1 -> 10.
  const Row rows[] = {{Activation::kNone, "-128", "127"},
                      {Activation::kRelu, "-10", "127"},
                      {Activation::kRelu6, "-10", "110"},
                      {Activation::kReluN1To1, "-30", "10"}};
  for (const Row& row : rows) {
    Spec s;
    s.output_scale = 0.05f, s.output_zp = -10;
    s.options = Conv2DOptions{Padding::kSame, 1, 1, 1, 1, row.activation};
    const KernelCall call = lower(build(s));
    EXPECT_EQ(field(call, "activation_min"), row.min);
    EXPECT_EQ(field(call, "activation_max"), row.max);
  }
}

TEST(ConvHandler, FloatCall) {
  Spec s;
  s.type = DType::kFloat32;
  s.version = 1;
  s.options = Conv2DOptions{Padding::kSame, 1, 1, 1, 1, Activation::kRelu6};
  const KernelCall call = lower(build(s));
  EXPECT_EQ(call.info().function(), "microaot_conv_2d_f32");
  EXPECT_EQ(call.info().params->c_type(), "microaot_conv_2d_params_f32");
  EXPECT_EQ(call.source, "kernels/portable/conv_2d_f32.c");
  EXPECT_EQ(field(call, "activation_min"), "0x0p+0f");
  EXPECT_EQ(field(call, "activation_max"), "0x1.8p+2f");
  EXPECT_TRUE(param_arrays(call).empty());
}

TEST(DepthwiseHandler, MultiplierDilationAndCall) {
  const Spec s = depthwise_spec();
  const Graph g = build(s);
  const KernelCall call = lower(g);
  EXPECT_EQ(call.info().function(), "microaot_depthwise_conv_2d_s8");
  EXPECT_EQ(call.info().params->c_type(), "microaot_depthwise_conv_2d_params_q");
  EXPECT_EQ(call.source, "kernels/portable/depthwise_conv_2d_s8.c");
  EXPECT_EQ(field(call, "depth_multiplier"), "3");
  EXPECT_EQ(field(call, "output_depth"), "6");
  EXPECT_EQ(field(call, "pad_height"), "2");
  expect_multipliers(s, call);
  EXPECT_EQ(handler(g).macs(g, g.ops[0]), int64_t{10} * 10 * 6 * 9);
}

// On a DSP target at balanced a layer without a bias the kernel computes through its widened ring alone (KWS's
// geometry: 3x3, stride 1, depth a multiple of 4, rows within one tile) calls the ring's own kernel (with a bias, and
// at speed, the groups' words: DspTakesTheGroupWords); a stride-2 layer, a depth remainder and --optimize size keep
// the general kernel.
Spec ring_spec() {
  Spec s = depthwise_spec();
  s.input = {1, 9, 5, 8};  // 9 rows: above the small-map patch's 8 padded rows, which the full kernel takes
  s.filter = {1, 3, 3, 8};
  s.output = {1, 9, 5, 8};
  s.filter_scales = std::vector<float>(8, 0.01f);
  s.options = DepthwiseConv2DOptions{Padding::kSame, 1, 1, 1, 1, 1, Activation::kRelu};
  return s;
}

Target balanced_target(const std::string& cpu) {
  Target t = parse_target(cpu);
  t.optimize_balanced = true;
  return t;
}

TEST(DepthwiseHandler, DspRingLayersCallTheRingKernel) {
  Spec s = ring_spec();
  s.bias = false;
  const Target m4 = balanced_target("cortex-m4");
  Graph ring = build(s);
  EXPECT_EQ(lower_in_place_for_test(ring, m4).info().function(), "microaot_depthwise_conv_2d_s8_ring");
  Graph ring_m7 = build(s);
  EXPECT_EQ(lower_in_place_for_test(ring_m7, balanced_target("cortex-m7")).info().function(),
            "microaot_depthwise_conv_2d_s8_ring");
  Target size = parse_target("cortex-m4");
  size.optimize_size = true;
  Graph ring_size = build(s);
  const KernelCall full = lower_in_place_for_test(ring_size, size);
  EXPECT_EQ(full.info().function(), "microaot_depthwise_conv_2d_s8");
  // The ring's call: the full kernel's multipliers, then its shifts, as a constant after the bias, and no
  // params arrays (NULL, so that layers differing only in requantization share one params struct).
  const KernelCall ringed = lower_in_place_for_test(ring, m4);
  ASSERT_EQ(ringed.args.size(), 5u);
  std::vector<int64_t> requant = array(full, "output_multiplier");
  for (int64_t shift : array(full, "output_shift")) requant.push_back(shift);
  const std::vector<int32_t> words = constant_values<int32_t>(ring.tensor(ringed.args[3]));
  EXPECT_EQ(std::vector<int64_t>(words.begin(), words.end()), requant);
  EXPECT_TRUE(param_arrays(ringed).empty());
  Spec stride2 = s;
  stride2.output = {1, 5, 3, 8};
  stride2.options = DepthwiseConv2DOptions{Padding::kSame, 2, 2, 1, 1, 1, Activation::kRelu};
  Graph strided = build(stride2);
  EXPECT_EQ(lower_in_place_for_test(strided, m4).info().function(), "microaot_depthwise_conv_2d_s8");
  Spec remainder = s;
  remainder.input = {1, 9, 5, 6};
  remainder.filter = {1, 3, 3, 6};
  remainder.output = {1, 9, 5, 6};
  remainder.filter_scales = std::vector<float>(6, 0.01f);
  Graph six = build(remainder);
  EXPECT_EQ(lower_in_place_for_test(six, m4).info().function(), "microaot_depthwise_conv_2d_s8");
}

// On a DSP cpu every 3x3 layer of whole groups of 4 channels within the DSP bounds (ring, patch or unrolled windows;
// stride 1 or 2) calls the groups' words' kernel over one constant of the words in the place of the filter and
// bias, the params without per-channel arrays: at speed depthwise_conv_2d_s8_w16 (the ring's layers _ring_w16)
// over microaot_dw_group_words's words, at balanced _w8 (_ring_w8) over microaot_dw_compact_words's, 84 bytes a
// group as the int8 filter, bias, multipliers and shifts they replace. A depth remainder keeps the full kernel; so
// does a layer without a bias at balanced (the compact words would be larger than its int8 form).
// A layer's int8 form as --optimize size lowers it: the params with their per-channel arrays, the filter and the
// bias, from which the groups' words are computed.
struct Int8Depthwise {
  microaot_depthwise_conv_2d_params_q params;
  std::vector<int8_t> filter;
  std::vector<int32_t> bias, multipliers, shifts;

  explicit Int8Depthwise(const Spec& s) {
    Target size = parse_target("cortex-m4");
    size.optimize_size = true;
    Graph plain = build(s);
    const KernelCall full = lower_in_place_for_test(plain, size);
    const std::vector<int64_t> m64 = array(full, "output_multiplier"), s64 = array(full, "output_shift");
    multipliers.assign(m64.begin(), m64.end());
    shifts.assign(s64.begin(), s64.end());
    bias = constant_values<int32_t>(plain.tensor(full.args[2]));
    filter = constant_values<int8_t>(plain.tensor(full.args[1]));
    params = MICROAOT_PARAMS_STRUCT(depthwise_conv_2d_params_q, full.params);
  }

  // Each group's `n` words by `write`.
  std::vector<int32_t> words(void (*write)(const microaot_depthwise_conv_2d_params_q*, const int8_t*,
                                           const microaot_depthwise_channels*, int32_t, int32_t*),
                             int32_t n) const {
    const microaot_depthwise_channels ch = {bias.data(), multipliers.data(), shifts.data()};
    std::vector<int32_t> out(static_cast<size_t>(params.output_depth / 4 * n));
    for (int32_t c = 0; c < params.output_depth; c += 4) write(&params, filter.data(), &ch, c, &out[c / 4 * n]);
    return out;
  }
};

TEST(DepthwiseHandler, DspTakesTheGroupWords) {
  const Target m4 = parse_target("cortex-m4");
  struct Level {
    Target target;
    const char* suffix;
    int32_t words;
    void (*write)(const microaot_depthwise_conv_2d_params_q*, const int8_t*, const microaot_depthwise_channels*,
                  int32_t, int32_t*);
  };
  const Level levels[] = {{m4, "w16", MICROAOT_DW_GROUP_WORDS, microaot_dw_group_words},
                          {balanced_target("cortex-m4"), "w8", MICROAOT_DW_COMPACT_WORDS, microaot_dw_compact_words}};
  for (const Level& level : levels) {
    for (const int stride : {1, 2}) {
      Spec s = ring_spec();
      if (stride == 2) {
        s.output = {1, 5, 3, 8};
        s.options = DepthwiseConv2DOptions{Padding::kSame, 2, 2, 1, 1, 1, Activation::kRelu};
      }
      Graph g = build(s);
      const KernelCall call = lower_in_place_for_test(g, level.target);
      // The ring's layer (stride 1, a row in one tile) its own source (as DspRingLayersCallTheRingKernel).
      const std::string stem = std::string(stride == 1 ? "depthwise_conv_2d_s8_ring_" : "depthwise_conv_2d_s8_") +
                               level.suffix;
      EXPECT_EQ(call.info().function(), "microaot_" + stem);
      EXPECT_NE(call.source.find("/" + stem + ".c"), std::string::npos) << call.source;
      ASSERT_EQ(call.args.size(), 3u);
      EXPECT_TRUE(param_arrays(call).empty());
      EXPECT_NE(call.specialisation.find("compile time: " + std::to_string(4 * level.words) + " bytes a group"),
                std::string::npos)
          << call.specialisation;
      EXPECT_EQ(constant_values<int32_t>(g.tensor(call.args[1])), Int8Depthwise(s).words(level.write, level.words));
    }
  }
  const Int8Depthwise int8(ring_spec());
  const std::vector<int32_t> words = int8.words(microaot_dw_group_words, MICROAOT_DW_GROUP_WORDS);
  const std::vector<int32_t> compact = int8.words(microaot_dw_compact_words, MICROAOT_DW_COMPACT_WORDS);
  EXPECT_EQ(words[MICROAOT_DW_GROUP_WEIGHTS] & 0xffff, 2 * int8.filter[0] & 0xffff);     // the lanes doubled
  EXPECT_EQ(static_cast<int8_t>(compact[MICROAOT_DW_COMPACT_TAPS] >> 8), int8.filter[1]);  // the taps as they are
  EXPECT_EQ(compact[MICROAOT_DW_COMPACT_STEP + 1], -int8.shifts[0]);
  EXPECT_EQ(compact[MICROAOT_DW_COMPACT_BIAS + 3], 2 * int8.bias[3]);
  Spec remainder = ring_spec();
  remainder.input = {1, 9, 5, 6}, remainder.filter = {1, 3, 3, 6}, remainder.output = {1, 9, 5, 6};
  remainder.filter_scales = std::vector<float>(6, 0.01f);
  Graph six = build(remainder);
  EXPECT_EQ(lower_in_place_for_test(six, m4).info().function(), "microaot_depthwise_conv_2d_s8");
  Spec unbiased = ring_spec();
  unbiased.bias = false;
  unbiased.output = {1, 5, 3, 8};  // stride 2: not the ring's own kernel
  unbiased.options = DepthwiseConv2DOptions{Padding::kSame, 2, 2, 1, 1, 1, Activation::kRelu};
  Graph no_bias = build(unbiased);
  EXPECT_EQ(lower_in_place_for_test(no_bias, balanced_target("cortex-m4")).stem, "depthwise_conv_2d_s8");
}

// A palette asked for on a DSP cpu (--compress-weights): a 3x3 layer of whole groups of 4 channels takes the DSP
// depthwise palette kernel, stride 1 or 2 (the ring's rows or the unrolled ones), with a scratch of its block: a
// ring layer (rows in one tile) its ring-only build, which links no unrolled windows, rows of 13 or stride 2 the
// full one; a depth remainder keeps the portable palette kernel and says why; balanced's default keeps the int8
// weights (the ring over the compact group words).
TEST(DepthwiseHandler, DspPaletteKernelWhereAPaletteIsAskedFor) {
  Target balanced = parse_target("cortex-m4");
  balanced.optimize_balanced = true;
  balanced.compress_bits = default_compress_bits(balanced);
  balanced.compress_fast_only = default_compress_fast_only(balanced);
  Graph by_default = build(ring_spec());
  EXPECT_EQ(lower_in_place_for_test(by_default, balanced).stem, "depthwise_conv_2d_s8_ring_w8");
  Target asked = balanced;
  asked.compress_fast_only = false;
  Graph g = build(ring_spec());
  const KernelCall call = lower_in_place_for_test(g, asked);
  EXPECT_EQ(call.info().function(), "microaot_depthwise_conv_2d_s8_ring_palette");
  EXPECT_EQ(call.source, "kernels/dsp/depthwise_conv_2d_s8_ring_palette.c");
  EXPECT_EQ(call.scratch_bytes, MICROAOT_DEPTHWISE_PALETTE_BLOCK_BYTES);
  EXPECT_EQ(g.tensor(call.args[1]).data[0] & ~MICROAOT_PALETTE_SHARED, 2);  // the filter's values: 1 + i % 3
  EXPECT_EQ(palette_facts(g, call).int8_bytes, 8 * 9);
  EXPECT_EQ(array(call, "output_shift").size(), 8u);  // the params keep their per-channel arrays
  Spec stride2 = ring_spec();
  stride2.output = {1, 5, 3, 8};  // ring_spec is 9 rows tall
  stride2.options = DepthwiseConv2DOptions{Padding::kSame, 2, 2, 1, 1, 1, Activation::kRelu};
  Graph strided = build(stride2);
  EXPECT_EQ(lower_in_place_for_test(strided, asked).stem, "depthwise_conv_2d_s8_widened_palette");
  Spec wide = ring_spec();
  wide.input = {1, 9, 13, 8}, wide.output = {1, 9, 13, 8};  // rows of 13: past one tile of the ring
  Graph thirteen = build(wide);
  EXPECT_EQ(lower_in_place_for_test(thirteen, asked).stem, "depthwise_conv_2d_s8_widened_palette");
  Spec remainder = ring_spec();
  remainder.input = {1, 6, 5, 6}, remainder.filter = {1, 3, 3, 6}, remainder.output = {1, 6, 5, 6};
  remainder.filter_scales = std::vector<float>(6, 0.01f);
  Graph six = build(remainder);
  const KernelCall portable = lower_in_place_for_test(six, asked);
  EXPECT_EQ(portable.stem, "depthwise_conv_2d_s8_palette");
  EXPECT_NE(portable.specialisation.find("whole groups of 4 channels"), std::string::npos) << portable.specialisation;
}

// The ring's kernels (over the compact words, which the compiler checks, as the int8 one, which the runtime checks:
// microaot_dsp_depthwise_fits) take a requantization within its bounds only, so a ring layer whose constants
// cross one keeps the full kernel, and its specialisation line says why.
TEST(DepthwiseHandler, DspRingOnlyForARequantizationWithinItsBounds) {
  const Target m4 = balanced_target("cortex-m4");
  Graph fits = build(ring_spec());
  EXPECT_EQ(lower_in_place_for_test(fits, m4).stem, "depthwise_conv_2d_s8_ring_w8");
  Graph edge_bias = build(ring_spec());
  std::vector<uint8_t>& bias = edge_bias.tensor(edge_bias.ops[0].inputs[2]).data;
  const int32_t largest = 1 << 29, beyond = largest + 1;
  std::memcpy(bias.data() + 4, &largest, sizeof largest);
  EXPECT_EQ(lower_in_place_for_test(edge_bias, m4).stem, "depthwise_conv_2d_s8_ring_w8");
  Graph large_bias = build(ring_spec());
  std::memcpy(large_bias.tensor(large_bias.ops[0].inputs[2]).data.data() + 4, &beyond, sizeof beyond);
  const KernelCall refused = lower_in_place_for_test(large_bias, m4);
  EXPECT_EQ(refused.stem, "depthwise_conv_2d_s8");
  EXPECT_EQ(refused.info().function(), "microaot_depthwise_conv_2d_s8");
  EXPECT_NE(refused.specialisation.find("requantization outside the ring's"), std::string::npos)
      << refused.specialisation;
  Spec scaled_up = ring_spec();
  scaled_up.filter_scales[6] = 10.0f;  // 0.05 * 10 / 0.1: a left shift
  Graph left_shift = build(scaled_up);
  const KernelCall shifted = lower_in_place_for_test(left_shift, m4);
  EXPECT_GT(array(shifted, "output_shift")[6], 0);
  EXPECT_EQ(shifted.stem, "depthwise_conv_2d_s8");
}

// On a DSP target a layer of depth multiplier 3 (neither 1 nor 4k: the full kernel's portable code) or 4 (the full
// kernel's tap-by-tap path; micro_speech's 8 too) calls depthwise_conv_2d_s8_multiplier_strip, or with a left shift
// depthwise_conv_2d_s8_multiplier (each window's in-image taps), which take the params as they are; fewer than 4
// output channels and --optimize size keep the full kernel.
TEST(DepthwiseHandler, DspMultiplierLayersCallTheMultiplierKernel) {
  const Target m4 = parse_target("cortex-m4");
  Graph three = build(depthwise_spec());
  const KernelCall call = lower_in_place_for_test(three, m4);
  EXPECT_EQ(call.info().function(), "microaot_depthwise_conv_2d_s8_multiplier_strip");
  EXPECT_EQ(array(call, "output_shift").size(), 6u);
  EXPECT_NE(call.specialisation.find("depthwise multiplier 3: 4 channels per step"), std::string::npos)
      << call.specialisation;
  Spec narrow = depthwise_spec();
  narrow.input = {1, 10, 10, 1};
  narrow.filter = {1, 3, 3, 3};
  narrow.output = {1, 10, 10, 3};
  narrow.filter_scales = {0.01f, 0.02f, 0.03f};
  Graph narrow_graph = build(narrow);
  const KernelCall full = lower_in_place_for_test(narrow_graph, m4);
  EXPECT_EQ(full.info().function(), "microaot_depthwise_conv_2d_s8");
  EXPECT_NE(full.specialisation.find("fewer than 4 output channels"), std::string::npos) << full.specialisation;
  Spec four = depthwise_spec();
  four.filter = {1, 3, 3, 8};
  four.output = {1, 10, 10, 8};
  four.filter_scales = std::vector<float>(8, 0.01f);
  four.options = DepthwiseConv2DOptions{Padding::kSame, 1, 1, 2, 2, 4, Activation::kNone};
  Graph four_graph = build(four);
  const KernelCall four_call = lower_in_place_for_test(four_graph, m4);
  // Its rows through the strip's stem (microaot_fit_depthwise_multiplier_strip_tile), which network_info.txt names.
  EXPECT_EQ(four_call.info().function(), "microaot_depthwise_conv_2d_s8_multiplier_strip");
  EXPECT_NE(four_call.specialisation.find("two windows a pass"), std::string::npos) << four_call.specialisation;
  // A multiplier of 4k whose requantization shifts left (which the full kernel leaves to the portable code): the
  // multiplier kernel, which shifts the sums itself; the specialisation line says so.
  Spec four_left = four;
  four_left.filter_scales[5] = 10.0f;
  Graph four_left_graph = build(four_left);
  const KernelCall left = lower_in_place_for_test(four_left_graph, m4);
  EXPECT_GT(array(left, "output_shift")[5], 0);
  EXPECT_EQ(left.info().function(), "microaot_depthwise_conv_2d_s8_multiplier");
  EXPECT_NE(left.specialisation.find("left shift"), std::string::npos) << left.specialisation;
  EXPECT_NE(left.specialisation.find("not the strip: a channel's requantization shifts left"), std::string::npos)
      << left.specialisation;
  Target size = m4;
  size.optimize_size = true;
  Graph sized = build(depthwise_spec());
  EXPECT_EQ(lower_in_place_for_test(sized, size).info().function(), "microaot_depthwise_conv_2d_s8");
}

TEST(DepthwiseHandler, Stride2ValidFloat) {
  Spec s = depthwise_spec();
  s.type = DType::kFloat32;
  s.input = {1, 9, 9, 3};
  s.output = {1, 4, 4, 6};
  s.bias = false;
  s.options = DepthwiseConv2DOptions{Padding::kValid, 2, 2, 1, 1, 2, Activation::kRelu};
  const KernelCall call = lower(build(s));
  EXPECT_EQ(call.info().function(), "microaot_depthwise_conv_2d_f32");
  EXPECT_EQ(field(call, "output_width"), "4");
  EXPECT_EQ(field(call, "depth_multiplier"), "2");
  EXPECT_EQ(field(call, "activation_max"), "FLT_MAX");
  EXPECT_EQ(call.args[2], kNoTensor);
}

// ---------------------------------------------------------------- int16 (16x8)

// The error text lowering throws (multipliers are computed there), or "" when it succeeds.
std::string lower_error(const Graph& g) {
  try {
    lower(g);
  } catch (const CompileError& e) {
    return e.what();
  }
  return "";
}

TEST(ConvHandler, Int16WithInt64BiasLowersToThe64BitKernel) {
  Spec s = int16_spec(Spec{});
  s.options = Conv2DOptions{Padding::kSame, 1, 1, 1, 1, Activation::kRelu6};
  const KernelCall call = lower(build(s));
  EXPECT_EQ(call.info().function(), "microaot_conv_2d_s16");
  EXPECT_EQ(call.info().params->c_type(), "microaot_conv_2d_params_q");
  EXPECT_EQ(call.source, "kernels/portable/conv_2d_s16.c");
  EXPECT_EQ(call.args, (std::vector<int>{0, 1, 2, 3}));
  expect_multipliers(s, call);
  EXPECT_EQ(field(call, "input_offset"), "0");
  EXPECT_EQ(field(call, "output_offset"), "0");
  EXPECT_EQ(field(call, "activation_min"), "0");
  EXPECT_EQ(field(call, "activation_max"), "7500");  // 6 / 0.0008
}

// On a DSP target a 16x8 window of one int32 sum takes the packed 16x8 kernel (int16 weight words at speed, int8
// at balanced; the bias and requantization kept); a longer window and --optimize size keep the generic stem.
TEST(ConvHandler, Int16WindowsOfOneSumTakeThePackedKernelOnTheDsp) {
  Spec s = int16_spec(Spec{});  // 3x3 over 3 channels, 4 output channels
  Graph g = build(s);
  const KernelCall call = lower_in_place_for_test(g, parse_target("cortex-m4"));
  EXPECT_EQ(call.info().function(), "microaot_conv_2d_s16_packed_w16");
  EXPECT_EQ(g.tensor(call.args[1]).byte_size(), 2 * 7 * 4 * 4);  // 2 channel pairs x 7 groups x 4 words
  EXPECT_EQ(call.scratch_bytes, MICROAOT_PACKED_S16_BYTES(27, 4));
  expect_multipliers(s, call);
  Target balanced = parse_target("cortex-m4");
  balanced.optimize_balanced = true;
  Graph int8_words = build(s);
  EXPECT_EQ(lower_in_place_for_test(int8_words, balanced).info().function(), "microaot_conv_2d_s16_packed");
  Target size = parse_target("cortex-m4");
  size.optimize_size = true;
  Graph portable = build(s);
  EXPECT_EQ(lower_in_place_for_test(portable, size).info().function(), "microaot_conv_2d_s16");
  Spec wide = s;  // 3x3 over 57 channels: 513 elements
  wide.input = {1, 8, 8, 57};
  wide.filter = {4, 3, 3, 57};
  Graph long_window = build(wide);
  const KernelCall unpacked = lower_in_place_for_test(long_window, parse_target("cortex-m4"));
  EXPECT_EQ(unpacked.info().function(), "microaot_conv_2d_s16");
  EXPECT_NE(unpacked.specialisation.find("a window of 513 elements"), std::string::npos) << unpacked.specialisation;
}

TEST(ConvHandler, Int16WithInt32BiasSumsIn32Bits) {
  Spec s = int16_spec(Spec{});
  s.bias_type = DType::kInt32;
  EXPECT_EQ(lower(build(s)).info().function(), "microaot_conv_2d_s16_bias32");
  // Without a bias, quantized_bias_type decides, as in TFLM: INT32 sums in 32 bits, anything else in 64.
  s.bias = false;
  EXPECT_EQ(lower(build(s)).info().function(), "microaot_conv_2d_s16");
  Conv2DOptions options{Padding::kSame, 1, 1, 1, 1, Activation::kNone};
  options.int32_bias = true;
  s.options = options;
  const KernelCall call = lower(build(s));
  EXPECT_EQ(call.info().function(), "microaot_conv_2d_s16_bias32");
  EXPECT_EQ(call.args[2], kNoTensor);
}

TEST(ConvHandler, Int16AccumulatorLimits) {
  // 32-bit sums: |bias| + 32768 * (sum of |w| = 54 in channel 0) must stay within int32.
  Spec s = int16_spec(Spec{});
  s.bias_type = DType::kInt32;
  Graph g = build(s);
  const int32_t near_max = INT32_MAX - 54 * 32768 + 1;
  std::memcpy(g.tensor(2).data.data(), &near_max, 4);
  expect_error(g, "CONV_2D", "conv/weights", "output channel 0 could overflow the int32 accumulator");
  // 64-bit sums: within the +-2^47 of TFLite's 16x8 requantization.
  g = build(int16_spec(Spec{}));
  const int64_t wide = (int64_t{1} << 47) - 54 * 32768;
  std::memcpy(g.tensor(2).data.data() + 8, &wide, 8);
  expect_error(g, "CONV_2D", "conv/weights", "output channel 1 could overflow the 48-bit range");
}

TEST(ConvHandler, Int16RescaleAbove128NeedsThe32BitRequantization) {
  Spec s = int16_spec(Spec{});
  s.input_scale = 0.5f, s.output_scale = 0.001f;
  s.filter_scales = {1.0f};  // real 500: shift 9
  EXPECT_NE(lower_error(build(s)).find("beyond TFLite's 16x8 requantization"), std::string::npos);
  s.bias_type = DType::kInt32;
  EXPECT_EQ(array(lower(build(s)), "output_shift"), std::vector<int64_t>(4, 9));
}

TEST(DepthwiseHandler, Int16TakesAnInt64Bias) {
  Spec s = int16_spec(depthwise_spec());
  const KernelCall call = lower(build(s));
  EXPECT_EQ(call.info().function(), "microaot_depthwise_conv_2d_s16");
  expect_multipliers(s, call);
  s.bias = false;
  EXPECT_EQ(lower(build(s)).info().function(), "microaot_depthwise_conv_2d_s16");
  // TFLM reads an int16 depthwise bias as int64 whatever its type.
  s = int16_spec(depthwise_spec());
  s.bias_type = DType::kInt32;
  expect_error(build(s), "DEPTHWISE_CONV_2D", "conv/bias", "int32 is not supported here (expected int64)");
}

// ---------------------------------------------------------------- refusals

TEST(ConvHandler, RefusesWrongOutputShape) {
  Spec s;
  s.output = {1, 8, 8, 5};
  expect_error(build(s), "CONV_2D", "y", "differs from the computed [1,8,8,4]");
  s.output = {1, 7, 8, 4};
  expect_error(build(s), "CONV_2D", "y", "shape [1,7,8,4]");
}

TEST(ConvHandler, RefusesNonConstantFilter) {
  Graph g = build(Spec{});
  g.tensor(1).is_constant = false;
  expect_error(g, "CONV_2D", "conv/weights", "must be a constant");
}

TEST(ConvHandler, RefusesBadFilterQuantization) {
  Spec s;
  s.filter_scales = {0.1f, 0.2f};
  expect_error(build(s), "CONV_2D", "conv/weights",
               "has 2 quantization scales, expected 1 or one per output channel (4)");
  Graph g = build(Spec{});
  g.tensor(1).quant.zero_point[2] = 3;
  expect_error(g, "CONV_2D", "conv/weights", "zero point 0");
  g = build(Spec{});
  g.tensor(1).quant.axis = 3;
  expect_error(g, "CONV_2D", "conv/weights", "along dimension 0");
  g = build(Spec{});
  g.tensor(1).quant.scale[1] = -0.5f;
  expect_error(g, "CONV_2D", "conv/weights", "finite and not negative");
  g = build(Spec{});
  g.tensor(0).quant = {};
  expect_error(g, "CONV_2D", "x", "per-tensor quantization");
}

TEST(ConvHandler, RefusesUnsupportedTypes) {
  Graph g = build(Spec{});
  g.tensor(2).dtype = DType::kInt64;  // bias
  expect_error(g, "CONV_2D", "conv/bias", "int64 is not supported here (expected int32)");
  Spec hybrid;
  hybrid.type = DType::kFloat32;
  g = build(hybrid);
  g.tensor(1).dtype = DType::kInt8;  // hybrid weights without a scale
  g.tensor(1).data.resize(108);
  expect_error(g, "CONV_2D", "conv/weights", "need 1 scale or one per output channel (4), got 0");
  g = build(int16_spec(Spec{}));
  g.tensor(1).dtype = DType::kInt16;  // 16x16
  expect_error(g, "CONV_2D", "conv/weights", "int16 is not supported here (expected int8)");
  g = build(int16_spec(Spec{}));
  g.tensor(2).dtype = DType::kInt16;
  expect_error(g, "CONV_2D", "conv/bias", "int16 is not supported here (expected int64 or int32)");
  Spec uint8;
  uint8.type = DType::kUInt8;
  expect_error(build(uint8), "CONV_2D", "x", "uint8 is not supported here");
}

TEST(ConvHandler, RefusesAsymmetricInt16Activations) {
  // TFLM's int16 kernels take no zero points: a non-zero one would be ignored there, a wrong answer here.
  Spec s = int16_spec(Spec{});
  s.input_zp = 3;
  expect_error(build(s), "CONV_2D", "x", "must be symmetric (zero point 0)");
  s = int16_spec(Spec{});
  s.output_zp = -1;
  expect_error(build(s), "CONV_2D", "y", "must be symmetric (zero point 0)");
}

TEST(ConvHandler, RefusesBadOptionsAndVersion) {
  Spec s;
  s.version = 9;
  expect_error(build(s), "CONV_2D", "", "version 9 is not supported");
  s = Spec{};
  Conv2DOptions zero_stride;
  zero_stride.stride_h = 0;
  s.options = zero_stride;
  expect_error(build(s), "CONV_2D", "", "stride_h must be at least 1, got 0");
  s = Spec{};
  s.input = {1, 2, 2, 3};
  s.options = Conv2DOptions{Padding::kValid, 1, 1, 1, 1, Activation::kNone};
  expect_error(build(s), "CONV_2D", "", "larger than the input height (2) with VALID padding");
  s = Spec{};
  s.options = DepthwiseConv2DOptions{};
  expect_error(build(s), "CONV_2D", "", "has no Conv2DOptions");
}

TEST(ConvHandler, RefusesBiasOfWrongLength) {
  Graph g = build(Spec{});
  g.tensor(2).shape = {3};
  g.tensor(2).data.resize(12);
  expect_error(g, "CONV_2D", "conv/bias", "has 3 elements, expected one per output channel (4)");
}

TEST(ConvHandler, RefusesPossibleAccumulatorOverflow) {
  Graph g = build(Spec{});
  Tensor& bias = g.tensor(2);
  const uint8_t near_max[] = {0x00, 0xff, 0xff, 0x7f};  // channel 2 bias 0x7fffff00
  std::copy(near_max, near_max + 4, bias.data.begin() + 4 * 2);
  expect_error(g, "CONV_2D", "conv/weights", "output channel 2 could overflow the int32 accumulator");
}

TEST(DepthwiseHandler, RefusesInconsistentDepthMultiplier) {
  Spec s = depthwise_spec();
  s.options = DepthwiseConv2DOptions{Padding::kSame, 1, 1, 2, 2, 2, Activation::kNone};
  expect_error(build(s), "DEPTHWISE_CONV_2D", "", "depth_multiplier 2 does not match 2 input channels and 6");
}

TEST(DepthwiseHandler, RefusesBadFilterLayoutAndAxis) {
  Spec s = depthwise_spec();
  s.filter_axis = 0;
  expect_error(build(s), "DEPTHWISE_CONV_2D", "conv/weights", "along dimension 3");
  s = depthwise_spec();
  s.filter = {2, 3, 3, 6};
  expect_error(build(s), "DEPTHWISE_CONV_2D", "conv/weights", "shape [1, height, width, channels]");
  s = depthwise_spec();
  s.version = 8;
  expect_error(build(s), "DEPTHWISE_CONV_2D", "", "version 8 is not supported (up to 7)");
}

}  // namespace
}  // namespace microaot
