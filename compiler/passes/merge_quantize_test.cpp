// merge_quantize: the QUANTIZEs that change no bit leave the graph (a copy; a requantize a table op absorbs
// exactly); those that would change one stay (a different scale, a requantize after a convolution).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "ops/op_options.h"
#include "passes/pass.h"

namespace microaot {
namespace {

int add_tensor(Graph& g, const std::string& name, DType type, float scale, int64_t zero_point) {
  Tensor t;
  t.name = name;
  t.dtype = type;
  t.shape = {1, 16};
  t.quant = {{scale}, {zero_point}, 0};
  g.tensors.push_back(t);
  return static_cast<int>(g.tensors.size()) - 1;
}

void add_op(Graph& g, OpKind kind, int input, int output) {
  g.ops.push_back(Op{kind, static_cast<int>(g.ops.size()), 1, {input}, {output}, NoOptions{}});
}

bool run(Graph& g) {
  PassContext ctx;
  return merge_quantize(g, ctx);
}

struct Quant {
  float scale;
  int64_t zero_point;
};

// x -> first -> mid -> second -> y, all of one type.
Graph chain(DType type, OpKind first, OpKind second, Quant x, Quant mid, Quant y) {
  Graph g;
  const int ids[] = {add_tensor(g, "x", type, x.scale, x.zero_point),
                     add_tensor(g, "mid", type, mid.scale, mid.zero_point),
                     add_tensor(g, "y", type, y.scale, y.zero_point)};
  add_op(g, first, ids[0], ids[1]);
  add_op(g, second, ids[1], ids[2]);
  g.inputs = {ids[0]};
  g.outputs = {ids[2]};
  return g;
}

// x -> QUANTIZE -> q -> ELU -> y: a QUANTIZE whose output is quantized as (scale, zero_point).
Graph quantize_then_elu(DType type, float scale, int64_t zero_point) {
  return chain(type, OpKind::Quantize, OpKind::Elu, {0.05f, -3}, {scale, zero_point}, {0.05f, 0});
}

TEST(MergeQuantize, DropsACopyItsReadersReadThroughIt) {
  Graph g = quantize_then_elu(DType::kInt8, 0.05f, -3);
  ASSERT_TRUE(run(g));
  ASSERT_EQ(g.ops.size(), 1u);
  EXPECT_EQ(g.ops[0].kind, OpKind::Elu);
  EXPECT_EQ(g.ops[0].inputs[0], 0);  // reads x
}

TEST(MergeQuantize, DropsAnInt16Copy) {
  Graph g;  // x -> QUANTIZE (a copy) -> q -> QUANTIZE to int8 -> y
  const int x = add_tensor(g, "x", DType::kInt16, 0.001f, 0);
  const int q = add_tensor(g, "q", DType::kInt16, 0.001f, 0);
  const int y = add_tensor(g, "y", DType::kInt8, 0.2f, 4);
  add_op(g, OpKind::Quantize, x, q);
  add_op(g, OpKind::Quantize, q, y);
  g.outputs = {y};
  ASSERT_TRUE(run(g));
  ASSERT_EQ(g.ops.size(), 1u);
  EXPECT_EQ(g.ops[0].inputs[0], x);
}

TEST(MergeQuantize, KeepsACopyThatIsAGraphOutputAndANearCopy) {
  Graph exposed = quantize_then_elu(DType::kInt8, 0.05f, -3);
  exposed.outputs.push_back(1);
  EXPECT_FALSE(run(exposed));
  // One ulp of scale apart: the readers would requantize with the other scale.
  Graph near = quantize_then_elu(DType::kInt8, std::nextafter(0.05f, 1.0f), -3);
  EXPECT_FALSE(run(near));
  EXPECT_EQ(near.ops.size(), 2u);
}

// x -> ELU -> mid -> QUANTIZE -> y: the requantize merges into ELU's table only where the table rebuilt for y
// equals ELU's table followed by the requantize, for all 256 inputs.
Graph elu_then_quantize(float scale, int64_t zero_point) {
  // ELU's [-1, 6.35] lands in [-120, 27] of e, the mid tensor.
  return chain(DType::kInt8, OpKind::Elu, OpKind::Quantize, {0.05f, 0}, {0.05f, -100}, {scale, zero_point});
}

TEST(MergeQuantize, AZeroPointShiftMergesIntoATableOp) {
  Graph g = elu_then_quantize(0.05f, -90);  // same scale, no value clamped: the same 256 entries
  ASSERT_TRUE(run(g));
  ASSERT_EQ(g.ops.size(), 1u);
  EXPECT_EQ(g.ops[0].kind, OpKind::Elu);
  EXPECT_EQ(g.ops[0].outputs[0], 2);  // writes y
}

TEST(MergeQuantize, KeepsWhatTwoRoundingsOrAClampMakeDifferent) {
  Graph rescaled = elu_then_quantize(0.07f, -90);  // round to 0.05 then to 0.07 != round to 0.07 somewhere
  EXPECT_FALSE(run(rescaled));
  Graph clamped = elu_then_quantize(0.05f, 0);
  clamped.tensors[1].quant.zero_point = {100};  // mid saturates at 127 from x = 1.35 on; y (zero point 0) not
  EXPECT_FALSE(run(clamped));
  EXPECT_EQ(clamped.ops.size(), 2u);
}

TEST(MergeQuantize, KeepsARequantizeAfterAConvolutionOrAReshape) {
  Graph g;  // RESHAPE moves bytes: nothing to merge the rescale into
  const int x = add_tensor(g, "x", DType::kInt8, 0.05f, 0);
  const int r = add_tensor(g, "r", DType::kInt8, 0.05f, 0);
  const int y = add_tensor(g, "y", DType::kInt8, 0.1f, 0);
  g.ops.push_back(Op{OpKind::Reshape, 0, 1, {x}, {r}, ReshapeOptions{{1, 16}}});
  add_op(g, OpKind::Quantize, r, y);
  g.outputs = {y};
  EXPECT_FALSE(run(g));
  EXPECT_EQ(g.ops.size(), 2u);
}

TEST(MergeQuantize, ListedInThePipelineAfterFoldPad) {
  const std::vector<std::string> names = pass_names();
  const auto fold = std::find(names.begin(), names.end(), "fold_pad");
  const auto merge = std::find(names.begin(), names.end(), "merge_quantize");
  ASSERT_NE(merge, names.end());
  EXPECT_LT(fold, merge);
}

}  // namespace
}  // namespace microaot
