// fold_pad: which PADs fold into the convolution behind them (IR after the pass and the lowered padding
// fields), and which stay because folding would change a value.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ops/lowering_test_util.h"
#include "ops/op_options.h"
#include "passes/pass.h"

namespace microaot {
namespace {

// x -> PAD(V2) -> padded -> conv -> y, with filter and bias constants.
struct Case {
  OpKind conv = OpKind::Conv2D;
  DType type = DType::kInt8;
  std::vector<int32_t> input{1, 8, 8, 3};
  std::vector<int32_t> pads{0, 0, 0, 1, 0, 1, 0, 0};  // MobileNetV2's stem: one row and column after
  std::vector<int32_t> filter{4, 3, 3, 3};
  std::vector<int32_t> output{1, 4, 4, 4};
  OpOptions options = Conv2DOptions{Padding::kValid, 2, 2, 1, 1, Activation::kNone};
  int64_t zero_point = -5;
  std::optional<double> padv2_value;  // PADV2's constant; plain PAD when absent
  float filter_value = 0.5f;          // float filters: every element
};

int add_tensor(Graph& g, const std::string& name, DType type, std::vector<int32_t> shape) {
  Tensor t;
  t.name = name;
  t.dtype = type;
  t.shape = std::move(shape);
  g.tensors.push_back(t);
  return static_cast<int>(g.tensors.size()) - 1;
}

template <typename T>
void set_data(Tensor& t, const std::vector<T>& values) {
  t.is_constant = true;
  t.data.resize(values.size() * sizeof(T));
  std::memcpy(t.data.data(), values.data(), t.data.size());
}

void quantize(Tensor& t, float scale, int64_t zero_point) { t.quant = {{scale}, {zero_point}, 0}; }

std::vector<int32_t> padded_shape(const Case& c) {
  std::vector<int32_t> shape = c.input;
  for (size_t d = 0; d < shape.size(); ++d) shape[d] += c.pads[2 * d] + c.pads[2 * d + 1];
  return shape;
}

// The PADV2 value as a constant of the data type.
int add_fill(Graph& g, const Case& c) {
  const int fill = add_tensor(g, "fill", c.type, {});
  if (c.type == DType::kFloat32) set_data<float>(g.tensor(fill), {static_cast<float>(*c.padv2_value)});
  if (c.type == DType::kInt8) set_data<int8_t>(g.tensor(fill), {static_cast<int8_t>(*c.padv2_value)});
  if (c.type == DType::kInt8) quantize(g.tensor(fill), 0.05f, c.zero_point);
  return fill;
}

Graph build(const Case& c) {
  Graph g;
  const bool q = c.type != DType::kFloat32;
  const int x = add_tensor(g, "x", c.type, c.input);
  const int paddings = add_tensor(g, "paddings", DType::kInt32, {static_cast<int32_t>(c.input.size()), 2});
  set_data(g.tensor(paddings), c.pads);
  const int padded = add_tensor(g, "padded", c.type, padded_shape(c));
  const int filter = add_tensor(g, "filter", q ? DType::kInt8 : DType::kFloat32, c.filter);
  const int y = add_tensor(g, "y", c.type, c.output);
  const Tensor& f = g.tensor(filter);
  if (q) {
    set_data(g.tensor(filter), std::vector<int8_t>(static_cast<size_t>(f.num_elements()), 3));
    quantize(g.tensor(filter), 0.02f, 0);
    for (const int id : {x, padded}) quantize(g.tensor(id), 0.05f, c.zero_point);
    quantize(g.tensor(y), 0.1f, 2);
  } else {
    set_data(g.tensor(filter), std::vector<float>(static_cast<size_t>(f.num_elements()), c.filter_value));
  }
  Op pad{c.padv2_value ? OpKind::PadV2 : OpKind::Pad, 0, 1, {x, paddings}, {padded}, NoOptions{}};
  if (c.padv2_value) pad.inputs.push_back(add_fill(g, c));
  g.ops = {pad, Op{c.conv, 1, 1, {padded, filter}, {y}, c.options}};
  g.inputs = {x};
  g.outputs = {y};
  return g;
}

bool run(Graph& g) {
  PassContext ctx;
  return fold_pad(g, ctx);
}

std::string lowered_field(const Graph& g, const std::string& name) {
  return param_text(lower_for_test(g, g.ops.back())).at(name);
}

template <typename Options>
ExplicitPadding explicit_padding(const Op& op) {
  const std::optional<ExplicitPadding>& pads = std::any_cast<Options>(op.options).explicit_padding;
  EXPECT_TRUE(pads.has_value());
  return pads.value_or(ExplicitPadding{-1, -1, -1, -1});
}

void expect_padding(const ExplicitPadding& got, const ExplicitPadding& want) {
  EXPECT_EQ(got.top, want.top);
  EXPECT_EQ(got.bottom, want.bottom);
  EXPECT_EQ(got.left, want.left);
  EXPECT_EQ(got.right, want.right);
}

TEST(FoldPad, AsymmetricPadBeforeStride2ValidConvBecomesItsPadding) {
  Graph g = build(Case{});
  ASSERT_TRUE(run(g));
  ASSERT_EQ(g.ops.size(), 1u);
  EXPECT_EQ(g.ops[0].kind, OpKind::Conv2D);
  EXPECT_EQ(g.ops[0].inputs[0], 0);  // reads x
  expect_padding(explicit_padding<Conv2DOptions>(g.ops[0]), {0, 1, 0, 1});
  EXPECT_EQ(lowered_field(g, "input_height"), "8");
  EXPECT_EQ(lowered_field(g, "output_height"), "4");
  EXPECT_EQ(lowered_field(g, "pad_height"), "0");
  EXPECT_EQ(lowered_field(g, "input_offset"), "5");  // the zero point the padding held
}

TEST(FoldPad, AddsToTheDepthwiseSamePadding) {
  Case c;
  c.conv = OpKind::DepthwiseConv2D;
  c.pads = {0, 0, 1, 2, 2, 0, 0, 0};  // 11 x 10 padded
  c.filter = {1, 3, 3, 3};
  c.output = {1, 11, 10, 3};
  c.options = DepthwiseConv2DOptions{Padding::kSame, 1, 1, 1, 1, 1, Activation::kNone};
  Graph g = build(c);
  ASSERT_TRUE(run(g));
  ASSERT_EQ(g.ops.size(), 1u);
  expect_padding(explicit_padding<DepthwiseConv2DOptions>(g.ops[0]), {2, 3, 3, 1});  // SAME's 1 each side added
  EXPECT_EQ(lowered_field(g, "pad_height"), "2");
  EXPECT_EQ(lowered_field(g, "pad_width"), "3");
  EXPECT_EQ(lowered_field(g, "output_width"), "10");
}

TEST(FoldPad, PadV2WithTheZeroPointAndFloatZeroFold) {
  Case v2;
  v2.padv2_value = -5;
  Graph g = build(v2);
  EXPECT_TRUE(run(g));
  Case real;
  real.type = DType::kFloat32;
  real.padv2_value = 0.0;
  g = build(real);
  EXPECT_TRUE(run(g));
  EXPECT_EQ(lowered_field(g, "pad_height"), "0");
}

// Each case changes one thing that makes the padded values matter, or leaves no place for them.
TEST(FoldPad, KeepsPadsWhoseFoldWouldChangeAValue) {
  std::vector<std::pair<std::string, Case>> cases;
  Case fill;  // not the zero point: the padding adds (3 - -5) * w per tap
  fill.padv2_value = 3;
  cases.emplace_back("fill is not the zero point", fill);
  Case real;  // 0.0 * inf is NaN, a skipped tap is not
  real.type = DType::kFloat32;
  real.filter_value = INFINITY;
  cases.emplace_back("float filter holds inf", real);
  Case real_fill;
  real_fill.type = DType::kFloat32;
  real_fill.padv2_value = 1.0;
  cases.emplace_back("float fill 1.0", real_fill);
  Case channels;  // pads the channel dimension: no convolution padding means that
  channels.pads = {0, 0, 0, 1, 0, 1, 0, 1};
  channels.filter = {4, 3, 3, 4};
  cases.emplace_back("channel padding", channels);
  for (const auto& [name, c] : cases) {
    Graph g = build(c);
    EXPECT_FALSE(run(g)) << name;
    EXPECT_EQ(g.ops.size(), 2u) << name;
  }
}

TEST(FoldPad, KeepsPadsWhoseOutputIsSeenElsewhere) {
  Graph exposed = build(Case{});
  exposed.outputs.push_back(2);  // the padded tensor is a graph output
  EXPECT_FALSE(run(exposed));

  Graph requantized = build(Case{});  // PAD's output quantized apart from its input: the conv would read it as x's
  quantize(requantized.tensor(2), 0.05f, -4);
  EXPECT_FALSE(run(requantized));

  Graph pooled = build(Case{});  // AVERAGE_POOL divides by the in-image count: the padding is not skippable
  const int pool_out = add_tensor(pooled, "pooled", DType::kInt8, {1, 9, 9, 3});
  quantize(pooled.tensor(pool_out), 0.05f, -5);
  pooled.ops.push_back(Op{OpKind::AveragePool2D, 2, 1, {2}, {pool_out}, Pool2DOptions{Padding::kSame, 1, 1, 2, 2}});
  pooled.outputs.push_back(pool_out);
  EXPECT_FALSE(run(pooled));
  EXPECT_EQ(pooled.ops.size(), 3u);
}

// x [1,8,8,3] -> PAD (zero point `fill`: PAD's int8 fill) -> MAX_POOL_2D -> y.
Graph pad_then_max_pool(int64_t fill, std::vector<int32_t> pads, Pool2DOptions options, std::vector<int32_t> out) {
  Case c;
  c.pads = std::move(pads);
  c.zero_point = fill;
  Graph g = build(c);
  g.tensor(4).shape = std::move(out);
  g.tensor(4).quant = g.tensor(0).quant;  // pools do not requantize
  g.ops[1] = Op{OpKind::MaxPool2D, 1, 1, {2}, {4}, options};
  return g;
}

TEST(FoldPad, MaxPoolFoldsAPadOfTheLowestValue) {
  const Pool2DOptions o{Padding::kValid, 2, 2, 3, 3};  // 3x3 stride 2 over 9x9: 4x4
  Graph g = pad_then_max_pool(-128, {0, 0, 0, 1, 0, 1, 0, 0}, o, {1, 4, 4, 3});
  ASSERT_TRUE(run(g));
  ASSERT_EQ(g.ops.size(), 1u);
  expect_padding(explicit_padding<Pool2DOptions>(g.ops[0]), {0, 1, 0, 1});
  EXPECT_EQ(lowered_field(g, "padding_height"), "0");
  EXPECT_EQ(lowered_field(g, "output_height"), "4");

  Graph above = pad_then_max_pool(-127, {0, 0, 0, 1, 0, 1, 0, 0}, o, {1, 4, 4, 3});  // -127 can win
  EXPECT_FALSE(run(above));
  // 2x2 stride 1 over 2 padded rows first: that window has no input element, its -128 is the result.
  const Pool2DOptions small{Padding::kValid, 1, 1, 2, 2};
  Graph empty = pad_then_max_pool(-128, {0, 0, 2, 0, 0, 0, 0, 0}, small, {1, 9, 7, 3});
  EXPECT_FALSE(run(empty));
}

TEST(FoldPad, EveryConvReadingThePadTakesItsPadding) {
  Graph g = build(Case{});
  const int second = add_tensor(g, "y2", DType::kInt8, {1, 4, 4, 4});
  g.tensor(second).quant = g.tensor(4).quant;
  Op twin = g.ops[1];
  twin.outputs = {second};
  g.ops.push_back(twin);
  g.outputs.push_back(second);
  ASSERT_TRUE(run(g));
  ASSERT_EQ(g.ops.size(), 2u);
  for (const Op& conv : g.ops) {
    EXPECT_EQ(conv.inputs[0], 0);
    expect_padding(explicit_padding<Conv2DOptions>(conv), {0, 1, 0, 1});
  }
}

TEST(FoldPad, ListedInThePipeline) {
  const std::vector<std::string> names = pass_names();
  EXPECT_NE(std::find(names.begin(), names.end(), "fold_pad"), names.end());
}

}  // namespace
}  // namespace microaot
