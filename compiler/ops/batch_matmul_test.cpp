// BATCH_MATMUL handler: adj_x / adj_y as element strides, broadcast batch dimensions merged and scaled to
// matrices, TFLite's multiplier of float(lhs_scale * rhs_scale) / output_scale (expected value from Python),
// and the refusals TFLM makes (depths, ranks, int16 zero points, batch dimensions).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ops/reduce_test_util.h"

namespace microaot {
namespace {

Graph bmm_graph(DType type, const TensorSpec& lhs, const TensorSpec& rhs, const TensorSpec& out, bool adj_x,
                bool adj_y) {
  Graph g;
  g.tensors = {spec_tensor("x", type, lhs), spec_tensor("y", type, rhs), spec_tensor("out", type, out)};
  g.ops.push_back(Op{OpKind::BatchMatmul, 0, 1, {0, 1}, {2}, {}});
  read_table_options(g, tflite::BuiltinOptions::BatchMatMulOptions,
                     [&](auto& fbb) { return tflite::CreateBatchMatMulOptions(fbb, adj_x, adj_y).Union(); });
  return g;
}

TEST(BatchMatmulHandler, Int8AdjYStridesAndMultiplier) {
  // lhs [2, 3, 4] x rhs [2, 5, 4] read transposed: rows 3, cols 5, depth 4; float(0.02f * 0.03f) / 0.05f.
  const KernelCall call = lower_for_test(bmm_graph(DType::kInt8, {{2, 3, 4}, 0.02f, 7}, {{2, 5, 4}, 0.03f, -3},
                                                   {{2, 3, 5}, 0.05f, 2}, false, true));
  EXPECT_EQ(call.info().function(), "microaot_batch_matmul_s8");
  EXPECT_EQ(call.args, (std::vector<int>{0, 1, 2}));
  const auto f = param_text(call);
  EXPECT_EQ(f.at("rows"), "3");
  EXPECT_EQ(f.at("cols"), "5");
  EXPECT_EQ(f.at("depth"), "4");
  EXPECT_EQ(f.at("lhs_row_stride"), "4");
  EXPECT_EQ(f.at("lhs_depth_stride"), "1");
  EXPECT_EQ(f.at("rhs_depth_stride"), "1");
  EXPECT_EQ(f.at("rhs_col_stride"), "4");
  EXPECT_EQ(f.at("lhs_offset"), "-7");
  EXPECT_EQ(f.at("rhs_offset"), "3");
  EXPECT_EQ(f.at("output_multiplier"), "1649267335");
  EXPECT_EQ(f.at("output_shift"), "-6");
  EXPECT_EQ(f.at("output_offset"), "2");
  const auto a = param_arrays(call);
  EXPECT_EQ(a.at("batch_shape"), (std::vector<int64_t>{2}));
  EXPECT_EQ(a.at("lhs_batch_strides"), (std::vector<int64_t>{12}));
  EXPECT_EQ(a.at("rhs_batch_strides"), (std::vector<int64_t>{20}));
}

TEST(BatchMatmulHandler, FloatAdjXAndBroadcastBatches) {
  // lhs [3, 1, 4, 2] read transposed (rows 2, depth 4) x rhs [5, 4, 6] (rank 3, aligned right): out [3, 5, 2, 6].
  const KernelCall call =
      lower_for_test(bmm_graph(DType::kFloat32, {{3, 1, 4, 2}}, {{5, 4, 6}}, {{3, 5, 2, 6}}, true, false));
  EXPECT_EQ(call.info().function(), "microaot_batch_matmul_f32");
  const auto f = param_text(call);
  EXPECT_EQ(f.at("rows"), "2");
  EXPECT_EQ(f.at("depth"), "4");
  EXPECT_EQ(f.at("cols"), "6");
  EXPECT_EQ(f.at("lhs_row_stride"), "1");
  EXPECT_EQ(f.at("lhs_depth_stride"), "2");
  EXPECT_EQ(f.at("rhs_depth_stride"), "6");
  EXPECT_EQ(f.at("rhs_col_stride"), "1");
  const auto a = param_arrays(call);
  EXPECT_EQ(a.at("batch_shape"), (std::vector<int64_t>{3, 5}));
  EXPECT_EQ(a.at("lhs_batch_strides"), (std::vector<int64_t>{8, 0}));
  EXPECT_EQ(a.at("rhs_batch_strides"), (std::vector<int64_t>{0, 24}));
}

// On a DSP target an int8 layer takes the DSP kernel with the scratch microaot/fit/batch_matmul.h sizes; without the
// extension, below 32 MACs per matrix, or with a right shift beyond the DSP output step's 21, the portable kernel,
// and network_info.txt's line says why.
TEST(BatchMatmulHandler, DspTargetsTakeTheDotKernel) {
  const Target m4 = parse_target("cortex-m4");
  // rows 3, cols 5, depth 7 (two groups of four): 3 column pairs of 2 x 16 bytes, then one row pair's 32.
  const auto int8_layer = [] {
    return bmm_graph(DType::kInt8, {{2, 7, 3}, 0.02f, 7}, {{2, 5, 7}, 0.03f, -3}, {{2, 3, 5}, 0.05f, 2}, true, true);
  };
  Graph g = int8_layer();
  KernelCall call = lower_in_place_for_test(g, m4);
  EXPECT_EQ(call.info().function(), "microaot_batch_matmul_s8_dot");
  EXPECT_EQ(call.scratch_bytes, 3 * 32 + 32);
  EXPECT_NE(call.specialisation.find("two rows by two columns"), std::string::npos) << call.specialisation;
  EXPECT_EQ(param_text(call).at("lhs_depth_stride"), "3");

  Graph plain = int8_layer();
  call = lower_in_place_for_test(plain, parse_target("cortex-m4+nodsp"));
  EXPECT_EQ(call.info().function(), "microaot_batch_matmul_s8");
  EXPECT_EQ(call.scratch_bytes, 0);

  Graph small = bmm_graph(DType::kInt8, {{1, 3, 5}, 0.02f, 7}, {{1, 5, 2}, 0.03f, -3}, {{1, 3, 2}, 0.05f, 2}, false,
                          false);  // 30 MACs
  call = lower_in_place_for_test(small, m4);
  EXPECT_EQ(call.info().function(), "microaot_batch_matmul_s8");
  EXPECT_NE(call.specialisation.find("30 MACs per matrix, below the 32"), std::string::npos) << call.specialisation;

  // 0.02 x 0.03 / 4000: a multiplier of 2^-22.7, a right shift of 22.
  Graph coarse = bmm_graph(DType::kInt8, {{2, 7, 3}, 0.02f, 7}, {{2, 5, 7}, 0.03f, -3}, {{2, 3, 5}, 4000.0f, 2}, true,
                           true);
  call = lower_in_place_for_test(coarse, m4);
  EXPECT_EQ(call.info().function(), "microaot_batch_matmul_s8");
  EXPECT_NE(call.specialisation.find("more than 2^21 times"), std::string::npos) << call.specialisation;

  Graph f32 = bmm_graph(DType::kFloat32, {{2, 7, 3}}, {{2, 5, 7}}, {{2, 3, 5}}, true, true);
  EXPECT_EQ(lower_in_place_for_test(f32, m4).info().function(), "microaot_batch_matmul_f32");
}

TEST(BatchMatmulHandler, Refusals) {
  EXPECT_TRUE(refuses(bmm_graph(DType::kFloat32, {{3, 4}}, {{5, 6}}, {{3, 6}}, false, false),
                      "the inputs' depths differ (4 and 5)"));
  EXPECT_TRUE(refuses(bmm_graph(DType::kFloat32, {{2, 3, 4}}, {{3, 4, 6}}, {{2, 3, 6}}, false, false),
                      "cannot be broadcast"));
  EXPECT_TRUE(refuses(bmm_graph(DType::kFloat32, {{1, 1, 1, 1, 3, 4}}, {{4, 6}}, {{1, 1, 1, 1, 3, 6}}, false, false),
                      "rank 6 is not supported (2 to 5"));
  EXPECT_TRUE(refuses(bmm_graph(DType::kInt16, {{3, 4}, 0.01f, 2}, {{4, 6}, 0.01f, 0}, {{3, 6}, 0.01f, 0}, false,
                                false),
                      "zero point 2: int16 tensors must be symmetric"));
  EXPECT_TRUE(refuses(bmm_graph(DType::kFloat32, {{3, 4}}, {{4, 6}}, {{3, 5}}, false, false),
                      "has 15 elements, the product has 18"));
}

}  // namespace
}  // namespace microaot
