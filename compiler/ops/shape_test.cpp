// Tests of the SHAPE handler: the call copies a derived int32 constant holding the input's dimensions; an
// int64 output is refused as TFLM does.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ops/binary_test_util.h"
#include "ops/remap_test_util.h"

namespace microaot {
namespace {

Graph shape_graph(std::vector<int32_t> in_shape, DType out_type = DType::kInt32) {
  Graph g;
  const int rank = static_cast<int>(in_shape.size());
  const int in = add_tensor(g, DType::kInt8, std::move(in_shape));
  const int out = add_tensor(g, out_type, {rank});
  g.ops.push_back(Op{OpKind::Shape, 0, 1, {in}, {out}, NoOptions{}});
  return g;
}

TEST(ShapeHandler, CopiesADerivedConstantOfTheDimensions) {
  Graph g = shape_graph({2, 300, 4});
  const Op op = g.ops[0];
  op_handler(op.kind).check(g, op);
  KernelCall call = op_handler(op.kind).lower(g, op);
  bind_kernel_call(g, op, call);
  const Tensor& value = g.tensor(call.args[0]);
  EXPECT_TRUE(value.is_constant);
  EXPECT_EQ(value.dtype, DType::kInt32);
  EXPECT_EQ(value.data, (std::vector<uint8_t>{2, 0, 0, 0, 44, 1, 0, 0, 4, 0, 0, 0}));  // 300 = 0x12c
  EXPECT_EQ(call.args[1], 1);
  EXPECT_EQ(remap_sources(call), (std::vector<int64_t>{0, 1, 2}));
}

TEST(ShapeHandler, ScalarInputGivesAnEmptyOutput) {
  const KernelCall call = lower_for_test(shape_graph({}));
  EXPECT_EQ(param_arrays(call).at("out_dims"), (std::vector<int64_t>{0}));
}

TEST(ShapeHandler, RefusesWhatTflmRefuses) {
  EXPECT_NE(check_error(shape_graph({2, 3}, DType::kInt64)).find("output 0"), std::string::npos);
  Graph wrong = shape_graph({2, 3});
  wrong.tensors[1].shape = {3};
  EXPECT_NE(check_error(wrong).find("[input rank]"), std::string::npos);
}

}  // namespace
}  // namespace microaot
