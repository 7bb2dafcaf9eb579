// The serialized params: a hand-checked layout, a round trip for every kernel of the list with random
// values (the interpreter will read these bytes), and refusal of bytes of the wrong length.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "kernels/param_serializer.h"

namespace microaot {
namespace {

TEST(ParamSerializer, LayoutIsLittleEndianWithPaddedArrays) {
  const ParamStruct s = {"p", {{"a", ParamKind::kI32}, {"lut", ParamKind::kI16Array}, {"f", ParamKind::kF32}}};
  ParamValues v;
  v.set_int("a", -2);
  v.set_ints("lut", {1, -1, 258});
  v.set_float("f", 1.0f);
  v.bind(s);
  const std::vector<uint8_t> expected = {0xfe, 0xff, 0xff, 0xff,  // a = -2
                                         3,    0,    0,    0,     // 3 elements
                                         1,    0,    0xff, 0xff, 2, 1, 0, 0,  // 1, -1, 258, padding
                                         0,    0,    0x80, 0x3f};  // 1.0f
  EXPECT_EQ(serialize_params(s, v), expected);
}

// Random values that the field's C type holds, special floats included.
void set_random(ParamValues& v, const ParamField& f, std::mt19937& rng) {
  const float specials[] = {0.0f, -0.0f, 1.5f, -std::numeric_limits<float>::max(), std::numeric_limits<float>::infinity(),
                            std::numeric_limits<float>::denorm_min()};
  const auto real = [&] { return specials[rng() % 6]; };
  const int bits = f.kind == ParamKind::kI8Array ? 8 : f.kind == ParamKind::kI16Array ? 16 : 32;
  const auto integer = [&] { return static_cast<int64_t>(static_cast<int32_t>(rng())) >> (32 - bits); };
  const size_t count = rng() % 5;
  switch (f.kind) {
    case ParamKind::kI32: return v.set_int(f.name, integer());
    case ParamKind::kF32: return v.set_float(f.name, real());
    case ParamKind::kF32Array: {
      std::vector<float> values(count);
      for (float& x : values) x = real();
      return v.set_floats(f.name, values);
    }
    default: {
      std::vector<int64_t> values(count);
      for (int64_t& x : values) x = integer();
      return v.set_ints(f.name, values);
    }
  }
}

TEST(ParamSerializer, EveryKernelRoundTrips) {
  std::mt19937 rng(7);
  for (const KernelInfo& kernel : kernel_registry().kernels) {
    SCOPED_TRACE(kernel.symbol);
    for (int trial = 0; trial < 20; ++trial) {
      ParamValues v;
      for (const ParamField& f : kernel.params->fields) set_random(v, f, rng);
      v.bind(*kernel.params);
      const std::vector<uint8_t> bytes = serialize_params(*kernel.params, v);
      EXPECT_EQ(bytes.size() % 4, 0u);
      EXPECT_EQ(deserialize_params(*kernel.params, bytes), v);
    }
  }
}

TEST(ParamSerializer, BytesOfTheWrongLengthAreRefused) {
  const ParamStruct s = {"p", {{"a", ParamKind::kI32}, {"w", ParamKind::kI8Array}}};
  ParamValues v;
  v.set_int("a", 1);
  v.set_ints("w", {1, 2, 3, 4, 5});
  v.bind(s);
  std::vector<uint8_t> bytes = serialize_params(s, v);
  ASSERT_EQ(bytes.size(), 16u);
  bytes.push_back(0);
  EXPECT_THROW(deserialize_params(s, bytes), std::invalid_argument);
  bytes.resize(10);
  EXPECT_THROW(deserialize_params(s, bytes), std::invalid_argument);
  std::vector<uint8_t> huge_count = {1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff};
  EXPECT_THROW(deserialize_params(s, huge_count), std::invalid_argument);
}

}  // namespace
}  // namespace microaot
