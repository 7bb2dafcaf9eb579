// CAST handler: the kernel per type pair, a byte copy to the same type, and the types TFLM refuses.
#include <gtest/gtest.h>

#include "ops/unary_test_util.h"

namespace microaot {
namespace {

Graph cast_graph(DType from, DType to, std::vector<int32_t> out_shape = {2, 3}) {
  return unary_graph(OpKind::Cast, from, {{2, 3}}, to, {out_shape});
}

TEST(CastHandler, OneKernelPerTypePair) {
  EXPECT_EQ(lower_for_test(cast_graph(DType::kInt8, DType::kFloat32)).info().function(), "microaot_cast_s8_f32");
  EXPECT_EQ(lower_for_test(cast_graph(DType::kFloat32, DType::kInt32)).info().function(), "microaot_cast_f32_s32");
  EXPECT_EQ(lower_for_test(cast_graph(DType::kBool, DType::kInt16)).info().function(), "microaot_cast_bool_s16");
  EXPECT_EQ(param_text(lower_for_test(cast_graph(DType::kInt32, DType::kInt8))).at("size"), "6");
}

TEST(CastHandler, ToTheSameTypeIsAByteCopy) {
  const KernelCall call = lower_for_test(cast_graph(DType::kFloat32, DType::kFloat32));
  EXPECT_EQ(call.info().function(), "microaot_copy");
  EXPECT_EQ(param_text(call).at("size"), "24");
}

TEST(CastHandler, Refusals) {
  EXPECT_TRUE(refuses(cast_graph(DType::kInt8, DType::kBool), "output 0 'y' (tensor 1): type bool is not supported"));
  EXPECT_TRUE(refuses(cast_graph(DType::kInt8, DType::kInt32, {7}), "element"));
}

}  // namespace
}  // namespace microaot
