// The whole-model choice of the packed CONV_2D kernel: a 1x1 layer takes the k x k kernel when the model links
// it for a k x k layer, and keeps the 1x1 kernel otherwise; both weight forms.
#include "kernels/share_kernels.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "compile/compile_model.h"
#include "frontend/tflite_test_builder.h"
#include "target/target.h"

namespace microaot {
namespace {

using namespace tflite_test;

// 'in' [1,4,4,4] -> CONV_2D 1x1 -> 'mid', then (with_window) CONV_2D 3x3 SAME -> 'out'; 4 channels each.
ModelSpec pointwise_model(bool with_window) {
  const std::vector<float> scales{0.25f, 0.125f, 0.5f, 0.25f}, bias_scales{0.125f, 0.0625f, 0.25f, 0.125f};
  ModelSpec m;
  m.tensors = {
      activation("in", {1, 4, 4, 4}, 0.5f, -1),
      constant("pointwise_filter", tflite::TensorType::INT8, {4, 1, 1, 4}, scales, std::vector<uint8_t>(16, 3)),
      constant("bias", tflite::TensorType::INT32, {4}, bias_scales, bytes_of<int32_t>({100, -7, 0, 5})),
      activation("mid", {1, 4, 4, 4}, 1.5f, 3),
      constant("window_filter", tflite::TensorType::INT8, {4, 3, 3, 4}, scales, std::vector<uint8_t>(144, 5)),
      activation("out", {1, 4, 4, 4}, 2.5f, -2),
  };
  for (int layer = 0; layer < (with_window ? 2 : 1); ++layer) {
    OpSpec conv = op(3, 3, {layer == 0 ? 0 : 3, layer == 0 ? 1 : 4, -1}, {layer == 0 ? 3 : 5});
    conv.options_type = tflite::BuiltinOptions::Conv2DOptions;
    conv.options = [](flatbuffers::FlatBufferBuilder& fbb) {
      return tflite::CreateConv2DOptions(fbb, tflite::Padding::SAME, 1, 1).Union();
    };
    m.ops.push_back(conv);
  }
  m.inputs = {0};
  m.outputs = {with_window ? 5 : 3};
  return m;
}

CompiledModel compile_for(bool with_window, bool balanced) {
  CompileOptions options;
  options.target = parse_target("cortex-m4");
  options.target.optimize_balanced = balanced;
  return compile_model(build_model(pointwise_model(with_window)), options);
}

TEST(ShareKernels, PointwiseTakesTheWindowKernelOnlyWhenTheModelLinksIt) {
  for (const bool balanced : {false, true}) {
    const std::string w16 = balanced ? "" : "_w16";
    const CompiledModel alone = compile_for(false, balanced);
    ASSERT_EQ(alone.calls.size(), 1u);
    EXPECT_EQ(alone.calls[0].function(), "microaot_conv_2d_s8_packed" + w16);
    EXPECT_EQ(alone.calls[0].specialisation.find("k x k kernel"), std::string::npos);

    const CompiledModel shared = compile_for(true, balanced);
    ASSERT_EQ(shared.calls.size(), 2u);
    EXPECT_EQ(shared.calls[0].function(), "microaot_conv_2d_s8_packed_kxk" + w16);
    EXPECT_EQ(shared.calls[1].function(), "microaot_conv_2d_s8_packed_kxk" + w16);
    EXPECT_NE(shared.calls[0].specialisation.find("through the k x k kernel"), std::string::npos)
        << shared.calls[0].specialisation;
    // The 1x1 lowering's words stay: rows scratch of 4 channels (one group), input offset in the bias.
    EXPECT_EQ(shared.calls[0].scratch_bytes, alone.calls[0].scratch_bytes);
    EXPECT_EQ(shared.calls[0].params.find("input_offset")->integer, 0);
  }
}

// Calls of other stems and custom calls are left alone; a `to` stem alone changes nothing.
TEST(ShareKernels, MovesOnlyTheListedStems) {
  std::vector<KernelCall> calls(3);
  calls[0].stem = "conv_2d_s8";
  calls[1].stem = "conv_2d_s8_packed_kxk";
  calls[2].stem = "conv_2d_s8_packed";
  calls[2].custom = true;
  share_kernels(calls);
  EXPECT_EQ(calls[0].stem, "conv_2d_s8");
  EXPECT_EQ(calls[2].stem, "conv_2d_s8_packed");
  for (const SharedKernel& shared : shared_kernels()) {
    std::vector<KernelCall> pair(2);
    pair[0].stem = shared.from;
    pair[1].stem = shared.to;
    share_kernels(pair);
    EXPECT_EQ(pair[0].stem, shared.to);
    std::vector<KernelCall> lone(1);
    lone[0].stem = shared.from;
    share_kernels(lone);
    EXPECT_EQ(lone[0].stem, shared.from);
  }
}

}  // namespace
}  // namespace microaot
