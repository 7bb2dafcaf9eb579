// CONCATENATION kernel: slices interleave per outer index, for any element size, against an independent
// index computation.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "microaot/kernels/concatenation.h"

namespace {

TEST(Concatenation, InterleavesSlicesPerOuterIndex) {
  // [2,2] ++ [2,1] along axis 1 -> [2,3]: rows (a0 a1 b0), (a2 a3 b1).
  const std::vector<int8_t> a = {1, 2, 3, 4}, b = {9, 8};
  const int32_t slices[] = {2, 1};
  const microaot_concatenation_params p = {2, 2, slices};
  const void* const inputs[] = {a.data(), b.data()};
  std::vector<int8_t> out(6, 0);
  microaot_concatenation(&p, inputs, out.data());
  EXPECT_EQ(out, (std::vector<int8_t>{1, 2, 9, 3, 4, 8}));
}

TEST(Concatenation, AgreesWithIndexArithmeticForWideElements) {
  // Shapes [3,k,2] of float for k = 1,2,3 along axis 1 -> [3,6,2].
  const int ks[] = {1, 2, 3};
  std::vector<std::vector<float>> in(3);
  std::vector<const void*> pointers;
  std::vector<int32_t> slices;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3 * ks[i] * 2; ++j) in[i].push_back(static_cast<float>(100 * i + j));
    pointers.push_back(in[i].data());
    slices.push_back(static_cast<int32_t>(ks[i] * 2 * sizeof(float)));
  }
  const microaot_concatenation_params p = {3, 3, slices.data()};
  std::vector<float> out(3 * 6 * 2, -1.0f);
  microaot_concatenation(&p, pointers.data(), out.data());
  for (int outer = 0; outer < 3; ++outer) {
    int axis = 0;
    for (int i = 0; i < 3; ++i) {
      for (int k = 0; k < ks[i]; ++k, ++axis) {
        for (int c = 0; c < 2; ++c) {
          EXPECT_EQ(out[(outer * 6 + axis) * 2 + c], in[i][(outer * ks[i] + k) * 2 + c]) << outer << " " << axis;
        }
      }
    }
  }
}

}  // namespace
