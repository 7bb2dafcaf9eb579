// Tests of the RESIZE_NEAREST_NEIGHBOR and RESIZE_BILINEAR handlers: the source rows/columns and weights
// worked out by hand from TFLM's formulas (floor, round, half-pixel centres, 10-bit fixed point with its
// negative first weight), bytes per pixel, and every refusal.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ops/binary_test_util.h"
#include "ops/lowering_test_util.h"

namespace microaot {
namespace {

using Ints = std::vector<int64_t>;

Tensor image(const std::string& name, DType type, std::vector<int32_t> shape) {
  Tensor t;
  t.name = name;
  t.dtype = type;
  t.shape = std::move(shape);
  if (type == DType::kInt8) t.quant = {{0.5f}, {-3}, 0};
  return t;
}

// Input [1,h,w,3] of `type`, constant size [out_h, out_w], output [1,out_h,out_w,3].
Graph resize_graph(OpKind kind, DType type, int h, int w, int out_h, int out_w, ResizeOptions options = {}) {
  Graph g;
  Tensor size = image("size", DType::kInt32, {2});
  size.is_constant = true;
  for (int32_t v : {out_h, out_w}) {
    for (int b = 0; b < 4; ++b) size.data.push_back(static_cast<uint8_t>(static_cast<uint32_t>(v) >> (8 * b)));
  }
  g.tensors = {image("in", type, {1, h, w, 3}), size, image("out", type, {1, out_h, out_w, 3})};
  g.ops.push_back(Op{kind, 0, 1, {0, 1}, {2}, options});
  return g;
}

Graph nearest(DType type, int h, int w, int out_h, int out_w, ResizeOptions o = {}) {
  return resize_graph(OpKind::ResizeNearestNeighbor, type, h, w, out_h, out_w, o);
}
Graph bilinear(DType type, int h, int w, int out_h, int out_w, ResizeOptions o = {}) {
  return resize_graph(OpKind::ResizeBilinear, type, h, w, out_h, out_w, o);
}

TEST(ResizeNearestNeighborHandler, UpscalingRepeatsEachRowAndColumn) {
  const KernelCall call = lower_for_test(nearest(DType::kInt16, 4, 2, 8, 3));
  EXPECT_EQ(call.info().function(), "microaot_resize_nearest_neighbor");
  EXPECT_EQ(param_text(call).at("pixel_bytes"), "6");  // 3 channels x 2 bytes
  EXPECT_EQ(param_arrays(call).at("source_rows"), (Ints{0, 0, 1, 1, 2, 2, 3, 3}));
  EXPECT_EQ(param_arrays(call).at("source_cols"), (Ints{0, 0, 1}));  // floor(x * 2/3)
  EXPECT_EQ(call.args, (std::vector<int>{0, 2}));                     // the size is folded away
}

TEST(ResizeNearestNeighborHandler, HalfPixelCentersAndAlignCorners) {
  // floor((y + 0.5) * 5/7) for y = 0..6.
  const KernelCall half = lower_for_test(nearest(DType::kFloat32, 5, 3, 7, 4, {false, true, {}, {}}));
  EXPECT_EQ(param_arrays(half).at("source_rows"), (Ints{0, 1, 1, 2, 3, 3, 4}));
  // round(y * 2/4), halves away from zero: 0, 0.5, 1, 1.5, 2.
  const KernelCall corners = lower_for_test(nearest(DType::kInt8, 3, 3, 5, 5, {true, false, {}, {}}));
  EXPECT_EQ(param_arrays(corners).at("source_rows"), (Ints{0, 1, 1, 2, 2}));
  EXPECT_EQ(param_text(corners).at("pixel_bytes"), "3");
}

TEST(ResizeBilinearHandler, Int8WeightsInTenBitFixedPoint) {
  // scale = (4096 + 4) / 8 = 512: position y * 512.
  const KernelCall call = lower_for_test(bilinear(DType::kInt8, 4, 4, 8, 8));
  EXPECT_EQ(call.info().function(), "microaot_resize_bilinear_s8");
  EXPECT_EQ(param_arrays(call).at("rows_lo"), (Ints{0, 0, 1, 1, 2, 2, 3, 3}));
  EXPECT_EQ(param_arrays(call).at("rows_hi"), (Ints{0, 1, 1, 2, 2, 3, 3, 3}));
  EXPECT_EQ(param_arrays(call).at("row_weights"), (Ints{0, 512, 0, 512, 0, 512, 0, 512}));
  EXPECT_EQ(param_text(call).at("depth"), "3");
}

TEST(ResizeBilinearHandler, Int8HalfPixelStartsWithANegativeWeightOnOnePixel) {
  // scale = (5120 + 3) / 7 = 731; position y * 731 + 365 - 512: -147, 584, 1315.
  const KernelCall call = lower_for_test(bilinear(DType::kInt8, 5, 3, 7, 4, {false, true, {}, {}}));
  const Ints lo = param_arrays(call).at("rows_lo"), hi = param_arrays(call).at("rows_hi");
  const Ints w = param_arrays(call).at("row_weights");
  EXPECT_EQ((Ints{lo[0], hi[0], w[0]}), (Ints{0, 0, -147}));
  EXPECT_EQ((Ints{lo[1], hi[1], w[1]}), (Ints{0, 1, 584}));
  EXPECT_EQ((Ints{lo[2], hi[2], w[2]}), (Ints{1, 2, 291}));
}

TEST(ResizeBilinearHandler, FloatWeightsAreFractions) {
  KernelCall call = lower_for_test(bilinear(DType::kFloat32, 2, 2, 4, 3, {true, false, {}, {}}));
  EXPECT_EQ(call.info().function(), "microaot_resize_bilinear_f32");
  // align_corners: rows at y * 1/3 -> 0, 1/3, 2/3, 1; columns at x * 1/2 -> 0, 1/2, 1.
  EXPECT_EQ(param_arrays(call).at("rows_lo"), (Ints{0, 0, 0, 1}));
  EXPECT_EQ(param_arrays(call).at("rows_hi"), (Ints{0, 1, 1, 1}));
  EXPECT_EQ(param_arrays(call).at("cols_hi"), (Ints{0, 1, 1}));
  const std::vector<float>& cols = call.params.find("col_weights")->reals;
  EXPECT_EQ(cols, (std::vector<float>{0.0f, 0.5f, 0.0f}));
  const std::vector<float>& rows = call.params.find("row_weights")->reals;
  EXPECT_NEAR(rows[1], 1.0 / 3, 1e-7);
  EXPECT_NEAR(rows[2], 2.0 / 3, 1e-7);
}

TEST(ResizeHandlers, RefuseWhatTflmRefuses) {
  EXPECT_NE(check_error(bilinear(DType::kInt8, 2, 2, 4, 4, {true, true, {}, {}})).find("cannot both be set"),
            std::string::npos);
  EXPECT_NE(check_error(bilinear(DType::kInt16, 2, 2, 4, 4)).find("'in'"), std::string::npos);
  EXPECT_EQ(check_error(nearest(DType::kInt16, 2, 2, 4, 4, {true, true, {}, {}})), "");  // nearest takes both
  Graph variable_size = nearest(DType::kInt8, 2, 2, 4, 4);
  variable_size.tensors[1].is_constant = false;
  variable_size.tensors[1].data.clear();
  EXPECT_NE(check_error(variable_size).find("input 1 'size'"), std::string::npos);
  Graph wrong_shape = nearest(DType::kFloat32, 2, 2, 4, 4);
  wrong_shape.tensors[2].shape = {1, 4, 5, 3};
  EXPECT_NE(check_error(wrong_shape).find("requested size"), std::string::npos);
  Graph three_values = nearest(DType::kFloat32, 2, 2, 4, 4);
  three_values.tensors[1].shape = {3};
  EXPECT_NE(check_error(three_values).find("2 values"), std::string::npos);
  Graph mixed = nearest(DType::kInt8, 2, 2, 4, 4);
  mixed.tensors[2].dtype = DType::kInt16;
  EXPECT_NE(check_error(mixed).find("type other than the input's"), std::string::npos);
}

}  // namespace
}  // namespace microaot
