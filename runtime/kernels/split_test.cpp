// SPLIT kernel (SPLIT, SPLIT_V, UNPACK): each output takes its range of every outer slice, for any element
// size, against an independent index computation.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "microaot/kernels/split.h"

namespace {

TEST(Split, CutsEachOuterSliceIntoRanges) {
  // [2,3] cut along axis 1 into [2,2] and [2,1]: rows (1 2 | 3), (4 5 | 6).
  const std::vector<int8_t> in = {1, 2, 3, 4, 5, 6};
  const int32_t slices[] = {2, 1};
  const microaot_split_params p = {2, 2, slices};
  std::vector<int8_t> a(4, 0), b(2, 0);
  void* const outputs[] = {a.data(), b.data()};
  microaot_split(&p, in.data(), outputs);
  EXPECT_EQ(a, (std::vector<int8_t>{1, 2, 4, 5}));
  EXPECT_EQ(b, (std::vector<int8_t>{3, 6}));
}

TEST(Split, AgreesWithIndexArithmeticForWideElements) {
  // int16 [3,6,2] cut along axis 1 into sizes 1, 2, 3.
  const int ks[] = {1, 2, 3};
  std::vector<int16_t> in(3 * 6 * 2);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<int16_t>(1000 + 7 * i);
  std::vector<std::vector<int16_t>> out(3);
  std::vector<void*> pointers;
  std::vector<int32_t> slices;
  for (int i = 0; i < 3; ++i) {
    out[i].assign(static_cast<size_t>(3 * ks[i] * 2), -1);
    pointers.push_back(out[i].data());
    slices.push_back(static_cast<int32_t>(ks[i] * 2 * sizeof(int16_t)));
  }
  const microaot_split_params p = {3, 3, slices.data()};
  microaot_split(&p, in.data(), pointers.data());
  for (int outer = 0; outer < 3; ++outer) {
    int axis = 0;
    for (int i = 0; i < 3; ++i) {
      for (int k = 0; k < ks[i]; ++k, ++axis) {
        for (int c = 0; c < 2; ++c) {
          EXPECT_EQ(out[i][static_cast<size_t>((outer * ks[i] + k) * 2 + c)],
                    in[static_cast<size_t>((outer * 6 + axis) * 2 + c)])
              << outer << " " << axis;
        }
      }
    }
  }
}

TEST(Split, UnpackIsOnePositionPerOutput) {
  // float [2,3] unpacked along axis 1: three outputs of [2], output i = column i.
  const std::vector<float> in = {0.5f, 1.5f, 2.5f, 3.5f, 4.5f, 5.5f};
  const int32_t slices[] = {4, 4, 4};
  const microaot_split_params p = {2, 3, slices};
  std::vector<std::vector<float>> out(3, std::vector<float>(2, 0.0f));
  void* const outputs[] = {out[0].data(), out[1].data(), out[2].data()};
  microaot_split(&p, in.data(), outputs);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(out[static_cast<size_t>(i)], (std::vector<float>{in[i], in[3 + i]})) << i;
}

}  // namespace
