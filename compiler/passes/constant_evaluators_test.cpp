// The evaluators of fold_constants against the runtime kernels (linked C, microaot_runtime) on the same data
// and the params the handler lowers to: every output byte must be identical. Data includes the edges of
// each formula: every int8 value, halves and out-of-range floats, NaN and infinities, fills and repeats.
#include "passes/constant_evaluators.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "microaot/kernels/cast.h"
#include "microaot/kernels/concatenation.h"
#include "microaot/kernels/gather.h"
#include "microaot/kernels/quantize.h"
#include "microaot/kernels/remap.h"
#include "ops/reduce_test_util.h"
#include "ops/remap_test_util.h"

namespace microaot {
namespace {

using Bytes = std::vector<uint8_t>;

template <typename T>
Bytes bytes_of(const std::vector<T>& values) {
  Bytes bytes(values.size() * sizeof(T));
  if (!values.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

// Makes tensor `id` a constant holding `values`.
template <typename T>
void set_constant(Graph& g, int id, const std::vector<T>& values) {
  g.tensors[static_cast<size_t>(id)].is_constant = true;
  g.tensors[static_cast<size_t>(id)].data = bytes_of(values);
}

Bytes evaluate(const Graph& g) {
  const ConstantFoldRule* rule = constant_fold_rule(g.ops[0].kind);
  EXPECT_NE(rule, nullptr);
  if (rule == nullptr) return {};
  const std::optional<Bytes> bytes = rule->evaluate(g, g.ops[0]);
  EXPECT_TRUE(bytes.has_value());
  return bytes.value_or(Bytes{});
}

std::vector<int32_t> ints32(const KernelCall& call, const char* field) {
  std::vector<int32_t> values;
  for (int64_t v : call.params.find(field)->integers) values.push_back(static_cast<int32_t>(v));
  return values;
}

int32_t int32_param(const KernelCall& call, const char* field) {
  return static_cast<int32_t>(call.params.find(field)->integer);
}

// One constant input 'x' of `in_type` holding `values`, output 'y' of out_type, through op `kind`.
template <typename T>
Graph unary_constant_graph(OpKind kind, DType in_type, const TensorSpec& in, const std::vector<T>& values,
                           DType out_type, const TensorSpec& out) {
  Graph g = unary_graph(kind, in_type, in, out_type, out);
  set_constant(g, 0, values);
  return g;
}

std::vector<int8_t> every_int8() {
  std::vector<int8_t> values;
  for (int v = -128; v <= 127; ++v) values.push_back(static_cast<int8_t>(v));
  return values;
}

std::vector<float> awkward_floats() {
  const float inf = std::numeric_limits<float>::infinity();
  return {0.0f, -0.0f, 0.5f, -0.5f, 1.5f, 2.5f, -2.5f, 0.49999997f, 127.4f, -128.6f, 1e9f, -1e9f, 3e38f,
          2147483648.0f, -2147483904.0f, 40000.7f, -33000.2f, inf, -inf, std::nanf(""), 1e-30f, 0.1f, -7.77f};
}

TEST(ConstantEvaluators, DequantizeInt8MatchesTheKernel) {
  for (const TensorSpec& spec : {TensorSpec{{256}, 0.0123f, -128}, TensorSpec{{256}, 3.7f, 127},
                                 TensorSpec{{256}, 1e-6f, 5}}) {
    const std::vector<int8_t> in = every_int8();
    const Graph g = unary_constant_graph(OpKind::Dequantize, DType::kInt8, spec, in, DType::kFloat32, {{256}});
    const microaot_dequantize_params p = {256, spec.scale, static_cast<int32_t>(-spec.zero_point)};
    std::vector<float> out(256);
    microaot_dequantize_s8_f32(&p, in.data(), out.data());
    EXPECT_EQ(evaluate(g), bytes_of(out)) << spec.scale;
  }
}

TEST(ConstantEvaluators, DequantizeInt16MatchesTheKernel) {
  std::vector<int16_t> in;
  for (int v = -32768; v <= 32767; v += 97) in.push_back(static_cast<int16_t>(v));
  in.push_back(32767);
  const int32_t n = static_cast<int32_t>(in.size());
  const Graph g = unary_constant_graph(OpKind::Dequantize, DType::kInt16, {{n}, 0.000733f, 0}, in, DType::kFloat32, {{n}});
  const microaot_dequantize_params p = {n, 0.000733f, 0};
  std::vector<float> out(in.size());
  microaot_dequantize_s16_f32(&p, in.data(), out.data());
  EXPECT_EQ(evaluate(g), bytes_of(out));
}

TEST(ConstantEvaluators, QuantizeMatchesTheKernelOnEveryEdge) {
  const std::vector<float> in = awkward_floats();
  const int32_t n = static_cast<int32_t>(in.size());
  for (const TensorSpec& spec : {TensorSpec{{n}, 0.5f, -3}, TensorSpec{{n}, 0.0078125f, 127}, TensorSpec{{n}, 3.3f, -128}}) {
    const Graph g = unary_constant_graph(OpKind::Quantize, DType::kFloat32, {{n}}, in, DType::kInt8, spec);
    const microaot_quantize_params p = {n, spec.scale, static_cast<int32_t>(spec.zero_point)};
    std::vector<int8_t> out(in.size());
    microaot_quantize_f32_s8(&p, in.data(), out.data());
    EXPECT_EQ(evaluate(g), bytes_of(out)) << spec.scale;
  }
  const Graph g16 = unary_constant_graph(OpKind::Quantize, DType::kFloat32, {{n}}, in, DType::kInt16, {{n}, 0.01f, 0});
  const microaot_quantize_params p16 = {n, 0.01f, 0};
  std::vector<int16_t> out16(in.size());
  microaot_quantize_f32_s16(&p16, in.data(), out16.data());
  EXPECT_EQ(evaluate(g16), bytes_of(out16));
}

TEST(ConstantEvaluators, QuantizeOfIntegersIsLeftToTheKernel) {
  const Graph g = unary_constant_graph(OpKind::Quantize, DType::kInt8, {{4}, 0.5f, 0}, std::vector<int8_t>{1, 2, 3, 4},
                                       DType::kInt8, {{4}, 0.25f, 1});
  EXPECT_FALSE(constant_fold_rule(OpKind::Quantize)->evaluate(g, g.ops[0]).has_value());
}

// CAST from `in` (type In) to every integer and float type, against microaot_cast_<in>_<out>.
template <typename In, typename Out>
void expect_cast(DType in_type, DType out_type, const std::vector<In>& in,
                 void (*kernel)(const microaot_unary_params*, const In*, Out*)) {
  const int32_t n = static_cast<int32_t>(in.size());
  const Graph g = unary_constant_graph(OpKind::Cast, in_type, {{n}}, in, out_type, {{n}});
  const microaot_unary_params p = {n};
  std::vector<Out> out(in.size());
  kernel(&p, in.data(), out.data());
  EXPECT_EQ(evaluate(g), bytes_of(out)) << dtype_name(in_type) << " -> " << dtype_name(out_type);
}

TEST(ConstantEvaluators, CastMatchesTheKernelsForEveryPair) {
  const std::vector<float> f = awkward_floats();
  expect_cast<float, int8_t>(DType::kFloat32, DType::kInt8, f, microaot_cast_f32_s8);
  expect_cast<float, int16_t>(DType::kFloat32, DType::kInt16, f, microaot_cast_f32_s16);
  expect_cast<float, int32_t>(DType::kFloat32, DType::kInt32, f, microaot_cast_f32_s32);
  const std::vector<int32_t> i32 = {0, -1, 127, 128, -129, 32768, -32769, INT32_MAX, INT32_MIN, 16777217};
  expect_cast<int32_t, int8_t>(DType::kInt32, DType::kInt8, i32, microaot_cast_s32_s8);
  expect_cast<int32_t, int16_t>(DType::kInt32, DType::kInt16, i32, microaot_cast_s32_s16);
  expect_cast<int32_t, float>(DType::kInt32, DType::kFloat32, i32, microaot_cast_s32_f32);
  const std::vector<int16_t> i16 = {0, -1, 127, 128, -129, 32767, -32768};
  expect_cast<int16_t, int8_t>(DType::kInt16, DType::kInt8, i16, microaot_cast_s16_s8);
  expect_cast<int16_t, int32_t>(DType::kInt16, DType::kInt32, i16, microaot_cast_s16_s32);
  expect_cast<int16_t, float>(DType::kInt16, DType::kFloat32, i16, microaot_cast_s16_f32);
  const std::vector<int8_t> i8 = every_int8();
  expect_cast<int8_t, int16_t>(DType::kInt8, DType::kInt16, i8, microaot_cast_s8_s16);
  expect_cast<int8_t, int32_t>(DType::kInt8, DType::kInt32, i8, microaot_cast_s8_s32);
  expect_cast<int8_t, float>(DType::kInt8, DType::kFloat32, i8, microaot_cast_s8_f32);
  const std::vector<uint8_t> b = {0, 1, 1, 0};
  expect_cast<uint8_t, int8_t>(DType::kBool, DType::kInt8, b, microaot_cast_bool_s8);
  expect_cast<uint8_t, int16_t>(DType::kBool, DType::kInt16, b, microaot_cast_bool_s16);
  expect_cast<uint8_t, int32_t>(DType::kBool, DType::kInt32, b, microaot_cast_bool_s32);
  expect_cast<uint8_t, float>(DType::kBool, DType::kFloat32, b, microaot_cast_bool_f32);
}

TEST(ConstantEvaluators, CastToTheSameTypeCopies) {
  const Graph g = unary_constant_graph(OpKind::Cast, DType::kFloat32, {{3}}, std::vector<float>{1.5f, -0.0f, 7.0f},
                                       DType::kFloat32, {{3}});
  EXPECT_EQ(evaluate(g), bytes_of(std::vector<float>{1.5f, -0.0f, 7.0f}));
}

// The remap kernel run on the call the handler lowers op 0 to (unbound: a derived input stays in the call).
Bytes remap_kernel(const Graph& g) {
  const OpHandler& handler = op_handler(g.ops[0].kind);
  handler.check(g, g.ops[0]);
  const KernelCall call = handler.lower(g, g.ops[0]);
  EXPECT_EQ(call.stem, "remap");
  const std::vector<int32_t> dims = ints32(call, "out_dims"), offsets = ints32(call, "offsets");
  std::vector<int8_t> fill;
  for (int64_t byte : call.params.find("fill")->integers) fill.push_back(static_cast<int8_t>(byte));
  const microaot_remap_params p = {int32_param(call, "rank"), int32_param(call, "element_bytes"), dims.data(),
                                   offsets.data(), fill.data()};
  const int arg = call.args[0];
  const Bytes& in = arg >= 0 ? g.tensors[static_cast<size_t>(arg)].data : call.derived.at(0).data;
  Bytes out(static_cast<size_t>(g.tensor(g.ops[0].outputs[0]).byte_size()));
  microaot_remap(&p, in.data(), out.data());
  return out;
}

// Input 'x' of `type` and `shape` holding 0, 1, 2, ... as that type, a constant int32 second input, output 'out'.
Graph data_movement_graph(OpKind kind, DType type, const std::vector<int32_t>& shape,
                          const std::vector<int32_t>& operand, const std::vector<int32_t>& operand_shape,
                          const std::vector<int32_t>& out_shape) {
  Graph g;
  const int x = add_tensor(g, type, shape);
  const int second = add_int32_constant(g, operand, operand_shape);
  const int out = add_tensor(g, type, out_shape);
  g.tensors[static_cast<size_t>(x)].is_constant = true;
  Bytes& data = g.tensors[static_cast<size_t>(x)].data;
  for (int64_t i = 0; i < g.tensors[static_cast<size_t>(x)].byte_size(); ++i) data.push_back(static_cast<uint8_t>(i * 7 + 3));
  g.ops.push_back(Op{kind, 0, 1, {x, second}, {out}, {}});
  return g;
}

TEST(ConstantEvaluators, TransposeMatchesTheRemapKernel) {
  const Graph f = data_movement_graph(OpKind::Transpose, DType::kFloat32, {2, 3, 4}, {2, 0, 1}, {3}, {4, 2, 3});
  EXPECT_EQ(evaluate(f), remap_kernel(f));
  const Graph i8 = data_movement_graph(OpKind::Transpose, DType::kInt8, {3, 1, 2, 5}, {3, 1, 0, 2}, {4}, {5, 1, 3, 2});
  EXPECT_EQ(evaluate(i8), remap_kernel(i8));
}

TEST(ConstantEvaluators, PadWithTheZeroPointMatchesTheRemapKernel) {
  const Graph g = data_movement_graph(OpKind::Pad, DType::kInt8, {2, 3}, {1, 0, 2, 1}, {2, 2}, {3, 6});
  EXPECT_EQ(evaluate(g), remap_kernel(g));
}

TEST(ConstantEvaluators, ReverseMatchesTheRemapKernel) {
  const Graph g = data_movement_graph(OpKind::ReverseV2, DType::kInt32, {3, 4}, {1}, {1}, {3, 4});
  EXPECT_EQ(evaluate(g), remap_kernel(g));
}

TEST(ConstantEvaluators, ShapeOfARunTimeTensorMatchesTheRemapKernel) {
  Graph g;
  add_tensor(g, DType::kFloat32, {1, 7, 5, 3});  // not constant: SHAPE reads no value
  add_tensor(g, DType::kInt32, {4});
  g.ops.push_back(Op{OpKind::Shape, 0, 1, {0}, {1}, {}});
  EXPECT_FALSE(constant_fold_rule(OpKind::Shape)->reads_input_values);
  EXPECT_EQ(evaluate(g), bytes_of(std::vector<int32_t>{1, 7, 5, 3}));
  EXPECT_EQ(evaluate(g), remap_kernel(g));
}

TEST(ConstantEvaluators, ConcatenationMatchesTheKernel) {
  Graph g;
  const int a = add_tensor(g, DType::kInt16, {2, 3, 2});
  const int b = add_tensor(g, DType::kInt16, {2, 1, 2});
  const int out = add_tensor(g, DType::kInt16, {2, 4, 2});
  set_constant(g, a, std::vector<int16_t>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
  set_constant(g, b, std::vector<int16_t>{-1, -2, -3, -4});
  g.ops.push_back(Op{OpKind::Concatenation, 0, 1, {a, b}, {out}, {}});
  read_table_options(g, tflite::BuiltinOptions::ConcatenationOptions,
                     [](auto& fbb) { return tflite::CreateConcatenationOptions(fbb, 1).Union(); });
  const KernelCall call = lower_for_test(g);
  const std::vector<int32_t> slices = ints32(call, "slice_bytes");
  const microaot_concatenation_params p = {int32_param(call, "outer_count"), 2, slices.data()};
  const void* inputs[] = {g.tensors[0].data.data(), g.tensors[1].data.data()};
  Bytes kernel_out(16 * sizeof(int16_t));
  microaot_concatenation(&p, inputs, kernel_out.data());
  EXPECT_EQ(evaluate(g), kernel_out);
}

TEST(ConstantEvaluators, GatherWithBatchesMatchesTheKernel) {
  Graph g = indexed_graph(DType::kFloat32, {2, 3, 4}, {2, 3}, {2, 3, 3}, {3, 0, 3, 1, 1, 2});
  set_constant(g, 0, std::vector<float>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23});
  g.ops.push_back(Op{OpKind::Gather, 0, 1, {0, 1}, {2}, {}});
  read_table_options(g, tflite::BuiltinOptions::GatherOptions,
                     [](auto& fbb) { return tflite::CreateGatherOptions(fbb, 2, 1).Union(); });
  const KernelCall call = lower_for_test(g);
  const microaot_gather_params p = {int32_param(call, "batch_count"), int32_param(call, "outer_count"),
                                    int32_param(call, "axis_size"), int32_param(call, "coord_count"),
                                    int32_param(call, "inner_bytes")};
  std::vector<int32_t> indices(6);
  std::memcpy(indices.data(), g.tensors[1].data.data(), 6 * sizeof(int32_t));
  Bytes kernel_out(18 * sizeof(float));
  ASSERT_EQ(microaot_gather(&p, g.tensors[0].data.data(), indices.data(), kernel_out.data()), MICROAOT_STATUS_OK);
  EXPECT_EQ(evaluate(g), kernel_out);
}

TEST(ConstantEvaluators, OnlyOpsWithAnEvaluatorHaveARule) {
  EXPECT_EQ(constant_fold_rule(OpKind::Conv2D), nullptr);
  EXPECT_EQ(constant_fold_rule(OpKind::Softmax), nullptr);
  EXPECT_NE(constant_fold_rule(OpKind::Dequantize), nullptr);
}

}  // namespace
}  // namespace microaot
