// GATHER kernel (GATHER, EMBEDDING_LOOKUP): blocks picked per batch and outer index against an independent index
// computation, any element size, and the refusal of an index outside the axis before anything is read for it.
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

}  // namespace
