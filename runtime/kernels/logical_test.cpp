// LOGICAL_AND and LOGICAL_OR kernels: every pair of truth values, any non-zero byte as true, and a broadcast.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "binary_kernel_test_util.h"
#include "microaot/kernels/logical.h"

namespace {

TEST(Logical, AndOrOfTruthValuesWithBroadcast) {
  // [2, 3] against [3]: row 0 holds 0, 1, 2 against 0, 0, 0; row 1 the same against 1, 7, 0.
  const int32_t shape[2] = {2, 3}, strides1[2] = {0, 1}, strides2[2] = {3, 1};
  microaot_binary_params p = {};
  binary_test::set_walk(p, 6, 2, shape, strides1, strides2);
  const std::vector<uint8_t> a = {0, 1, 2}, b = {0, 0, 0, 1, 7, 0};
  std::vector<uint8_t> out(6);
  microaot_logical_and_bool(&p, a.data(), b.data(), out.data());
  EXPECT_EQ(out, (std::vector<uint8_t>{0, 0, 0, 0, 1, 0}));
  microaot_logical_or_bool(&p, a.data(), b.data(), out.data());
  EXPECT_EQ(out, (std::vector<uint8_t>{0, 1, 1, 1, 1, 1}));
}

}  // namespace
