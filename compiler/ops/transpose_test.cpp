// Tests of the TRANSPOSE handler: each output dimension walks the permuted input dimension's byte stride;
// refusals of bad permutations and ranks TFLM refuses.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ops/binary_test_util.h"
#include "ops/remap_test_util.h"

namespace microaot {
namespace {

Graph transpose_graph(DType type, std::vector<int32_t> in_shape, const std::vector<int32_t>& perm,
                      std::vector<int32_t> out_shape) {
  Graph g;
  const int in = add_tensor(g, type, std::move(in_shape));
  const int p = add_int32_vector(g, perm);
  const int out = add_tensor(g, type, std::move(out_shape));
  g.ops.push_back(Op{OpKind::Transpose, 0, 1, {in, p}, {out}, NoOptions{}});
  return g;
}

TEST(TransposeHandler, OutputDimensionsWalkThePermutedInputStrides) {
  // [2,3,4] int16, strides 24, 8, 2 bytes; perm (2,0,1) -> [4,2,3].
  const KernelCall call = lower_for_test(transpose_graph(DType::kInt16, {2, 3, 4}, {2, 0, 1}, {4, 2, 3}));
  EXPECT_EQ(remap_tables(call), (std::vector<std::vector<int64_t>>{{0, 2, 4, 6}, {0, 24}, {0, 8, 16}}));
  EXPECT_EQ(param_text(call).at("element_bytes"), "2");
  EXPECT_EQ(call.args, (std::vector<int>{0, 2}));
}

TEST(TransposeHandler, RefusesWhatTflmRefuses) {
  EXPECT_NE(check_error(transpose_graph(DType::kInt8, {2, 3}, {0, 0}, {2, 2})).find("not a permutation"),
            std::string::npos);
  EXPECT_NE(check_error(transpose_graph(DType::kInt8, {2, 3}, {1, 0}, {2, 3})).find("dimension 0"),
            std::string::npos);
  EXPECT_NE(check_error(transpose_graph(DType::kInt8, {1, 1, 1, 1, 1, 1}, {0, 1, 2, 3, 4, 5}, {1, 1, 1, 1, 1, 1}))
                .find("rank above 5"),
            std::string::npos);
  EXPECT_NE(check_error(transpose_graph(DType::kInt32, {2}, {0}, {2})).find("output 0"), std::string::npos);
}

// A hostile shape must not make the compiler build gigabytes of tables: 2^20 entries at most (sum of dims).
TEST(TransposeHandler, RefusesOffsetTablesAboveTheLimit) {
  const int32_t big = 1 << 20;
  EXPECT_NE(check_error(transpose_graph(DType::kInt8, {2, big}, {1, 0}, {big, 2}))
                .find("has dimensions summing to 1048578; the remap kernel's offset tables take at most 1048576"),
            std::string::npos)
      << check_error(transpose_graph(DType::kInt8, {2, big}, {1, 0}, {big, 2}));
  EXPECT_EQ(check_error(transpose_graph(DType::kInt8, {2, big - 2}, {1, 0}, {big - 2, 2})), "");
}

}  // namespace
}  // namespace microaot
