// Steps whose kernels take equal params share one struct in NAME.c and one set of arrays in weights.c.
#include <gtest/gtest.h>

#include "codegen/emit.h"
#include "frontend/tflite_test_builder.h"

namespace microaot {
namespace {

using namespace tflite_test;

int count(const std::string& text, const std::string& part) {
  int n = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
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
  const std::string& source = files.at("model.c");
  EXPECT_EQ(count(source, "model_op0_params = {"), 1);
  EXPECT_EQ(count(source, "model_op1_params"), 0);
  EXPECT_EQ(count(source, "(&model_op0_params,"), 2);
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

}  // namespace
}  // namespace microaot
