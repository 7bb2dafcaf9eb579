// MEAN, SUM, REDUCE_MAX, REDUCE_MIN, ARG_MAX and ARG_MIN handlers: the kept and reduced walks (size-1
// dimensions dropped, contiguous neighbours merged, negative and repeated axes), TFLM's integer MEAN
// multiplier with 1 / n folded in (expected values from Python: frexp, the Q31 mantissa rounded half up, then
// (m << s) / n), the float divisor, and the refusals.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ops/reduce_test_util.h"

namespace microaot {
namespace {

Graph reduce_graph(OpKind kind, DType type, const TensorSpec& in, const std::vector<int32_t>& axes,
                   const TensorSpec& out) {
  return axis_graph(kind, type, in, axes, type, out);
}

TEST(ReduceHandler, Int8MeanOverHeightAndWidthFoldsTheDivisor) {
  // 0.5 / 0.25 = 2 = 2^30 * 2^(2 - 31); n = 64: s = 6, (2^30 << 6) / 64 = 2^30, shift 2 - 6.
  Graph g = reduce_graph(OpKind::Mean, DType::kInt8, {{1, 8, 8, 4}, 0.5f, -3}, {1, 2}, {{1, 1, 1, 4}, 0.25f, 5});
  read_table_options(g, tflite::BuiltinOptions::ReducerOptions,
                     [](auto& fbb) { return tflite::CreateReducerOptions(fbb, true).Union(); });
  const KernelCall call = lower_for_test(g);
  EXPECT_EQ(call.info().function(), "microaot_reduce_sum_s8");
  EXPECT_EQ(call.args, (std::vector<int>{0, 2}));
  const auto f = param_text(call);
  EXPECT_EQ(f.at("output_multiplier"), "1073741824");
  EXPECT_EQ(f.at("output_shift"), "-4");
  EXPECT_EQ(f.at("sum_offset"), "192");  // -zero point * 64
  EXPECT_EQ(f.at("output_offset"), "5");
  const auto a = param_arrays(call);
  EXPECT_EQ(a.at("kept_shape"), (std::vector<int64_t>{4}));
  EXPECT_EQ(a.at("kept_strides"), (std::vector<int64_t>{1}));
  EXPECT_EQ(a.at("reduced_shape"), (std::vector<int64_t>{64}));  // H and W merged: stride 32 = 8 * 4
  EXPECT_EQ(a.at("reduced_strides"), (std::vector<int64_t>{4}));
}

TEST(ReduceHandler, Int16MeanAndSumMultipliers) {
  // 0.001f / 0.0007f -> 1533917019 * 2^(1 - 31); MEAN over 6: s = 2, (m << 2) / 6 = 1022611346, shift -1.
  const Graph mean = reduce_graph(OpKind::Mean, DType::kInt16, {{2, 5, 6}, 0.001f, 0}, {-1}, {{2, 5}, 0.0007f, 0});
  const auto m = param_text(lower_for_test(mean));
  EXPECT_EQ(m.at("output_multiplier"), "1022611346");
  EXPECT_EQ(m.at("output_shift"), "-1");
  const Graph sum = reduce_graph(OpKind::Sum, DType::kInt16, {{2, 5, 6}, 0.001f, 0}, {-1}, {{2, 5}, 0.0007f, 0});
  const KernelCall call = lower_for_test(sum);
  EXPECT_EQ(call.info().function(), "microaot_reduce_sum_s16");
  EXPECT_EQ(param_text(call).at("output_multiplier"), "1533917019");
  EXPECT_EQ(param_text(call).at("output_shift"), "1");
}

TEST(ReduceHandler, MeanFoldKeepsTheShiftWithinThirtyOne) {
  // 1e-9f -> 1152921472 * 2^(-29 - 31); n = 1024 wants s = 10, capped at 31 - 29 = 2: 4503599, shift -31.
  const Graph g = reduce_graph(OpKind::Mean, DType::kInt8, {{1024}, 1e-9f, 0}, {0}, {{1}, 1.0f, 0});
  const auto f = param_text(lower_for_test(g));
  EXPECT_EQ(f.at("output_multiplier"), "4503599");
  EXPECT_EQ(f.at("output_shift"), "-31");
}

TEST(ReduceHandler, FloatRepeatedAndNegativeAxesAndTheDivisor) {
  // Axes 0, -3 (the same) and 2 of [2, 5, 6]: reduced [2, 6] strides [30, 1], kept [5] stride [6], n = 12.
  const Graph mean = reduce_graph(OpKind::Mean, DType::kFloat32, {{2, 5, 6}}, {0, -3, 2}, {{5}});
  const KernelCall call = lower_for_test(mean);
  EXPECT_EQ(call.info().function(), "microaot_reduce_sum_f32");
  EXPECT_EQ(param_text(call).at("divisor"), "0x1.8p+3f");
  const auto a = param_arrays(call);
  EXPECT_EQ(a.at("reduced_shape"), (std::vector<int64_t>{2, 6}));
  EXPECT_EQ(a.at("reduced_strides"), (std::vector<int64_t>{30, 1}));
  EXPECT_EQ(a.at("kept_shape"), (std::vector<int64_t>{5}));
  EXPECT_EQ(a.at("kept_strides"), (std::vector<int64_t>{6}));
  const Graph sum = reduce_graph(OpKind::Sum, DType::kFloat32, {{2, 5, 6}}, {0, 2}, {{5}});
  EXPECT_EQ(param_text(lower_for_test(sum)).at("divisor"), "0x1p+0f");
  const Graph max = reduce_graph(OpKind::ReduceMax, DType::kFloat32, {{2, 5, 6}}, {1}, {{2, 6}});
  EXPECT_EQ(lower_for_test(max).info().function(), "microaot_reduce_max_f32");
  const Graph all = reduce_graph(OpKind::ReduceMin, DType::kFloat32, {{2, 5, 6}}, {0, 1, 2}, {{1}});
  const auto walks = param_arrays(lower_for_test(all));
  EXPECT_EQ(walks.at("reduced_shape"), (std::vector<int64_t>{60}));
  EXPECT_EQ(walks.at("kept_shape"), (std::vector<int64_t>{1}));
}

TEST(ReduceHandler, Refusals) {
  EXPECT_TRUE(refuses(reduce_graph(OpKind::Mean, DType::kFloat32, {{2, 5}}, {2}, {{2}}),
                      "axis 2 is out of range for an input of rank 2"));
  EXPECT_TRUE(refuses(reduce_graph(OpKind::Sum, DType::kFloat32, {{2, 5}}, {1}, {{5}}),
                      "output 0 'out' (tensor 2): has 5 elements, the reduction makes 2"));
  EXPECT_TRUE(refuses(reduce_graph(OpKind::ReduceMax, DType::kInt8, {{2, 5}, 0.5f, 1}, {1}, {{2}, 0.5f, 2}),
                      "must have the input's scale and zero point"));
  EXPECT_TRUE(refuses(reduce_graph(OpKind::ReduceMin, DType::kInt16, {{2, 5}, 0.5f, 0}, {1}, {{2}, 0.5f, 0}),
                      "type int16 is not supported"));
  EXPECT_TRUE(refuses(reduce_graph(OpKind::Mean, DType::kInt32, {{2, 5}}, {1}, {{2}}), "type int32 is not supported"));
  Graph computed_axis = reduce_graph(OpKind::Mean, DType::kFloat32, {{2, 5}}, {1}, {{2}});
  computed_axis.tensor(1).is_constant = false;
  EXPECT_TRUE(refuses(computed_axis, "the axis must be a constant"));
  Graph versioned = reduce_graph(OpKind::Sum, DType::kFloat32, {{2, 5}}, {1}, {{2}});
  versioned.ops[0].version = 9;
  EXPECT_TRUE(refuses(versioned, "version 9 is not supported"));
}

TEST(ArgMinMaxHandler, TheFirstAxisIsTheReducedWalk) {
  // [2, 5, 6] along axis 1 (a second axis value is ignored, as in TFLM): kept [2, 6] strides [30, 1].
  const Graph g = axis_graph(OpKind::ArgMax, DType::kInt8, {{2, 5, 6}, 0.5f, 3}, {1, 0}, DType::kInt32, {{2, 6}});
  const KernelCall call = lower_for_test(g);
  EXPECT_EQ(call.info().function(), "microaot_arg_max_s8_s32");
  const auto a = param_arrays(call);
  EXPECT_EQ(a.at("kept_shape"), (std::vector<int64_t>{2, 6}));
  EXPECT_EQ(a.at("kept_strides"), (std::vector<int64_t>{30, 1}));
  EXPECT_EQ(a.at("reduced_shape"), (std::vector<int64_t>{5}));
  EXPECT_EQ(a.at("reduced_strides"), (std::vector<int64_t>{6}));
  const Graph min = axis_graph(OpKind::ArgMin, DType::kFloat32, {{4, 3}}, {-2}, DType::kInt32, {{3}});
  EXPECT_EQ(lower_for_test(min).info().function(), "microaot_arg_min_f32_s32");
}

TEST(ArgMinMaxHandler, RefusesWhatTFLMRefuses) {
  EXPECT_TRUE(refuses(axis_graph(OpKind::ArgMax, DType::kFloat32, {{4, 3}}, {0}, DType::kInt64, {{3}}),
                      "type int64 is not supported"));
  EXPECT_TRUE(refuses(axis_graph(OpKind::ArgMin, DType::kInt16, {{4, 3}, 0.5f, 0}, {0}, DType::kInt32, {{3}}),
                      "type int16 is not supported"));
  EXPECT_TRUE(refuses(axis_graph(OpKind::ArgMax, DType::kFloat32, {{4, 3}}, {}, DType::kInt32, {{3}}),
                      "holds no axis"));
  EXPECT_TRUE(refuses(axis_graph(OpKind::ArgMax, DType::kFloat32, {{4, 3}}, {-3}, DType::kInt32, {{3}}),
                      "axis -3 is out of range"));
}

}  // namespace
}  // namespace microaot
