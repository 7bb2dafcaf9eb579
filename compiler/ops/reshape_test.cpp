// Tests of the RESHAPE handler: it accepts equal-size reinterpretations, is a view (an alias), and names
// the tensor when sizes or types disagree.
#include <gtest/gtest.h>

#include <string>

#include "ops/op_handler.h"
#include "support/diagnostics.h"

namespace microaot {
namespace {

int add_tensor(Graph& g, DType dtype, std::vector<int32_t> shape, bool constant = false) {
  Tensor t;
  t.name = "t" + std::to_string(g.tensors.size());
  t.dtype = dtype;
  t.shape = std::move(shape);
  t.source_index = static_cast<int>(g.tensors.size());
  t.is_constant = constant;
  g.tensors.push_back(t);
  return static_cast<int>(g.tensors.size()) - 1;
}

Op reshape(std::vector<int> inputs, int out) {
  Op op;
  op.kind = OpKind::Reshape;
  op.source_index = 2;
  op.inputs = std::move(inputs);
  op.outputs = {out};
  return op;
}

std::string check_error(const Graph& g, const Op& op) {
  try {
    op_handler(op.kind).check(g, op);
  } catch (const CompileError& e) {
    return e.what();
  }
  return "";
}

TEST(ReshapeHandler, IsAViewWithoutAKernel) {
  Graph g;
  const int in = add_tensor(g, DType::kInt8, {1, 4, 4, 3});
  const int out = add_tensor(g, DType::kInt8, {1, 48});
  const Op op = reshape({in}, out);
  EXPECT_EQ(check_error(g, op), "");
  EXPECT_TRUE(op_handler(op.kind).is_view);
  EXPECT_EQ(op_handler(op.kind).lower, nullptr);  // the passes make it an alias; nothing is lowered
  EXPECT_EQ(op_handler(op.kind).macs(g, op), 0);
}

TEST(ReshapeHandler, AcceptsAShapeInputForAnyDtype) {
  for (DType type : {DType::kFloat32, DType::kInt8, DType::kInt16, DType::kInt32, DType::kBool}) {
    Graph g;
    const int in = add_tensor(g, type, {2, 6});
    const int shape = add_tensor(g, DType::kInt32, {3}, true);
    const Op op = reshape({in, shape}, add_tensor(g, type, {3, 2, 2}));
    EXPECT_EQ(check_error(g, op), "") << dtype_name(type);
  }
}

TEST(ReshapeHandler, RefusesElementCountMismatch) {
  Graph g;
  const int in = add_tensor(g, DType::kFloat32, {2, 6});
  const Op op = reshape({in}, add_tensor(g, DType::kFloat32, {3, 2, 3}));
  EXPECT_EQ(check_error(g, op), "RESHAPE (op 2), output 0 't1' (tensor 1): has 18 elements, the input has 12");
}

TEST(ReshapeHandler, RefusesTypeChange) {
  Graph g;
  const int in = add_tensor(g, DType::kInt8, {4});
  const Op op = reshape({in}, add_tensor(g, DType::kUInt8, {2, 2}));
  EXPECT_EQ(check_error(g, op), "RESHAPE (op 2), output 0 't1' (tensor 1): type uint8 differs from the input's int8");
}

TEST(ReshapeHandler, RefusesUnresolvedDimensions) {
  Graph g;
  const int in = add_tensor(g, DType::kInt8, {2, 6});
  const Op op = reshape({in}, add_tensor(g, DType::kInt8, {-1, 12}));
  EXPECT_NE(check_error(g, op).find("unknown dimension"), std::string::npos);
}

TEST(ReshapeHandler, RefusesWrongArity) {
  Graph g;
  const int a = add_tensor(g, DType::kInt8, {4});
  const Op op = reshape({a, a, a}, add_tensor(g, DType::kInt8, {4}));
  EXPECT_NE(check_error(g, op).find("expects 1-2 inputs, has 3"), std::string::npos);
}

}  // namespace
}  // namespace microaot
