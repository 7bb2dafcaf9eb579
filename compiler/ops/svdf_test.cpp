// SVDF handler: the kernel per type, TFLM's two effective scales (float products and quotient; expected
// multipliers from Python: struct-rounded float32 arithmetic, frexp, mantissa rounded half away from zero),
// the shape params, the scratch, the state passed as the kernel's state argument (a ring with its position
// when nothing else sees it, else TFLM's shifted layout), and the refusals.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ops/lowering_test_util.h"
#include "ops/reduce_test_util.h"

namespace microaot {
namespace {

// input [2, 5], weights_feature [6, 5], weights_time [6, 4], bias [3], state [2, 24], output [2, 3]: rank 2.
Graph svdf_graph(DType type, DType state_type, Activation activation = Activation::kNone, int rank = 2) {
  const bool is_float = type == DType::kFloat32;
  const DType bias_type = is_float ? DType::kFloat32 : DType::kInt32;
  const auto q = [&](float scale, int64_t zero_point) { return is_float ? TensorSpec{{}} : TensorSpec{{}, scale, zero_point}; };
  const auto with_shape = [](TensorSpec s, std::vector<int32_t> shape) {
    s.shape = std::move(shape);
    return s;
  };
  Graph g;
  g.tensors = {spec_tensor("in", type, with_shape(q(0.05f, -3), {2, 5})),
               spec_tensor("wf", type, with_shape(q(0.0078f, 0), {6, 5})),
               spec_tensor("wt", state_type, with_shape(q(0.00012f, 0), {6, 4})),
               spec_tensor("bias", bias_type, with_shape(q(3.6e-8f, 0), {3})),
               spec_tensor("state", state_type, with_shape(q(0.0003f, 0), {2, 24})),
               spec_tensor("out", type, with_shape(q(0.09f, 4), {2, 3}))};
  g.tensors[4].is_persistent = true;
  g.ops.push_back(Op{OpKind::Svdf, 0, 3, {0, 1, 2, 3, 4}, {5}, {}});
  g.inputs = {0};
  g.outputs = {5};
  read_table_options(g, tflite::BuiltinOptions::SVDFOptions, [&](auto& fbb) {
    return tflite::CreateSVDFOptions(fbb, rank, static_cast<tflite::ActivationFunctionType>(activation)).Union();
  });
  return g;
}

TEST(SvdfHandler, Int8WithInt16StateFollowsTflmScales) {
  const KernelCall call = lower_for_test(svdf_graph(DType::kInt8, DType::kInt16));
  EXPECT_EQ(call.info().function(), "microaot_svdf_ring_s8_s16");
  EXPECT_EQ(call.args, (std::vector<int>{0, 1, 2, 3, 4, 6, 5}));  // the state, then the ring's position
  EXPECT_EQ(call.scratch_bytes, 2 * (6 + 3) * 4);
  const auto f = param_text(call);
  EXPECT_EQ(f.at("batches"), "2");
  EXPECT_EQ(f.at("input_size"), "5");
  EXPECT_EQ(f.at("filters"), "6");
  EXPECT_EQ(f.at("units"), "3");
  EXPECT_EQ(f.at("rank"), "2");
  EXPECT_EQ(f.at("memory"), "4");
  EXPECT_EQ(f.at("input_offset"), "3");
  EXPECT_EQ(f.at("state_zero_point"), "0");
  EXPECT_EQ(f.at("output_offset"), "4");
  EXPECT_EQ(f.at("feature_multiplier"), "1395864320");  // 0.05f * 0.0078f / 0.0003f
  EXPECT_EQ(f.at("feature_shift"), "1");
  EXPECT_EQ(f.at("output_multiplier"), "1801439744");  // 0.0003f * 0.00012f / 0.09f
  EXPECT_EQ(f.at("output_shift"), "-21");
}

// Nothing else sees the state: a ring per filter, whose position is a persistent int32 of the call (0 at
// reset, not a constant); a run writes one int16 value per filter and batch and the position.
TEST(SvdfHandler, APrivateStateBecomesARingWithItsPosition) {
  Graph g = svdf_graph(DType::kInt8, DType::kInt16);
  const KernelCall call = lower_in_place_for_test(g, Target{});
  ASSERT_EQ(g.tensors.size(), 7u);
  const Tensor& position = g.tensors[6];
  EXPECT_EQ(position.name, "state_ring_position");
  EXPECT_EQ(position.dtype, DType::kInt32);
  EXPECT_EQ(position.shape, (std::vector<int32_t>{1}));
  EXPECT_TRUE(position.is_persistent);
  EXPECT_FALSE(position.is_constant);
  EXPECT_EQ(position.data, (std::vector<uint8_t>{0, 0, 0, 0}));
  EXPECT_NE(call.specialisation.find("ring"), std::string::npos) << call.specialisation;
  EXPECT_EQ(op_handler(OpKind::Svdf).state_copy_bytes(g, g.ops[0]), 2 * 6 * 2 + 4);
}

// A state another op reads, or a graph output, keeps TFLM's layout: the shifting kernel, which moves the whole
// state [2, 24] by one element each run, and network_info.txt says why.
TEST(SvdfHandler, AStateSeenElsewhereKeepsTflmsShift) {
  Graph g = svdf_graph(DType::kFloat32, DType::kFloat32);
  g.outputs.push_back(4);
  KernelCall call = lower_for_test(g);
  EXPECT_EQ(call.info().function(), "microaot_svdf_f32");
  EXPECT_EQ(call.args, (std::vector<int>{0, 1, 2, 3, 4, 5}));
  EXPECT_NE(call.specialisation.find("the state is a graph output"), std::string::npos) << call.specialisation;
  EXPECT_EQ(op_handler(OpKind::Svdf).state_copy_bytes(g, g.ops[0]), (2 * 24 - 1) * 4);
  g = svdf_graph(DType::kInt8, DType::kInt16);
  g.tensors.push_back(g.tensors[4]);
  g.tensors.back().is_persistent = false;
  g.ops.push_back(Op{OpKind::Abs, 1, 1, {4}, {6}, {}});
  call = lower_for_test(g);
  EXPECT_EQ(call.info().function(), "microaot_svdf_s8_s16");
  EXPECT_NE(call.specialisation.find("used by ABS (op 1) too"), std::string::npos) << call.specialisation;
  EXPECT_EQ(op_handler(OpKind::Svdf).state_copy_bytes(g, g.ops[0]), (2 * 24 - 1) * 2);
}

TEST(SvdfHandler, Int8StateTakesTheInt8Kernel) {
  Graph g = svdf_graph(DType::kInt8, DType::kInt8);
  g.tensors[4].quant.zero_point = {-5};
  const KernelCall call = lower_for_test(g);
  EXPECT_EQ(call.info().function(), "microaot_svdf_ring_s8_s8");
  EXPECT_EQ(param_text(call).at("state_zero_point"), "-5");
}

TEST(SvdfHandler, FloatWithReluAndNoBias) {
  Graph g = svdf_graph(DType::kFloat32, DType::kFloat32, Activation::kRelu);
  g.ops[0].inputs[3] = kNoTensor;
  const KernelCall call = lower_for_test(g);
  EXPECT_EQ(call.info().function(), "microaot_svdf_ring_f32");
  EXPECT_EQ(call.args[3], kNoTensor);
  EXPECT_EQ(call.scratch_bytes, 2 * 6 * 4);
  const auto f = param_text(call);
  EXPECT_EQ(f.at("activation_min"), "0x0p+0f");
  EXPECT_EQ(f.at("rank"), "2");
}

TEST(SvdfHandler, RefusesWhatTflmRefuses) {
  Graph g = svdf_graph(DType::kInt8, DType::kInt16);
  g.tensors[4].is_persistent = false;
  EXPECT_TRUE(refuses(g, "SVDF (op 0), input 4 'state' (tensor 4): is the state, which must be a variable tensor"));
  g = svdf_graph(DType::kInt8, DType::kInt16);
  g.tensors[4].dtype = DType::kInt8;
  EXPECT_TRUE(refuses(g, "input 4 'state' (tensor 4)"));
  g = svdf_graph(DType::kInt8, DType::kInt16);
  g.tensors[3].quant.scale = {0.5f};
  EXPECT_TRUE(refuses(g, "input 3 'bias' (tensor 3): has scale 0.500000, not the state's times weights_time's"));
  g = svdf_graph(DType::kInt8, DType::kInt16);
  g.tensors[1].quant.zero_point = {2};
  EXPECT_TRUE(refuses(g, "input 1 'wf' (tensor 1)"));
  EXPECT_TRUE(refuses(svdf_graph(DType::kInt8, DType::kInt16, Activation::kNone, 4),
                      "input 1 'wf' (tensor 1): has 6 filters, not a multiple of the rank 4"));
  g = svdf_graph(DType::kFloat32, DType::kFloat32);
  g.tensors[5].shape = {2, 4};
  EXPECT_TRUE(refuses(g, "output 0 'out' (tensor 5): has dimension 1 of 4, must be 3"));
  g = svdf_graph(DType::kFloat32, DType::kFloat32);
  g.tensors[4].shape = {2, 20};
  EXPECT_TRUE(refuses(g, "input 4 'state' (tensor 4): has dimension 1 of 20, must be 24"));
  g = svdf_graph(DType::kFloat32, DType::kFloat32);
  g.tensors[2].dtype = DType::kInt8;
  EXPECT_TRUE(refuses(g, "input 2 'wt' (tensor 2)"));
}

}  // namespace
}  // namespace microaot
