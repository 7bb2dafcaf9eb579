// Binding a handler's params to a kernel's struct: struct order, and a clear error for each handler bug
// (missing, extra, repeated or mistyped field, a value its C type cannot hold).
#include <gtest/gtest.h>

#include "kernels/param_values.h"

namespace microaot {
namespace {

const ParamStruct kStruct = {"example_params",
                             {{"size", ParamKind::kI32},
                              {"scale", ParamKind::kF32},
                              {"lut", ParamKind::kI16Array},
                              {"bias", ParamKind::kI32Array},
                              {"gains", ParamKind::kF32Array}}};

ParamValues complete() {
  ParamValues v;
  v.set_floats("gains", {0.5f});
  v.set_ints("bias", {INT32_MIN, INT32_MAX});
  v.set_ints("lut", {-32768, 32767});
  v.set_float("scale", 0.25f);
  v.set_int("size", 7);
  return v;
}

std::string bind_error(ParamValues v) {
  try {
    v.bind(kStruct);
  } catch (const ParamBindError& e) {
    return e.what();
  }
  return "";
}

TEST(ParamValues, BindOrdersAsTheStructDeclares) {
  ParamValues v = complete();
  v.bind(kStruct);
  ASSERT_EQ(v.values().size(), 5u);
  for (size_t i = 0; i < kStruct.fields.size(); ++i) EXPECT_EQ(v.values()[i].field, kStruct.fields[i].name);
  EXPECT_EQ(v.find("size")->integer, 7);
  EXPECT_EQ(v.find("scale")->real, 0.25f);
  EXPECT_EQ(v.array_bytes(kStruct), 2 * 2 + 2 * 4 + 1 * 4);
}

TEST(ParamValues, AMissingFieldIsAnError) {
  ParamValues v;
  v.set_int("size", 1);
  EXPECT_EQ(bind_error(v), "field 'scale' of microaot_example_params is not set");
}

TEST(ParamValues, AnExtraFieldIsAnError) {
  ParamValues v = complete();
  v.set_int("stride", 2);
  EXPECT_EQ(bind_error(v), "field 'stride' is not a field of microaot_example_params");
}

TEST(ParamValues, ARepeatedFieldIsAnError) {
  ParamValues v;
  v.set_int("size", 1);
  EXPECT_THROW(v.set_int("size", 2), ParamBindError);
}

TEST(ParamValues, AFieldInTheWrongFormIsAnError) {
  ParamValues v;
  v.set_float("size", 1.0f);
  EXPECT_EQ(bind_error(v), "field 'size' is given in the wrong form for a int32_t");
  ParamValues x;
  x.set_int("size", 1);
  x.set_float("scale", 1);
  x.set_int("lut", 3);
  EXPECT_EQ(bind_error(x), "field 'lut' is given in the wrong form for a const int16_t*");
}

TEST(ParamValues, ValuesOutsideTheCTypeAreErrors) {
  ParamValues big;
  big.set_int("size", int64_t{1} << 31);
  EXPECT_EQ(bind_error(big), "field 'size': 2147483648 does not fit int32_t");
  ParamValues lut;
  lut.set_int("size", 1);
  lut.set_float("scale", 1);
  lut.set_ints("lut", {40000});
  EXPECT_EQ(bind_error(lut), "field 'lut': 40000 does not fit int16_t");
}

}  // namespace
}  // namespace microaot
