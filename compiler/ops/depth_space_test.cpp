// Tests of the DEPTH_TO_SPACE and SPACE_TO_DEPTH handlers: the element each output takes, against TensorFlow's
// definition written as plain loops, each op undoing the other, and the refusals.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ops/binary_test_util.h"
#include "ops/remap_test_util.h"

namespace microaot {
namespace {

Graph block_graph(OpKind kind, std::vector<int32_t> in_shape, std::vector<int32_t> out_shape, int block,
                  DType type = DType::kInt8) {
  Graph g;
  const int in = add_tensor(g, type, std::move(in_shape));
  const int out = add_tensor(g, type, std::move(out_shape));
  g.ops.push_back(Op{kind, 0, 1, {in}, {out}, BlockSizeOptions{block}});
  return g;
}

// Input index of every DEPTH_TO_SPACE output element of an [n, h, w, c] input: output (b, y, x, d) reads
// input (b, y / s, x / s, ((y % s) * s + x % s) * (c / s^2) + d).
std::vector<int64_t> depth_to_space_reference(int n, int h, int w, int c, int s) {
  const int depth = c / (s * s);
  std::vector<int64_t> sources;
  for (int b = 0; b < n; ++b) {
    for (int y = 0; y < h * s; ++y) {
      for (int x = 0; x < w * s; ++x) {
        for (int d = 0; d < depth; ++d) {
          const int channel = ((y % s) * s + x % s) * depth + d;
          sources.push_back(((b * h + y / s) * w + x / s) * c + channel);
        }
      }
    }
  }
  return sources;
}

TEST(DepthToSpaceHandler, EachOutputTakesTheChannelOfItsPlaceInTheBlock) {
  EXPECT_EQ(remap_sources(lower_for_test(block_graph(OpKind::DepthToSpace, {1, 2, 3, 8}, {1, 4, 6, 2}, 2))),
            depth_to_space_reference(1, 2, 3, 8, 2));
  EXPECT_EQ(remap_sources(lower_for_test(
                block_graph(OpKind::DepthToSpace, {2, 2, 1, 9}, {2, 6, 3, 1}, 3, DType::kFloat32))),
            depth_to_space_reference(2, 2, 1, 9, 3));
}

TEST(SpaceToDepthHandler, UndoesDepthToSpace) {
  // Composing the two element maps must give every input element back in place.
  const std::vector<int64_t> to_space =
      remap_sources(lower_for_test(block_graph(OpKind::DepthToSpace, {2, 2, 3, 12}, {2, 4, 6, 3}, 2)));
  const std::vector<int64_t> to_depth =
      remap_sources(lower_for_test(block_graph(OpKind::SpaceToDepth, {2, 4, 6, 3}, {2, 2, 3, 12}, 2)));
  ASSERT_EQ(to_depth.size(), to_space.size());
  for (size_t i = 0; i < to_depth.size(); ++i) EXPECT_EQ(to_space[static_cast<size_t>(to_depth[i])], int64_t(i));
}

TEST(SpaceToDepthHandler, FirstPixelOfEachBlockComesFirst) {
  // [1,2,2,1] block 2 -> [1,1,1,4]: the four pixels in row-major order.
  EXPECT_EQ(remap_sources(lower_for_test(block_graph(OpKind::SpaceToDepth, {1, 2, 2, 1}, {1, 1, 1, 4}, 2))),
            (std::vector<int64_t>{0, 1, 2, 3}));
}

TEST(DepthSpaceHandlers, RefuseWhatTflmRefuses) {
  EXPECT_NE(check_error(block_graph(OpKind::DepthToSpace, {1, 2, 2, 6}, {1, 4, 4, 1}, 2)).find("multiple"),
            std::string::npos);
  EXPECT_NE(check_error(block_graph(OpKind::SpaceToDepth, {1, 3, 2, 1}, {1, 1, 1, 4}, 2)).find("multiples"),
            std::string::npos);
  EXPECT_NE(check_error(block_graph(OpKind::DepthToSpace, {1, 1, 1, 4}, {1, 2, 1, 1}, 2)).find("rearranged"),
            std::string::npos);
  EXPECT_NE(check_error(block_graph(OpKind::SpaceToDepth, {2, 2, 1}, {1, 1, 4}, 2)).find("input 0"),
            std::string::npos);
  EXPECT_NE(check_error(block_graph(OpKind::SpaceToDepth, {1, 2, 2, 1}, {1, 1, 1, 4}, 2, DType::kInt16))
                .find("output 0"),
            std::string::npos);
}

}  // namespace
}  // namespace microaot
