// Steps whose kernels take equal params share one struct in NAME.c and one set of arrays in weights.c.
#include <gtest/gtest.h>

#include "codegen/emit.h"
#include "frontend/tflite_test_builder.h"
#include "microaot/internal/depthwise_group_words.h"
#include "target/target.h"

namespace microaot {
namespace {

using namespace tflite_test;

int count(const std::string& text, const std::string& part) {
  int n = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

// model.c of a two-step model defines op 0's params struct alone and both steps call with it.
void expect_one_params_struct_for_both_calls(const std::string& source) {
  EXPECT_EQ(count(source, "model_op0_params = {"), 1);
  EXPECT_EQ(count(source, "model_op1_params"), 0);
  EXPECT_EQ(count(source, "(&model_op0_params,"), 2);
}

// 'in' [1, 4] -> FULLY_CONNECTED -> 'mid' -> FULLY_CONNECTED -> 'out', per-channel weights (params arrays of
// multipliers and shifts); the second layer's output scale is `second_scale` (1.5: the same params).
ModelSpec two_fc(float second_scale) {
  ModelSpec m;
  const std::vector<float> scales = {0.25f, 0.125f, 0.5f, 0.0625f};
  m.tensors = {activation("in", {1, 4}, 1.5f, 3),
               constant("w0", tflite::TensorType::INT8, {4, 4}, scales, std::vector<uint8_t>(16, 1)),
               constant("b0", tflite::TensorType::INT32, {4}, {0.375f, 0.1875f, 0.75f, 0.09375f},
                        bytes_of<int32_t>({1, 2, 3, 4})),
               activation("mid", {1, 4}, 1.5f, 3),
               constant("w1", tflite::TensorType::INT8, {4, 4}, scales, std::vector<uint8_t>(16, 2)),
               constant("b1", tflite::TensorType::INT32, {4}, {0.375f, 0.1875f, 0.75f, 0.09375f},
                        bytes_of<int32_t>({5, 6, 7, 8})),
               activation("out", {1, 4}, second_scale, 3)};
  m.tensors[1].axis = m.tensors[4].axis = 0;
  m.ops = {op(9, 4, {0, 1, 2}, {3}), op(9, 4, {3, 4, 5}, {6})};
  m.inputs = {0};
  m.outputs = {6};
  return m;
}

TEST(ParamsOwner, EqualParamsAreDefinedOnceAndSharedByTheCalls) {
  const CompiledModel model = compile_model(build_model(two_fc(1.5f)), CompileOptions{});
  ASSERT_EQ(model.calls.size(), 2u);
  ASSERT_EQ(model.calls[0].params, model.calls[1].params);
  EXPECT_EQ(params_owner(model, 1), 0u);
  const FileSet files = emit_library(model);
  expect_one_params_struct_for_both_calls(files.at("model.c"));
  EXPECT_EQ(count(files.at("weights.c"), "model_op0_output_multiplier["), 2);  // declaration and definition
  EXPECT_EQ(count(files.at("weights.c"), "model_op1_"), 0);

  const CompiledModel other = compile_model(build_model(two_fc(0.75f)), CompileOptions{});
  EXPECT_EQ(params_owner(other, 1), 1u);
  EXPECT_EQ(count(emit_library(other).at("model.c"), "(&model_op1_params,"), 1);
  // The shared arrays count once in the weights' bytes.
  const int64_t arrays = model.calls[0].params.array_bytes(*model.calls[0].info().params);
  ASSERT_GT(arrays, 0);
  EXPECT_EQ(weights_bytes(other) - weights_bytes(model), arrays);
}

// 'in' [1, 9, 5, 8] -> DEPTHWISE_CONV_2D -> 'mid' -> DEPTHWISE_CONV_2D -> 'out', 3x3 "same" at stride 1 (the
// ring's layers on a DSP target), equal but for the filters' per-channel scales: different requantizations; with
// or without biases.
ModelSpec two_ring_depthwise(bool biased) {
  ModelSpec m;
  const std::vector<float> scales0(8, 0.01f), scales1 = {0.01f, 0.02f, 0.03f, 0.04f, 0.05f, 0.06f, 0.07f, 0.08f};
  std::vector<float> bias0, bias1;
  for (size_t c = 0; c < 8; ++c) bias0.push_back(0.05f * scales0[c]), bias1.push_back(0.05f * scales1[c]);
  m.tensors = {activation("in", {1, 9, 5, 8}, 0.05f, 3),
               constant("w0", tflite::TensorType::INT8, {1, 3, 3, 8}, scales0, std::vector<uint8_t>(72, 1)),
               constant("b0", tflite::TensorType::INT32, {8}, bias0, bytes_of<int32_t>(std::vector<int32_t>(8, 5))),
               activation("mid", {1, 9, 5, 8}, 0.05f, 3),
               constant("w1", tflite::TensorType::INT8, {1, 3, 3, 8}, scales1, std::vector<uint8_t>(72, 1)),
               constant("b1", tflite::TensorType::INT32, {8}, bias1, bytes_of<int32_t>(std::vector<int32_t>(8, 5))),
               activation("out", {1, 9, 5, 8}, 0.05f, 3)};
  m.tensors[1].axis = m.tensors[4].axis = 3;
  m.ops = {op(4, 3, {0, 1, biased ? 2 : -1}, {3}), op(4, 3, {3, 4, biased ? 5 : -1}, {6})};
  for (OpSpec& o : m.ops) {
    o.options_type = tflite::BuiltinOptions::DepthwiseConv2DOptions;
    o.options = [](flatbuffers::FlatBufferBuilder& fbb) {
      return tflite::CreateDepthwiseConv2DOptions(fbb, tflite::Padding::SAME, 1, 1, 1).Union();
    };
  }
  m.inputs = {0};
  m.outputs = {6};
  return m;
}

// The ring's kernels take the requantization as an argument (the int8 ring's, layers without a bias at balanced) or
// in the groups' words (with a bias at balanced the compact words, at speed the widened ones), so two ring layers
// that differ only in it share one params struct, each with its own requantization.
TEST(ParamsOwner, RingDepthwiseLayersShareOneParamsStructWhateverTheirRequantization) {
  struct Case {
    bool balanced, biased;
    const char* stem;
    size_t requant_arg;  // the argument that holds the requantization
    int64_t requant_elements;
  };
  for (const Case& c : {Case{true, false, "depthwise_conv_2d_s8_ring", 3, 16},
                        Case{true, true, "depthwise_conv_2d_s8_ring_w8", 1, 2 * MICROAOT_DW_COMPACT_WORDS},
                        Case{false, true, "depthwise_conv_2d_s8_ring_w16", 1, 2 * MICROAOT_DW_GROUP_WORDS}}) {
    CompileOptions options;
    options.target = parse_target("cortex-m4");
    options.target.optimize_balanced = c.balanced;
    const CompiledModel model = compile_model(build_model(two_ring_depthwise(c.biased)), options);
    ASSERT_EQ(model.calls.size(), 2u);
    for (const KernelCall& call : model.calls) ASSERT_EQ(call.stem, c.stem);
    const Tensor& requant0 = model.graph.tensor(model.calls[0].args[c.requant_arg]);
    const Tensor& requant1 = model.graph.tensor(model.calls[1].args[c.requant_arg]);
    EXPECT_EQ(requant0.num_elements(), c.requant_elements) << c.stem;
    EXPECT_NE(requant0.data, requant1.data) << c.stem;
    EXPECT_EQ(params_owner(model, 1), 0u) << c.stem;
    const FileSet files = emit_library(model);
    expect_one_params_struct_for_both_calls(files.at("model.c"));
    EXPECT_EQ(count(files.at("weights.c"), "output_multiplier["), 0) << c.stem;  // the params' arrays NULL
  }
}

}  // namespace
}  // namespace microaot
