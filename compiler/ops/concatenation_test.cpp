// Tests of the CONCATENATION handler: byte counts per input for any axis and element size, the checks TFLM
// makes (types, ranks, dimensions, int8 quantization equal to the output's, no activation), and refusals
// that name the tensor.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ops/binary_test_util.h"
#include "ops/lowering_test_util.h"

namespace microaot {
namespace {

// Inputs of `shapes`, the output last; int8 tensors quantized with scale 0.5, zero point -3.
Graph concat_graph(DType type, const std::vector<std::vector<int32_t>>& shapes, std::vector<int32_t> out_shape,
                   int axis) {
  Graph g;
  std::vector<std::vector<int32_t>> all = shapes;
  all.push_back(std::move(out_shape));
  for (size_t i = 0; i < all.size(); ++i) {
    Tensor t;
    t.name = i + 1 == all.size() ? "out" : "in" + std::to_string(i);
    t.dtype = type;
    t.shape = all[i];
    if (type == DType::kInt8) t.quant = {{0.5f}, {-3}, 0};
    g.tensors.push_back(t);
  }
  Op op{OpKind::Concatenation, 4, 1, {}, {static_cast<int>(shapes.size())}, ConcatenationOptions{axis}};
  for (size_t i = 0; i < shapes.size(); ++i) op.inputs.push_back(static_cast<int>(i));
  g.ops.push_back(op);
  return g;
}

TEST(ConcatenationHandler, SlicesAreBytesFromTheAxisOn) {
  const Graph g = concat_graph(DType::kFloat32, {{2, 3, 4}, {2, 5, 4}}, {2, 8, 4}, 1);
  const KernelCall call = lower_for_test(g);
  EXPECT_EQ(call.info().function(), "microaot_concatenation");
  EXPECT_EQ(param_text(call).at("outer_count"), "2");
  EXPECT_EQ(param_text(call).at("input_count"), "2");
  EXPECT_EQ(param_arrays(call).at("slice_bytes"), (std::vector<int64_t>{3 * 4 * 4, 5 * 4 * 4}));
  EXPECT_EQ(call.args, (std::vector<int>{0, 1, 2}));
}

TEST(ConcatenationHandler, NegativeAxisCountsFromTheEndAndElementSizeFollowsTheType) {
  const Graph g = concat_graph(DType::kInt16, {{2, 3}, {2, 1}, {2, 2}}, {2, 6}, -1);
  const KernelCall call = lower_for_test(g);
  EXPECT_EQ(param_text(call).at("outer_count"), "2");
  EXPECT_EQ(param_arrays(call).at("slice_bytes"), (std::vector<int64_t>{6, 2, 4}));
}

TEST(ConcatenationHandler, AxisZeroIsOneOuterSlice) {
  const KernelCall call = lower_for_test(concat_graph(DType::kInt8, {{1, 4}, {3, 4}}, {4, 4}, 0));
  EXPECT_EQ(param_text(call).at("outer_count"), "1");
  EXPECT_EQ(param_arrays(call).at("slice_bytes"), (std::vector<int64_t>{4, 12}));
}

TEST(ConcatenationHandler, RefusesWhatTflmRefuses) {
  Graph rescale = concat_graph(DType::kInt8, {{1, 2}, {1, 2}}, {1, 4}, 1);
  rescale.tensors[1].quant.scale = {0.25f};
  EXPECT_NE(check_error(rescale).find("input 1 'in1' (tensor 1): int8 inputs must be quantized as the output"),
            std::string::npos)
      << check_error(rescale);
  Graph int16_offset = concat_graph(DType::kInt16, {{1, 2}, {1, 2}}, {1, 4}, 1);
  int16_offset.tensors[0].quant = {{0.5f}, {1}, 0};
  EXPECT_NE(check_error(int16_offset).find("zero points must be 0"), std::string::npos);
  Graph activation = concat_graph(DType::kFloat32, {{1, 2}, {1, 2}}, {1, 4}, 1);
  activation.ops[0].options = ConcatenationOptions{1, Activation::kRelu};
  EXPECT_NE(check_error(activation).find("fused activation"), std::string::npos);
}

TEST(ConcatenationHandler, RefusesShapesThatDoNotAddUp) {
  EXPECT_NE(check_error(concat_graph(DType::kFloat32, {{1, 2}, {1, 2}}, {1, 5}, 1)).find("not the sum"),
            std::string::npos);
  EXPECT_NE(check_error(concat_graph(DType::kFloat32, {{1, 2}, {2, 2}}, {1, 4}, 1)).find("dimension 0 differs"),
            std::string::npos);
  EXPECT_NE(check_error(concat_graph(DType::kFloat32, {{1, 2}, {1, 2, 1}}, {1, 4}, 1)).find("rank"),
            std::string::npos);
  EXPECT_NE(check_error(concat_graph(DType::kFloat32, {{1, 2}, {1, 2}}, {1, 4}, 2)).find("axis 2 is outside"),
            std::string::npos);
  Graph mixed = concat_graph(DType::kFloat32, {{1, 2}, {1, 2}}, {1, 4}, 1);
  mixed.tensors[1].dtype = DType::kInt32;
  EXPECT_NE(check_error(mixed).find("input 1 'in1' (tensor 1): has a type other than the output's"), std::string::npos);
}

TEST(ConcatenationHandler, TakesUpToTenInputsAsTflmDoes) {
  const std::vector<std::vector<int32_t>> ten(10, {1, 1}), eleven(11, {1, 1});
  EXPECT_EQ(check_error(concat_graph(DType::kInt32, ten, {1, 10}, 1)), "");
  EXPECT_NE(check_error(concat_graph(DType::kInt32, eleven, {1, 11}, 1)), "");
}

}  // namespace
}  // namespace microaot
