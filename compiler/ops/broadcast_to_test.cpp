// Tests of the BROADCAST_TO handler: new leading dimensions and size-1 dimensions repeat with stride 0, the
// others keep their byte stride; refusals of shapes the input does not broadcast to.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ops/binary_test_util.h"
#include "ops/remap_test_util.h"

namespace microaot {
namespace {

Graph broadcast_graph(DType type, std::vector<int32_t> in_shape, const std::vector<int32_t>& shape,
                      std::vector<int32_t> out_shape) {
  Graph g;
  const int in = add_tensor(g, type, std::move(in_shape));
  const int s = add_int32_vector(g, shape);
  const int out = add_tensor(g, type, std::move(out_shape));
  g.ops.push_back(Op{OpKind::BroadcastTo, 0, 1, {in, s}, {out}, NoOptions{}});
  return g;
}

TEST(BroadcastToHandler, NewAndSizeOneDimensionsRepeat) {
  // [1,3,1] float -> [2,2,3,2]: dimension 0 is new, 1 and 3 repeat, 2 keeps its stride of 4 bytes.
  const KernelCall call = lower_for_test(broadcast_graph(DType::kFloat32, {1, 3, 1}, {2, 2, 3, 2}, {2, 2, 3, 2}));
  EXPECT_EQ(remap_tables(call), (std::vector<std::vector<int64_t>>{{0, 0}, {0, 0}, {0, 4, 8}, {0, 0}}));
  EXPECT_EQ(remap_sources(call), (std::vector<int64_t>{0, 0, 1, 1, 2, 2, 0, 0, 1, 1, 2, 2,
                                                       0, 0, 1, 1, 2, 2, 0, 0, 1, 1, 2, 2}));
}

TEST(BroadcastToHandler, RowRepeatsOverNewRows) {
  EXPECT_EQ(remap_sources(lower_for_test(broadcast_graph(DType::kBool, {3}, {2, 3}, {2, 3}))),
            (std::vector<int64_t>{0, 1, 2, 0, 1, 2}));
}

TEST(BroadcastToHandler, RefusesWhatTflmRefuses) {
  EXPECT_NE(check_error(broadcast_graph(DType::kInt8, {2}, {2, 3}, {2, 3})).find("dimension 0 does not broadcast"),
            std::string::npos);
  EXPECT_NE(check_error(broadcast_graph(DType::kInt8, {3}, {2, 3}, {3, 3})).find("not the output's shape"),
            std::string::npos);
  EXPECT_NE(check_error(broadcast_graph(DType::kInt8, {1}, {1, 1, 1, 1, 1, 2}, {1, 1, 1, 1, 1, 2}))
                .find("rank above 5"),
            std::string::npos);
  EXPECT_NE(check_error(broadcast_graph(DType::kInt8, {1, 1, 3}, {3}, {3})).find("more dimensions"),
            std::string::npos);
  Graph runtime_shape = broadcast_graph(DType::kInt8, {3}, {2, 3}, {2, 3});
  runtime_shape.tensors[1].is_constant = false;
  EXPECT_NE(check_error(runtime_shape).find("shape"), std::string::npos);
}

}  // namespace
}  // namespace microaot
