// SELECT_V2 handler: the three-input broadcast plan (strides derived by hand), the byte-generic kernel with
// its element size, TFLM's single-element operands of any shapes, and the refusals.
#include <gtest/gtest.h>

#include <string>

#include "ops/binary_test_util.h"
#include "ops/lowering_test_util.h"

namespace microaot {
namespace {

using V = std::vector<int64_t>;

// condition (tensor 0, bool), x (1) and y (2) of `type`, output (3) of `type`.
Graph select_graph(DType type, const std::vector<int32_t>& condition, const std::vector<int32_t>& x,
                   const std::vector<int32_t>& y, const std::vector<int32_t>& out) {
  Graph g;
  const std::vector<int32_t>* shapes[] = {&condition, &x, &y, &out};
  const char* names[] = {"condition", "x", "y", "out"};
  for (int i = 0; i < 4; ++i) {
    Tensor t;
    t.name = names[i];
    t.dtype = i == 0 ? DType::kBool : type;
    t.shape = *shapes[i];
    g.tensors.push_back(t);
  }
  g.ops.push_back(Op{OpKind::SelectV2, 0, 1, {0, 1, 2}, {3}, {}});
  return g;
}

TEST(SelectV2Handler, PlansTheThreeInputBroadcast) {
  // condition [1, 4] and y [4] re-read for each of x's 3 rows.
  const KernelCall call = lower_for_test(select_graph(DType::kFloat32, {1, 4}, {3, 4}, {4}, {3, 4}));
  EXPECT_EQ(call.info().function(), "microaot_select_v2");
  EXPECT_EQ(call.info().params->c_type(), "microaot_select_v2_params");
  EXPECT_EQ(call.args, (std::vector<int>{0, 1, 2, 3}));
  const auto a = param_arrays(call);
  EXPECT_EQ(a.at("output_shape"), (V{3, 4}));
  EXPECT_EQ(a.at("input1_strides"), (V{0, 1}));
  EXPECT_EQ(a.at("input2_strides"), (V{4, 1}));
  EXPECT_EQ(a.at("input3_strides"), (V{0, 1}));
  EXPECT_EQ(param_text(call).at("element_size"), "4");
  EXPECT_EQ(param_text(call).at("flat_size"), "12");
}

TEST(SelectV2Handler, OneKernelForEveryElementSize) {
  const KernelCall s16 = lower_for_test(select_graph(DType::kInt16, {2, 3}, {2, 3}, {2, 3}, {2, 3}));
  EXPECT_EQ(s16.info().function(), "microaot_select_v2");
  EXPECT_EQ(param_text(s16).at("element_size"), "2");
  EXPECT_EQ(param_text(s16).at("num_dims"), "0");  // same shapes: one flat row
  EXPECT_EQ(param_text(lower_for_test(select_graph(DType::kInt8, {2, 1}, {2, 3}, {1, 3}, {2, 3}))).at("element_size"),
            "1");
}

TEST(SelectV2Handler, SingleElementsOfAnyShapesAreOneElement) {
  // TFLM's "mixed scalars": condition [1, 1], x [1], y [] and output [1].
  const KernelCall call = lower_for_test(select_graph(DType::kInt8, {1, 1}, {1}, {}, {1}));
  EXPECT_EQ(param_text(call).at("flat_size"), "1");
  EXPECT_EQ(param_text(call).at("num_dims"), "0");
}

TEST(SelectV2Handler, RefusesWhatTflmRefuses) {
  Graph g = select_graph(DType::kFloat32, {4}, {4}, {4}, {4});
  g.tensors[0].dtype = DType::kInt8;
  EXPECT_NE(check_error(g).find("SELECT_V2 (op 0), input 0 'condition' (tensor 0): type int8"), std::string::npos);
  g = select_graph(DType::kFloat32, {4}, {4}, {4}, {4});
  g.tensors[2].dtype = DType::kInt8;
  EXPECT_NE(check_error(g).find("input 2 'y' (tensor 2): type int8"), std::string::npos);
  EXPECT_NE(check_error(select_graph(DType::kInt32, {4}, {4}, {4}, {4})).find("type int32 is not supported"),
            std::string::npos);
  EXPECT_NE(check_error(select_graph(DType::kFloat32, {3}, {2, 4}, {4}, {2, 4})).find("cannot be broadcast"),
            std::string::npos);
  EXPECT_NE(check_error(select_graph(DType::kFloat32, {4}, {2, 4}, {4}, {4})).find("output 0 'out' (tensor 3)"),
            std::string::npos);
}

}  // namespace
}  // namespace microaot
