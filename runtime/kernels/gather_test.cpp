// GATHER kernel (GATHER, EMBEDDING_LOOKUP) and GATHER_ND kernel: blocks picked against an independent index
// computation, any element size, and the refusal of an index outside its dimension before it is read.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "microaot/kernels/gather.h"

namespace {

TEST(Gather, PicksRowsInIndexOrderWithRepeats) {
  // [4,2] int8, rows 3, 0, 3.
  const std::vector<int8_t> in = {10, 11, 20, 21, 30, 31, 40, 41};
  const int32_t indices[] = {3, 0, 3};
  const microaot_gather_params p = {1, 1, 4, 3, 2};
  std::vector<int8_t> out(6, 0);
  EXPECT_EQ(microaot_gather(&p, in.data(), indices, out.data()), MICROAOT_STATUS_OK);
  EXPECT_EQ(out, (std::vector<int8_t>{40, 41, 10, 11, 40, 41}));
}

TEST(Gather, InnerAxisWithBatchesAgreesWithIndexArithmetic) {
  // float input [B=2, O=3, A=4, I=2], batch_dims 1, indices [2, 3] (per batch 3 coords) -> [2, 3, 3, 2].
  const int B = 2, O = 3, A = 4, I = 2, C = 3;
  std::vector<float> in(B * O * A * I);
  for (size_t i = 0; i < in.size(); ++i) in[i] = 0.5f * static_cast<float>(i);
  const int32_t indices[B * C] = {1, 3, 0, 2, 2, 3};
  const microaot_gather_params p = {B, O, A, C, static_cast<int32_t>(I * sizeof(float))};
  std::vector<float> out(B * O * C * I, -1.0f);
  ASSERT_EQ(microaot_gather(&p, in.data(), indices, out.data()), MICROAOT_STATUS_OK);
  for (int b = 0; b < B; ++b) {
    for (int o = 0; o < O; ++o) {
      for (int c = 0; c < C; ++c) {
        for (int i = 0; i < I; ++i) {
          const int a = indices[b * C + c];
          EXPECT_EQ(out[static_cast<size_t>(((b * O + o) * C + c) * I + i)],
                    in[static_cast<size_t>(((b * O + o) * A + a) * I + i)])
              << b << " " << o << " " << c;
        }
      }
    }
  }
}

TEST(Gather, RefusesAnIndexOutsideTheAxis) {
  const std::vector<int16_t> in = {1, 2, 3};
  const microaot_gather_params p = {1, 1, 3, 2, 2};
  for (int32_t bad : {3, -1, INT32_MAX, INT32_MIN}) {
    const int32_t indices[] = {0, bad};
    std::vector<int16_t> out(2, 0);
    EXPECT_EQ(microaot_gather(&p, in.data(), indices, out.data()), MICROAOT_STATUS_VALUE_OUT_OF_RANGE) << bad;
  }
  const int32_t last[] = {2, 2};
  std::vector<int16_t> out(2, 0);
  EXPECT_EQ(microaot_gather(&p, in.data(), last, out.data()), MICROAOT_STATUS_OK);
  EXPECT_EQ(out, (std::vector<int16_t>{3, 3}));
}

TEST(GatherNd, TuplesPickElementsAndRows) {
  // [4,5] int8 with value 10*r + c; depth 2 picks elements, depth 1 picks rows.
  std::vector<int8_t> in(20);
  for (int i = 0; i < 20; ++i) in[static_cast<size_t>(i)] = static_cast<int8_t>(10 * (i / 5) + i % 5);
  const int32_t dims[] = {4, 5}, strides[] = {5, 1};
  const int32_t pairs[] = {0, 1, 3, 4, 2, 2};
  const microaot_gather_nd_params elements = {3, 2, 1, dims, strides};
  std::vector<int8_t> out(3, 0);
  ASSERT_EQ(microaot_gather_nd(&elements, in.data(), pairs, out.data()), MICROAOT_STATUS_OK);
  EXPECT_EQ(out, (std::vector<int8_t>{1, 34, 22}));
  const int32_t rows[] = {3, 1};
  const microaot_gather_nd_params row_params = {2, 1, 5, dims, strides};
  std::vector<int8_t> picked(10, 0);
  ASSERT_EQ(microaot_gather_nd(&row_params, in.data(), rows, picked.data()), MICROAOT_STATUS_OK);
  EXPECT_EQ(picked, (std::vector<int8_t>{30, 31, 32, 33, 34, 10, 11, 12, 13, 14}));
}

TEST(GatherNd, RefusesAnEntryOutsideItsDimensionEvenWhenTheFlatPositionFits) {
  const std::vector<float> in(20, 1.0f);
  const int32_t dims[] = {4, 5}, strides[] = {20, 4};
  const microaot_gather_nd_params p = {1, 2, 4, dims, strides};
  for (const std::vector<int32_t>& bad : {std::vector<int32_t>{0, 7}, {-1, 2}, {4, 0}, {1, INT32_MIN}}) {
    float out = 0.0f;
    EXPECT_EQ(microaot_gather_nd(&p, in.data(), bad.data(), &out), MICROAOT_STATUS_VALUE_OUT_OF_RANGE)
        << bad[0] << " " << bad[1];
  }
}

}  // namespace
