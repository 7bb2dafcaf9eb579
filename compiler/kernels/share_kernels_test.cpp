// The whole-model choice of the packed kernels: a 1x1 CONV_2D layer and a FULLY_CONNECTED take the k x k CONV_2D
// kernel when the model links it for a k x k layer, and keep their own kernel otherwise; both weight forms. The
// average pool's lanes likewise take the full DSP kernel.
#include "kernels/share_kernels.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
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
    // The 1x1 lowering's words stay, input offset in the bias; the rows scratch of 4 channels (one group) holds
    // the k x k kernel's three rows where the 1x1 kernel's held two.
    EXPECT_EQ(alone.calls[0].scratch_bytes, 16);
    EXPECT_EQ(shared.calls[0].scratch_bytes, 24);
    EXPECT_EQ(shared.calls[0].params.find("input_offset")->integer, 0);
  }
}

// 'in' [1,4,4,4] -> CONV_2D 3x3 SAME -> 'mid' [1,4,4,4] -> RESHAPE [4,16] -> FULLY_CONNECTED (4 units) -> 'out'
// [4,4] (with_window); or 'in' [4,16] -> FULLY_CONNECTED alone.
ModelSpec fully_connected_model(bool with_window) {
  const std::vector<float> scales{0.25f, 0.125f, 0.5f, 0.25f};
  ModelSpec m;
  m.tensors = {
      activation("in", {1, 4, 4, 4}, 0.5f, -1),
      constant("window_filter", tflite::TensorType::INT8, {4, 3, 3, 4}, scales, std::vector<uint8_t>(144, 5)),
      activation("mid", {1, 4, 4, 4}, 1.5f, 3),
      activation("rows", {4, 16}, 1.5f, 3),
      constant("weights", tflite::TensorType::INT8, {4, 16}, scales, std::vector<uint8_t>(64, 7)),
      activation("out", {4, 4}, 2.5f, -2),
      constant("shape", tflite::TensorType::INT32, {2}, {}, bytes_of<int32_t>({4, 16})),
  };
  OpSpec conv = op(3, 3, {0, 1, -1}, {2});
  conv.options_type = tflite::BuiltinOptions::Conv2DOptions;
  conv.options = [](flatbuffers::FlatBufferBuilder& fbb) {
    return tflite::CreateConv2DOptions(fbb, tflite::Padding::SAME, 1, 1).Union();
  };
  OpSpec fc = op(9, 4, {3, 4, -1}, {5});
  fc.options_type = tflite::BuiltinOptions::FullyConnectedOptions;
  fc.options = [](flatbuffers::FlatBufferBuilder& fbb) {
    return tflite::CreateFullyConnectedOptions(fbb, tflite::ActivationFunctionType::NONE).Union();
  };
  if (with_window) {
    m.ops = {conv, op(22, 1, {2, 6}, {3}), fc};
    m.inputs = {0};
  } else {
    m.ops = {fc};
    m.inputs = {3};
  }
  m.outputs = {5};
  return m;
}

TEST(ShareKernels, FullyConnectedTakesTheWindowKernelAsAPixelRowWhenTheModelLinksIt) {
  CompileOptions options;
  options.target = parse_target("cortex-m4");
  const CompiledModel alone = compile_model(build_model(fully_connected_model(false)), options);
  ASSERT_EQ(alone.calls.size(), 1u);
  EXPECT_EQ(alone.calls[0].function(), "microaot_fully_connected_s8_packed_w16");
  const CompiledModel shared = compile_model(build_model(fully_connected_model(true)), options);
  ASSERT_EQ(shared.calls.size(), 2u);  // the RESHAPE is a view
  const KernelCall& fc = shared.calls[1];
  EXPECT_EQ(fc.function(), "microaot_conv_2d_s8_packed_kxk_w16");
  EXPECT_NE(fc.specialisation.find("as a 1x1 convolution over the batches"), std::string::npos) << fc.specialisation;
  // One image row of 4 pixels (the batches) of depth 16, a 1x1 filter without padding.
  const std::pair<const char*, int64_t> expected[] = {
      {"batches", 1},      {"input_height", 1}, {"input_width", 4},  {"input_depth", 16}, {"filter_height", 1},
      {"filter_width", 1}, {"filter_depth", 16}, {"output_width", 4}, {"output_depth", 4}, {"stride_width", 1},
      {"pad_height", 0},   {"pad_width", 0},    {"input_offset", 0},
  };
  for (const auto& [field, value] : expected) EXPECT_EQ(fc.params.find(field)->integer, value) << field;
  EXPECT_EQ(fc.params.find("output_offset")->integer, -2);
  EXPECT_EQ(alone.calls[0].scratch_bytes, 64);  // two rows of 4 groups
  EXPECT_EQ(fc.scratch_bytes, 96);              // the k x k kernel's three
}

