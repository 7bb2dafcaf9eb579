// C text of the params definitions: every field in struct order, arrays as their own constants (declared with
// the struct, defined for weights.c), empty arrays as NULL, and integer and float literals that mean exactly the value.
#include <gtest/gtest.h>

#include <cfloat>

#include "codegen/c_text.h"

namespace microaot {
namespace {

TEST(CText, ParamsDefinitionListsEveryFieldInStructOrder) {
  const ParamStruct s = {"demo_params",
                         {{"size", ParamKind::kI32},
                          {"gain", ParamKind::kF32},
                          {"shape", ParamKind::kI32Array},
                          {"lut", ParamKind::kI16Array}}};
  ParamValues v;
  v.set_ints("lut", {-1, 2});
  v.set_ints("shape", {});
  v.set_float("gain", FLT_MAX);
  v.set_int("size", INT32_MIN);
  v.bind(s);
  EXPECT_EQ(c_params_definition("model_op3", s, v),
            "extern const int16_t model_op3_lut[2];\n"
            "static const microaot_demo_params model_op3_params = {\n"
            "  .size = (-2147483647 - 1),\n"
            "  .gain = FLT_MAX,\n"
            "  .shape = NULL,\n"
            "  .lut = model_op3_lut,\n"
            "};\n");
  EXPECT_EQ(c_params_arrays("model_op3", s, v),
            "extern const int16_t model_op3_lut[2];\nconst int16_t model_op3_lut[2] = {\n  -1, 2};\n");
}

TEST(CText, IntegerLiteralsOfEveryWidth) {
  EXPECT_EQ(c_int_literal(0), "0");
  EXPECT_EQ(c_int_literal(-5), "-5");
  EXPECT_EQ(c_int_literal(INT32_MIN), "(-2147483647 - 1)");
  EXPECT_EQ(c_int_literal(int64_t{1} << 40), "1099511627776LL");
  EXPECT_EQ(c_int_literal(INT64_MIN), "(-9223372036854775807LL - 1)");
}

TEST(CText, FloatArraysAreExact) {
  EXPECT_EQ(c_initializer(std::vector<float>{0.5f, -2.0f}), "  0x1p-1f, -0x1p+1f");
}

}  // namespace
}  // namespace microaot
