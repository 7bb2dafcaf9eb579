// Tests of the FILL and ZEROS_LIKE handlers: FILL reads its value tensor (constant or not) at offset 0 for every
// element, ZEROS_LIKE writes raw zero bytes (not the int8 zero point, as TFLM); the refusals.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ops/binary_test_util.h"
#include "ops/remap_test_util.h"

namespace microaot {
namespace {

Graph fill_graph(DType type, const std::vector<int32_t>& dims, std::vector<int32_t> out_shape,
                 std::vector<int32_t> value_shape = {}) {
  Graph g;
  const int d = add_int32_vector(g, dims);
  const int value = add_tensor(g, type, std::move(value_shape));
  const int out = add_tensor(g, type, std::move(out_shape));
  g.ops.push_back(Op{OpKind::Fill, 0, 1, {d, value}, {out}, NoOptions{}});
  return g;
}

TEST(FillHandler, EveryElementReadsTheRuntimeValue) {
  const KernelCall call = lower_for_test(fill_graph(DType::kInt32, {4, 1, 5}, {4, 1, 5}));
  EXPECT_EQ(call.args, (std::vector<int>{1, 2}));  // from the value tensor, not the dims
  EXPECT_EQ(remap_sources(call), std::vector<int64_t>(20, 0));
  EXPECT_EQ(param_text(call).at("element_bytes"), "4");
}

TEST(FillHandler, ScalarOutputIsOneElement) {
  const KernelCall call = lower_for_test(fill_graph(DType::kFloat32, {}, {}));
  EXPECT_EQ(remap_sources(call), (std::vector<int64_t>{0}));
}

TEST(FillHandler, RefusesWhatTflmRefuses) {
  EXPECT_NE(check_error(fill_graph(DType::kInt8, {2, 3}, {3, 2})).find("not the output's shape"), std::string::npos);
  EXPECT_NE(check_error(fill_graph(DType::kInt8, {2}, {2}, {1})).find("value"), std::string::npos);
  EXPECT_NE(check_error(fill_graph(DType::kInt16, {2}, {2})).find("output 0"), std::string::npos);
  Graph runtime_dims = fill_graph(DType::kFloat32, {2}, {2});
  runtime_dims.tensors[0].is_constant = false;
  EXPECT_NE(check_error(runtime_dims).find("dims"), std::string::npos);
}

Graph zeros_like_graph(DType type, std::vector<int32_t> shape) {
  Graph g;
  const int in = add_tensor(g, type, shape);
  const int out = add_tensor(g, type, shape);
  g.ops.push_back(Op{OpKind::ZerosLike, 0, 1, {in}, {out}, NoOptions{}});
  return g;
}

TEST(ZerosLikeHandler, EveryElementIsRawZeroEvenForInt8) {
  const KernelCall call = lower_for_test(zeros_like_graph(DType::kInt8, {2, 3}));  // zero point -3
  EXPECT_EQ(remap_sources(call), std::vector<int64_t>(6, -1));
  EXPECT_EQ(param_arrays(call).at("fill"), (std::vector<int64_t>{0}));
  EXPECT_EQ(remap_sources(lower_for_test(zeros_like_graph(DType::kInt64, {}))), (std::vector<int64_t>{-1}));
}

TEST(ZerosLikeHandler, RefusesInt16AsTflm) {
  EXPECT_NE(check_error(zeros_like_graph(DType::kInt16, {2})).find("output 0"), std::string::npos);
}

}  // namespace
}  // namespace microaot