// Two int8 AVERAGE_POOL_2D, 2x2 stride 2, each over an input of its own: `channels` [1,4,4,channels] and 8.
ModelSpec two_pools_model(int channels, int second_window = 2) {
  ModelSpec m;
  const int second_out = 4 / second_window;
  m.tensors = {activation("a", {1, 4, 4, channels}, 0.5f, -1), activation("a_out", {1, 2, 2, channels}, 0.5f, -1),
               activation("b", {1, 4, 4, 8}, 0.25f, 2),
               activation("b_out", {1, second_out, second_out, 8}, 0.25f, 2)};
  for (int pool = 0; pool < 2; ++pool) {
    OpSpec average = op(1, 1, {2 * pool}, {2 * pool + 1});
    average.options_type = tflite::BuiltinOptions::Pool2DOptions;
    const int window = pool == 0 ? 2 : second_window;
    average.options = [window](flatbuffers::FlatBufferBuilder& fbb) {
      return tflite::CreatePool2DOptions(fbb, tflite::Padding::VALID, window, window, window, window).Union();
    };
    m.ops.push_back(average);
  }
  m.inputs = {0, 2};
  m.outputs = {1, 3};
  return m;
}

// An average pool the lanes compute takes the full DSP kernel when the model links it for a 3-channel pool (the
// same lanes inside), and keeps the lanes' smaller kernel beside another lanes layer.
TEST(ShareKernels, AveragePoolLanesTakeTheFullKernelOnlyWhenTheModelLinksIt) {
  CompileOptions options;
  options.target = parse_target("cortex-m4");
  const CompiledModel mixed = compile_model(build_model(two_pools_model(3)), options);
  ASSERT_EQ(mixed.calls.size(), 2u);
  for (const KernelCall& call : mixed.calls) EXPECT_EQ(call.stem, "average_pool_2d_s8");
  EXPECT_NE(mixed.calls[1].specialisation.find("through the full kernel"), std::string::npos)
      << mixed.calls[1].specialisation;
  const CompiledModel lanes = compile_model(build_model(two_pools_model(4)), options);
  ASSERT_EQ(lanes.calls.size(), 2u);
  for (const KernelCall& call : lanes.calls) EXPECT_EQ(call.stem, "average_pool_2d_s8_lanes");
}

// A global pool (the second, a 4x4 window over its 4x4 plane) moves to the model's other average pool kernel: the
// full one beside a 3-channel pool, the lanes' beside a lanes layer; alone, it keeps the global kernel.
TEST(ShareKernels, GlobalAveragePoolTakesTheModelsOtherPoolKernel) {
  CompileOptions options;
  options.target = parse_target("cortex-m4");
  const CompiledModel mixed = compile_model(build_model(two_pools_model(3, 4)), options);
  ASSERT_EQ(mixed.calls.size(), 2u);
  for (const KernelCall& call : mixed.calls) EXPECT_EQ(call.stem, "average_pool_2d_s8");
  const CompiledModel lanes = compile_model(build_model(two_pools_model(4, 4)), options);
  ASSERT_EQ(lanes.calls.size(), 2u);
  for (const KernelCall& call : lanes.calls) EXPECT_EQ(call.stem, "average_pool_2d_s8_lanes");
  EXPECT_NE(lanes.calls[1].specialisation.find("computes the plane as one window"), std::string::npos)
      << lanes.calls[1].specialisation;
  std::vector<KernelCall> alone(1);
  alone[0].stem = "average_pool_2d_s8_global";
  share_kernels(alone);
  EXPECT_EQ(alone[0].stem, "average_pool_2d_s8_global");
}

// Calls of other stems and custom calls are left alone; a `from` stem alone changes nothing.
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
    if (shared.adapt != nullptr) continue;  // params of the `from` struct: the FULLY_CONNECTED test above
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
