// MAXIMUM, MINIMUM, FLOOR_DIV, FLOOR_MOD, LOGICAL_AND and LOGICAL_OR handler: the stem per operator and type
// over the bare broadcast walk, and the types TFLM's kernels refuse.
#include <gtest/gtest.h>

#include <string>

#include "ops/binary_test_util.h"
#include "ops/lowering_test_util.h"

namespace microaot {
namespace {

// The kernel of op `kind` on [4, 1] and [3] of `type` (int8 and int16 share one quantization, as TFLM needs).
std::string function_of(OpKind kind, DType type) {
  const float scale = type == DType::kInt8 || type == DType::kInt16 ? 0.5f : 0.0f;
  return lower_for_test(binary_graph(kind, type, {{4, 1}, scale, 0}, {{3}, scale, 0}, {{4, 3}, scale, 0}))
      .info()
      .function();
}

TEST(PlainBinaryHandler, MaximumAndMinimumTakeEveryTflmType) {
  EXPECT_EQ(function_of(OpKind::Maximum, DType::kInt8), "microaot_maximum_s8");
  EXPECT_EQ(function_of(OpKind::Maximum, DType::kInt16), "microaot_maximum_s16");
  EXPECT_EQ(function_of(OpKind::Minimum, DType::kInt32), "microaot_minimum_s32");
  EXPECT_EQ(function_of(OpKind::Minimum, DType::kInt64), "microaot_minimum_s64");
  const KernelCall call = lower_for_test(binary_graph(OpKind::Minimum, DType::kFloat32, {{4, 1}}, {{3}}, {{4, 3}}));
  EXPECT_EQ(call.info().function(), "microaot_minimum_f32");
  EXPECT_EQ(call.info().params->c_type(), "microaot_binary_params");
  EXPECT_EQ(param_arrays(call).at("output_shape"), (std::vector<int64_t>{4, 3}));
  EXPECT_EQ(param_arrays(call).at("input1_strides"), (std::vector<int64_t>{1, 0}));
  EXPECT_EQ(param_arrays(call).at("input2_strides"), (std::vector<int64_t>{0, 1}));
}

TEST(PlainBinaryHandler, FloorDivAndFloorModAreFloatOnly) {
  EXPECT_EQ(function_of(OpKind::FloorDiv, DType::kFloat32), "microaot_floor_div_f32");
  EXPECT_EQ(function_of(OpKind::FloorMod, DType::kFloat32), "microaot_floor_mod_f32");
  for (OpKind kind : {OpKind::FloorDiv, OpKind::FloorMod}) {
    const std::string error = check_error(binary_graph(kind, DType::kInt8, {{4}, 0.5f, 0}, {{4}, 0.5f, 0}, {{4}, 0.5f, 0}));
    EXPECT_NE(error.find("input 0 'a' (tensor 0): type int8 is not supported"), std::string::npos) << error;
  }
}

TEST(PlainBinaryHandler, LogicalOperatorsTakeBool) {
  EXPECT_EQ(function_of(OpKind::LogicalAnd, DType::kBool), "microaot_logical_and_bool");
  EXPECT_EQ(function_of(OpKind::LogicalOr, DType::kBool), "microaot_logical_or_bool");
  EXPECT_NE(check_error(binary_graph(OpKind::LogicalOr, DType::kFloat32, {{4}}, {{4}}, {{4}}))
                .find("LOGICAL_OR (op 2), input 0 'a' (tensor 0): type float32 is not supported"),
            std::string::npos);
}

TEST(PlainBinaryHandler, RefusesMixedTypesAndNewerVersions) {
  Graph g = binary_graph(OpKind::Maximum, DType::kInt8, {{4}, 0.5f, 0}, {{4}, 0.5f, 0}, {{4}, 0.5f, 0});
  g.tensors[2].dtype = DType::kInt16;
  EXPECT_NE(check_error(g).find("output 0 'out' (tensor 2)"), std::string::npos);
  g = binary_graph(OpKind::LogicalAnd, DType::kBool, {{4}}, {{4}}, {{4}});
  g.ops[0].version = 2;
  EXPECT_NE(check_error(g).find("version 2"), std::string::npos) << check_error(g);
}

}  // namespace
}  // namespace microaot
