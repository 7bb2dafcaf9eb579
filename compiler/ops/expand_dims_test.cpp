// Tests of the EXPAND_DIMS handler: a view, the axis (negative from the end) checked against the output.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ops/binary_test_util.h"
#include "ops/remap_test_util.h"

namespace microaot {
namespace {

Graph expand_graph(std::vector<int32_t> in_shape, int32_t axis, std::vector<int32_t> out_shape) {
  Graph g;
  const int in = add_tensor(g, DType::kInt16, std::move(in_shape));
  const int a = add_int32_constant(g, {axis}, {});
  const int out = add_tensor(g, DType::kInt16, std::move(out_shape));
  g.ops.push_back(Op{OpKind::ExpandDims, 0, 1, {in, a}, {out}, NoOptions{}});
  return g;
}

TEST(ExpandDimsHandler, IsAViewWithTheAxisCheckedAgainstTheOutput) {
  EXPECT_TRUE(op_handler(OpKind::ExpandDims).is_view);
  EXPECT_EQ(check_error(expand_graph({2, 3}, 1, {2, 1, 3})), "");
  EXPECT_EQ(check_error(expand_graph({2, 3}, -1, {2, 3, 1})), "");
  EXPECT_EQ(check_error(expand_graph({2, 3}, -3, {1, 2, 3})), "");
  EXPECT_NE(check_error(expand_graph({2, 3}, 0, {2, 1, 3})).find("a 1 at the axis"), std::string::npos);
  EXPECT_NE(check_error(expand_graph({2, 3}, 3, {2, 3, 1})).find("outside the output's rank"), std::string::npos);
}

}  // namespace
}  // namespace microaot
