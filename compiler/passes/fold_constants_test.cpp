// fold_constants: ops of constants become constants (in order, so chains fold), SHAPE of a run-time
// tensor folds, and what must stay a kernel call stays: graph outputs, ops the handler refuses (left for
// check_operators to name), and folds that would multiply the constant's elements.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "ops/op_options.h"
#include "ops/remap_test_util.h"
#include "passes/pass.h"
#include "support/diagnostics.h"

namespace microaot {
namespace {

template <typename T>
std::vector<T> values_of(const Tensor& t) {
  std::vector<T> values(t.data.size() / sizeof(T));
  if (!values.empty()) std::memcpy(values.data(), t.data.data(), t.data.size());
  return values;
}

// A constant int8 tensor of `shape` holding `q`, scale 0.5 and zero point -3 (add_tensor's).
int add_int8_constant(Graph& g, const std::vector<int8_t>& q, std::vector<int32_t> shape) {
  const int id = add_tensor(g, DType::kInt8, std::move(shape));
  g.tensors[static_cast<size_t>(id)].is_constant = true;
  for (int8_t v : q) g.tensors[static_cast<size_t>(id)].data.push_back(static_cast<uint8_t>(v));
  return id;
}

// Graph input x [1, 4] float -> FULLY_CONNECTED with weights = DEQUANTIZE(int8 constant [3, 4]) -> y [1, 3].
Graph fc_with_dequantized_weights() {
  Graph g;
  const int x = add_tensor(g, DType::kFloat32, {1, 4});
  const int q = add_int8_constant(g, {-3, -1, 1, 5, 0, 2, 4, 6, -7, -5, 127, -128}, {3, 4});
  const int w = add_tensor(g, DType::kFloat32, {3, 4});
  const int y = add_tensor(g, DType::kFloat32, {1, 3});
  g.ops.push_back(Op{OpKind::Dequantize, 0, 2, {q}, {w}, {}});
  g.ops.push_back(Op{OpKind::FullyConnected, 1, 1, {x, w}, {y}, FullyConnectedOptions{}});
  g.inputs = {x};
  g.outputs = {y};
  return g;
}

TEST(FoldConstants, DequantizedWeightsBecomeAConstantTheConvolutionAccepts) {
  Graph g = fc_with_dequantized_weights();
  PassContext ctx;
  EXPECT_THROW(check_operators(g, ctx), CompileError);  // unfolded, the weights are not constant
  EXPECT_TRUE(fold_constants(g, ctx));
  ASSERT_EQ(g.ops.size(), 1u);
  EXPECT_EQ(g.ops[0].kind, OpKind::FullyConnected);
  const Tensor& w = g.tensor(2);
  EXPECT_TRUE(w.is_constant);
  // 0.5 * (q + 3), exact in float.
  EXPECT_EQ(values_of<float>(w), (std::vector<float>{0, 1, 2, 4, 1.5f, 2.5f, 3.5f, 4.5f, -2, -1, 65, -62.5f}));
  EXPECT_NO_THROW(check_operators(g, ctx));
}

TEST(FoldConstants, ChainsFoldInExecutionOrder) {
  Graph g;
  const int q = add_int8_constant(g, {-3, -1, 1, 5, 7, 9}, {2, 3});
  const int w = add_tensor(g, DType::kFloat32, {2, 3});
  const int perm = add_int32_vector(g, {1, 0});
  const int wt = add_tensor(g, DType::kFloat32, {3, 2});
  const int x = add_tensor(g, DType::kFloat32, {3, 2});
  const int y = add_tensor(g, DType::kFloat32, {3, 2});
  g.ops.push_back(Op{OpKind::Dequantize, 0, 2, {q}, {w}, {}});
  g.ops.push_back(Op{OpKind::Transpose, 1, 1, {w, perm}, {wt}, {}});
  g.ops.push_back(Op{OpKind::Maximum, 2, 1, {x, wt}, {y}, {}});
  g.inputs = {x};
  g.outputs = {y};
  PassContext ctx;
  EXPECT_TRUE(fold_constants(g, ctx));
  ASSERT_EQ(g.ops.size(), 1u);
  EXPECT_EQ(g.ops[0].kind, OpKind::Maximum);
  // 0.5 * (q + 3) = [[0, 1, 2], [4, 5, 6]], transposed.
  EXPECT_EQ(values_of<float>(g.tensor(wt)), (std::vector<float>{0, 4, 1, 5, 2, 6}));
}

TEST(FoldConstants, AGraphOutputStaysComputedByTheGeneratedCode) {
  Graph g;
  const int q = add_int8_constant(g, {1, 2}, {2});
  const int y = add_tensor(g, DType::kFloat32, {2});
  g.ops.push_back(Op{OpKind::Dequantize, 0, 2, {q}, {y}, {}});
  g.outputs = {y};
  PassContext ctx;
  EXPECT_FALSE(fold_constants(g, ctx));
  EXPECT_EQ(g.ops.size(), 1u);
  EXPECT_FALSE(g.tensor(y).is_constant);
}

TEST(FoldConstants, AnOpItsHandlerRefusesIsLeftForCheckOperators) {
  Graph g;
  const int c = add_tensor(g, DType::kFloat32, {2, 3});
  g.tensors[static_cast<size_t>(c)].is_constant = true;
  g.tensors[static_cast<size_t>(c)].data.assign(24, 0);
  const int perm = add_int32_vector(g, {0, 7});  // hostile: a permutation entry out of range
  const int t = add_tensor(g, DType::kFloat32, {2, 3});
  const int x = add_tensor(g, DType::kFloat32, {2, 3});
  const int y = add_tensor(g, DType::kFloat32, {2, 3});
  g.ops.push_back(Op{OpKind::Transpose, 0, 1, {c, perm}, {t}, {}});
  g.ops.push_back(Op{OpKind::Maximum, 1, 1, {x, t}, {y}, {}});
  g.inputs = {x};
  g.outputs = {y};
  PassContext ctx;
  EXPECT_FALSE(fold_constants(g, ctx));
  ASSERT_EQ(g.ops.size(), 2u);
  try {
    check_operators(g, ctx);
    ADD_FAILURE() << "check_operators accepted the refused TRANSPOSE";
  } catch (const CompileError& e) {
    EXPECT_NE(std::string(e.what()).find("TRANSPOSE (op 0)"), std::string::npos) << e.what();
  }
}

TEST(FoldConstants, ShapeOfARunTimeTensorFolds) {
  Graph g;
  const int x = add_tensor(g, DType::kFloat32, {1, 7, 5, 3});
  const int s = add_tensor(g, DType::kInt32, {4});
  const int y = add_tensor(g, DType::kFloat32, {4});
  g.ops.push_back(Op{OpKind::Shape, 0, 1, {x}, {s}, {}});
  g.ops.push_back(Op{OpKind::Cast, 1, 1, {s}, {y}, {}});
  g.inputs = {x};
  g.outputs = {y};
  PassContext ctx;
  EXPECT_TRUE(fold_constants(g, ctx));
  ASSERT_EQ(g.ops.size(), 1u);  // the CAST writes a graph output: it stays
  EXPECT_EQ(g.ops[0].kind, OpKind::Cast);
  EXPECT_EQ(values_of<int32_t>(g.tensor(s)), (std::vector<int32_t>{1, 7, 5, 3}));
}

TEST(FoldConstants, AFoldThatWouldMultiplyTheElementsStaysAKernelCall) {
  Graph g;
  const int c = add_int32_constant(g, {9}, {1});
  const int shape = add_int32_vector(g, {4, 4});
  const int b = add_tensor(g, DType::kInt32, {4, 4});
  const int x = add_tensor(g, DType::kInt32, {4, 4});
  const int y = add_tensor(g, DType::kInt32, {4, 4});
  g.ops.push_back(Op{OpKind::BroadcastTo, 0, 1, {c, shape}, {b}, {}});
  g.ops.push_back(Op{OpKind::Maximum, 1, 1, {x, b}, {y}, {}});
  g.inputs = {x};
  g.outputs = {y};
  PassContext ctx;
  EXPECT_FALSE(fold_constants(g, ctx));
  EXPECT_EQ(g.ops.size(), 2u);
}

TEST(FoldConstants, RunsBeforeCheckOperatorsAndCanBeDumped) {
  const std::vector<std::string> names = pass_names();
  ASSERT_NE(std::find(names.begin(), names.end(), "fold_constants"), names.end());
  EXPECT_LT(std::find(names.begin(), names.end(), "fold_constants"),
            std::find(names.begin(), names.end(), "check_operators"));
}

}  // namespace
}  // namespace microaot
