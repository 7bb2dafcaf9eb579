// REMAP kernel: hand-computed tables (a transpose, padding with a fill value, a reversal) and a rank-3
// walk checked against an independent index computation, for 1- and 4-byte elements.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "microaot/kernels/remap.h"

namespace {

TEST(Remap, TransposesByTables) {
  // in [2,3] = 0..5; out [3,2]: out[i][j] = in[j][i], byte offsets j*3 + i.
  const std::vector<int8_t> in = {0, 1, 2, 3, 4, 5};
  const int32_t dims[] = {3, 2};
  const int32_t offsets[] = {0, 1, 2, /*second dimension*/ 0, 3};
  const int8_t fill[] = {0};
  const microaot_remap_params p = {2, 1, dims, offsets, fill};
  std::vector<int8_t> out(6, -1);
  microaot_remap(&p, in.data(), out.data());
  EXPECT_EQ(out, (std::vector<int8_t>{0, 3, 1, 4, 2, 5}));
}

TEST(Remap, FillsPaddingWithTheFillBytes) {
  // in [2] of int16 {7, 8}; out [1 + 2 + 2] padded with 0x1234.
  const std::vector<int16_t> in = {7, 8};
  const int32_t dims[] = {5};
  const int32_t offsets[] = {-1, 0, 2, -1, -1};
  const int8_t fill[] = {0x34, 0x12};
  const microaot_remap_params p = {1, 2, dims, offsets, fill};
  std::vector<int16_t> out(5, 0);
  microaot_remap(&p, in.data(), out.data());
  EXPECT_EQ(out, (std::vector<int16_t>{0x1234, 7, 8, 0x1234, 0x1234}));
}

TEST(Remap, FillInAnOuterDimensionCoversTheWholeRow) {
  // in [1,2] {1,2}; out [3,2]: rows 0 and 2 padding.
  const std::vector<int8_t> in = {1, 2};
  const int32_t dims[] = {3, 2};
  const int32_t offsets[] = {-1, 0, -1, 0, 1};
  const int8_t fill[] = {9};
  const microaot_remap_params p = {2, 1, dims, offsets, fill};
  std::vector<int8_t> out(6, 0);
  microaot_remap(&p, in.data(), out.data());
  EXPECT_EQ(out, (std::vector<int8_t>{9, 9, 1, 2, 9, 9}));
}

TEST(Remap, AgreesWithIndexArithmeticOnARank3Permutation) {
  // in [2,3,4] float; out [4,2,3] = perm (2,0,1), with the last dimension reversed.
  std::vector<float> in(24);
  for (int i = 0; i < 24; ++i) in[i] = static_cast<float>(i) * 0.5f;
  std::vector<int32_t> offsets;
  for (int c = 0; c < 4; ++c) offsets.push_back(c * 4);
  for (int a = 0; a < 2; ++a) offsets.push_back(a * 12 * 4);
  for (int b = 2; b >= 0; --b) offsets.push_back(b * 4 * 4);
  const int32_t dims[] = {4, 2, 3};
  const int8_t fill[] = {0, 0, 0, 0};
  const microaot_remap_params p = {3, 4, dims, offsets.data(), fill};
  std::vector<float> out(24, -1.0f);
  microaot_remap(&p, in.data(), out.data());
  for (int c = 0; c < 4; ++c) {
    for (int a = 0; a < 2; ++a) {
      for (int b = 0; b < 3; ++b) {
        EXPECT_EQ(out[(c * 2 + a) * 3 + b], in[(a * 3 + (2 - b)) * 4 + c]) << c << a << b;
      }
    }
  }
}

TEST(Remap, EmptyOutputWritesNothing) {
  const int8_t in[] = {1};
  const int32_t dims[] = {2, 0};
  const int32_t offsets[] = {0, 0};
  const int8_t fill[] = {0};
  const microaot_remap_params p = {2, 1, dims, offsets, fill};
  int8_t out[1] = {42};
  microaot_remap(&p, in, out);
  EXPECT_EQ(out[0], 42);
}

}  // namespace
