// Tests of the SLICE and STRIDED_SLICE handlers: begin / size (with -1), negative indices and strides,
// begin / end / shrink masks as TensorFlow clamps them, and the refusals.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ops/binary_test_util.h"
#include "ops/remap_test_util.h"

namespace microaot {
namespace {

Graph slice_graph(std::vector<int32_t> in_shape, const std::vector<int32_t>& begin, const std::vector<int32_t>& size,
                  std::vector<int32_t> out_shape) {
  Graph g;
  const int in = add_tensor(g, DType::kInt8, std::move(in_shape));
  const int b = add_int32_vector(g, begin);
  const int s = add_int32_vector(g, size);
  const int out = add_tensor(g, DType::kInt8, std::move(out_shape));
  g.ops.push_back(Op{OpKind::Slice, 0, 1, {in, b, s}, {out}, NoOptions{}});
  return g;
}

Graph strided_graph(std::vector<int32_t> in_shape, const std::vector<std::vector<int32_t>>& begin_end_strides,
                    std::vector<int32_t> out_shape, StridedSliceOptions options = {}) {
  Graph g;
  const int in = add_tensor(g, DType::kFloat32, std::move(in_shape));
  std::vector<int> inputs = {in};
  for (const auto& v : begin_end_strides) inputs.push_back(add_int32_vector(g, v));
  const int out = add_tensor(g, DType::kFloat32, std::move(out_shape));
  g.ops.push_back(Op{OpKind::StridedSlice, 0, 1, inputs, {out}, options});
  return g;
}

using Tables = std::vector<std::vector<int64_t>>;

TEST(SliceHandler, BeginAndSizeWithMinusOneToTheEnd) {
  // [3,4] int8, strides 4, 1: rows 1..2, columns 1..3.
  const KernelCall call = lower_for_test(slice_graph({3, 4}, {1, 1}, {2, -1}, {2, 3}));
  EXPECT_EQ(remap_tables(call), (Tables{{4, 8}, {1, 2, 3}}));
}

TEST(SliceHandler, RefusesASliceOutsideTheInput) {
  EXPECT_NE(check_error(slice_graph({3, 4}, {2, 0}, {2, 4}, {2, 4})).find("leaves input dimension 0"),
            std::string::npos);
  EXPECT_NE(check_error(slice_graph({3, 4}, {0, 0}, {2, 4}, {2, 3})).find("not the slice's"), std::string::npos);
}

TEST(StridedSliceHandler, NegativeIndicesAndStrides) {
  // [6] float: begin -1, end 0, stride -2 -> coordinates 5, 3, 1 (bytes 20, 12, 4).
  EXPECT_EQ(remap_tables(lower_for_test(strided_graph({6}, {{-1}, {0}, {-2}}, {3}))), (Tables{{20, 12, 4}}));
  // begin 1, end 100 (clamped to 6), stride 2 -> 1, 3, 5.
  EXPECT_EQ(remap_tables(lower_for_test(strided_graph({6}, {{1}, {100}, {2}}, {3}))), (Tables{{4, 12, 20}}));
}

TEST(StridedSliceHandler, MasksTakeTheWholeRangeAndShrinkDropsTheDimension) {
  // [2,3]: dim 0 shrunk at index -1 (row 1), dim 1 begin-masked with a negative stride: 2, 1, 0.
  const StridedSliceOptions options{/*begin_mask=*/2, /*end_mask=*/2, /*shrink_axis_mask=*/1};
  const KernelCall call = lower_for_test(strided_graph({2, 3}, {{-1, 0}, {0, 0}, {1, -1}}, {3}, options));
  EXPECT_EQ(remap_tables(call), (Tables{{12}, {8, 4, 0}}));
}

TEST(StridedSliceHandler, RefusesWhatTflmRefuses) {
  EXPECT_NE(check_error(strided_graph({6}, {{0}, {6}, {0}}, {0})).find("stride 0 is 0"), std::string::npos);
  EXPECT_NE(check_error(strided_graph({1, 1, 1, 1, 2}, {{0, 0, 0, 0, 0}, {1, 1, 1, 1, 2}, {1, 1, 1, 1, 1}},
                                      {1, 1, 1, 1, 2}))
                .find("rank above 4"),
            std::string::npos);
  Graph runtime_end = strided_graph({6}, {{0}, {6}, {1}}, {6});
  runtime_end.tensors[2].is_constant = false;
  EXPECT_NE(check_error(runtime_end).find("end"), std::string::npos);
}

}  // namespace
}  // namespace microaot
