// Tests of the BATCH_TO_SPACE_ND and SPACE_TO_BATCH_ND handlers: hand-worked small cases (padding included),
// each op undoing the other, the rank-3 form, and the refusals.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ops/binary_test_util.h"
#include "ops/remap_test_util.h"

namespace microaot {
namespace {

Graph batch_graph(OpKind kind, std::vector<int32_t> in_shape, const std::vector<int32_t>& block,
                  const std::vector<int32_t>& edges, std::vector<int32_t> out_shape, DType type = DType::kInt8) {
  Graph g;
  const int in = add_tensor(g, type, std::move(in_shape));
  const int b = add_int32_vector(g, block);
  const int e = add_int32_constant(g, edges, {static_cast<int32_t>(edges.size() / 2), 2});
  const int out = add_tensor(g, type, std::move(out_shape));
  g.ops.push_back(Op{kind, 0, 1, {in, b, e}, {out}, NoOptions{}});
  return g;
}

TEST(SpaceToBatchNdHandler, EachBlockOffsetBecomesABatch) {
  // [1,2,4,1] = 0..7, block [2,2] -> [4,1,2,1]: batch (r * 2 + c) takes rows r, columns c, c + 2.
  const KernelCall call =
      lower_for_test(batch_graph(OpKind::SpaceToBatchNd, {1, 2, 4, 1}, {2, 2}, {0, 0, 0, 0}, {4, 1, 2, 1}));
  EXPECT_EQ(call.info().function(), "microaot_remap");
  EXPECT_EQ(remap_sources(call), (std::vector<int64_t>{0, 2, 1, 3, 4, 6, 5, 7}));
}

TEST(SpaceToBatchNdHandler, PaddingIsTheZeroPointWhereTheBlockFallsOutside) {
  // Rank 3 [1,3,1] = a b c, block [2], padding 1 before: padded _ a b c; batch 0 takes _ b, batch 1 a c.
  const KernelCall call = lower_for_test(batch_graph(OpKind::SpaceToBatchNd, {1, 3, 1}, {2}, {1, 0}, {2, 2, 1}));
  EXPECT_EQ(remap_sources(call), (std::vector<int64_t>{-1, 1, 0, 2}));
  EXPECT_EQ(param_arrays(call).at("fill"), (std::vector<int64_t>{-3}));
}

TEST(SpaceToBatchNdHandler, PaddedInBothDimensionsAgreesWithTheDefinition) {
  // [2,3,5,1] padded [1,0] x [0,1] to [2,4,6,1], block [2,2] -> [8,2,3,1]; output batch k * 2 + n (block
  // offset k = r * 2 + c) row y, column x takes padded (n, y * 2 + r, x * 2 + c).
  const KernelCall call = lower_for_test(
      batch_graph(OpKind::SpaceToBatchNd, {2, 3, 5, 1}, {2, 2}, {1, 0, 0, 1}, {8, 2, 3, 1}, DType::kFloat32));
  std::vector<int64_t> expected;
  for (int k = 0; k < 4; ++k) {
    for (int n = 0; n < 2; ++n) {
      for (int y = 0; y < 2; ++y) {
        for (int x = 0; x < 3; ++x) {
          const int row = y * 2 + k / 2 - 1;
          const int column = x * 2 + k % 2;
          const bool inside = row >= 0 && row < 3 && column < 5;
          expected.push_back(inside ? (n * 3 + row) * 5 + column : -1);
        }
      }
    }
  }
  EXPECT_EQ(remap_sources(call), expected);
  EXPECT_EQ(param_arrays(call).at("fill"), (std::vector<int64_t>{0, 0, 0, 0}));
}

TEST(BatchToSpaceNdHandler, UndoesSpaceToBatchAndCropsThePadding) {
  // SPACE_TO_BATCH [2,3,5,2] padded [1,0] x [2,1] by block [2,4]; BATCH_TO_SPACE with the paddings as crops
  // must give every input element back in place.
  const std::vector<int64_t> to_batch = remap_sources(lower_for_test(
      batch_graph(OpKind::SpaceToBatchNd, {2, 3, 5, 2}, {2, 4}, {1, 0, 2, 1}, {16, 2, 2, 2})));
  const std::vector<int64_t> to_space = remap_sources(lower_for_test(
      batch_graph(OpKind::BatchToSpaceNd, {16, 2, 2, 2}, {2, 4}, {1, 0, 2, 1}, {2, 3, 5, 2})));
  ASSERT_EQ(to_space.size(), size_t{2 * 3 * 5 * 2});
  for (size_t i = 0; i < to_space.size(); ++i) EXPECT_EQ(to_batch[static_cast<size_t>(to_space[i])], int64_t(i));
}

TEST(BatchToSpaceNdHandler, RankThreeInterleavesBatches) {
  // [2,2,1]: batches p q of rows (p0 p1), (q0 q1) -> [1,4,1] = p0 q0 p1 q1.
  EXPECT_EQ(remap_sources(lower_for_test(batch_graph(OpKind::BatchToSpaceNd, {2, 2, 1}, {2}, {0, 0}, {1, 4, 1}))),
            (std::vector<int64_t>{0, 2, 1, 3}));
}

TEST(BatchSpaceHandlers, RefuseWhatTflmRefuses) {
  EXPECT_NE(check_error(batch_graph(OpKind::SpaceToBatchNd, {1, 2, 2, 1}, {0, 2}, {0, 0, 0, 0}, {0, 2, 1, 1}))
                .find("below 1"),
            std::string::npos);
  EXPECT_NE(check_error(batch_graph(OpKind::BatchToSpaceNd, {4, 1, 1, 1}, {2, 2}, {0, -1, 0, 0}, {1, 2, 2, 1}))
                .find("below 0"),
            std::string::npos);
  EXPECT_NE(check_error(batch_graph(OpKind::SpaceToBatchNd, {1, 3, 2, 1}, {2, 2}, {0, 0, 0, 0}, {4, 1, 1, 1}))
                .find("padded and rearranged"),
            std::string::npos);
  EXPECT_NE(check_error(batch_graph(OpKind::BatchToSpaceNd, {4, 1, 1, 1}, {2}, {0, 0}, {1, 2, 2, 1}))
                .find("one value per spatial dimension"),
            std::string::npos);
  EXPECT_NE(check_error(batch_graph(OpKind::BatchToSpaceNd, {4, 1, 1, 1, 1}, {2, 2, 1}, {0, 0, 0, 0, 0, 0},
                                    {1, 2, 2, 1, 1}))
                .find("rank is not 3 or 4"),
            std::string::npos);
  Graph runtime_crops = batch_graph(OpKind::BatchToSpaceNd, {4, 1, 1, 1}, {2, 2}, {0, 0, 0, 0}, {1, 2, 2, 1});
  runtime_crops.tensors[2].is_constant = false;
  EXPECT_NE(check_error(runtime_crops).find("crops"), std::string::npos);
  EXPECT_NE(check_error(batch_graph(OpKind::BatchToSpaceNd, {4, 1, 1, 1}, {2, 2}, {0, 0, 0, 0}, {1, 2, 2, 1},
                                    DType::kInt16))
                .find("output 0"),
            std::string::npos);
}

}  // namespace
}  // namespace microaot
