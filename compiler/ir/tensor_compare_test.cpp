// The golden comparison: integers exact, float32 within the scaled tolerance, sizes, NaN, messages.
#include "ir/tensor_compare.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

namespace microaot {
namespace {

template <typename T>
std::vector<uint8_t> bytes_of(const std::vector<T>& values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(T));
  if (!bytes.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

TEST(TensorCompare, IntegersMustBeEqual) {
  const std::vector<int8_t> want = {-128, 0, 5, 127};
  EXPECT_TRUE(compare_tensor_data(DType::kInt8, bytes_of(want), bytes_of(want)).matches());
  const TensorDiff d = compare_tensor_data(DType::kInt8, bytes_of<int8_t>({-128, 1, 5, 124}), bytes_of(want));
  EXPECT_FALSE(d.matches());
  EXPECT_EQ(d.elements, 4u);
  EXPECT_EQ(d.differing, 2u);
  EXPECT_EQ(d.max_abs_diff, 3.0);
  EXPECT_EQ(d.first, 1u);
  EXPECT_EQ(describe_difference(d), "element 1: got 1, want 0 (2 of 4 differ)");
  EXPECT_EQ(compare_tensor_data(DType::kInt32, bytes_of<int32_t>({1 << 30}), bytes_of<int32_t>({(1 << 30) + 1})).differing,
            1u);
}

// With max |ref| = 100: element 0 (ref 0) may move by 1e-3, element 1 (ref 100) by 1e-2 + 1e-3.
TEST(TensorCompare, FloatWithinTheScaledTolerance) {
  const std::vector<float> want = {0.0f, 100.0f};
  EXPECT_TRUE(compare_tensor_data(DType::kFloat32, bytes_of<float>({0.0009f, 100.0105f}), bytes_of(want)).matches());
  const TensorDiff d = compare_tensor_data(DType::kFloat32, bytes_of<float>({0.0011f, 100.012f}), bytes_of(want));
  EXPECT_EQ(d.differing, 2u);
  EXPECT_NEAR(d.max_abs_diff, 0.012, 1e-5);
  // Below max |ref| = 1 the floor of 1e-5 holds.
  EXPECT_TRUE(compare_tensor_data(DType::kFloat32, bytes_of<float>({0.000009f}), bytes_of<float>({0.0f})).matches());
  EXPECT_FALSE(compare_tensor_data(DType::kFloat32, bytes_of<float>({0.000011f}), bytes_of<float>({0.0f})).matches());
}

TEST(TensorCompare, NanNeverMatches) {
  const TensorDiff d = compare_tensor_data(DType::kFloat32, bytes_of<float>({NAN, 1.0f}), bytes_of<float>({1.0f, 1.0f}));
  EXPECT_EQ(d.differing, 1u);
  EXPECT_TRUE(std::isinf(d.max_abs_diff));
}

TEST(TensorCompare, SizesMustAgree) {
  const TensorDiff d = compare_tensor_data(DType::kInt8, bytes_of<int8_t>({1, 2}), bytes_of<int8_t>({1, 2, 3}));
  EXPECT_FALSE(d.matches());
  EXPECT_EQ(describe_difference(d), "size 2 bytes, want 3");
}

TEST(TensorCompare, DTypeNames) {
  for (DType type : {DType::kFloat32, DType::kInt8, DType::kUInt8, DType::kInt16, DType::kInt32, DType::kInt64, DType::kBool}) {
    EXPECT_EQ(dtype_from_name(dtype_name(type)), type);
  }
  EXPECT_EQ(dtype_from_name("complex64"), DType::kUnsupported);
}

}  // namespace
}  // namespace microaot
