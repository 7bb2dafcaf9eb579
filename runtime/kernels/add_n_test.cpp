// Unit tests of the ADD_N kernels: hand-computed sums, TFLM's int8 start from the scaled raw 0 (shifted
// results for a non-zero input zero point), rounding of a rescaled sum, and random int8 sums against the
// exact integer sum they equal when input and output share a scale.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "microaot/kernels/add_n.h"

namespace {

std::vector<float> run_f32(const std::vector<std::vector<float>>& inputs) {
  std::vector<const float*> pointers;
  for (const auto& v : inputs) pointers.push_back(v.data());
  const microaot_add_n_params_f32 p{static_cast<int32_t>(inputs[0].size()), static_cast<int32_t>(inputs.size())};
  std::vector<float> out(inputs[0].size(), -1.0f);
  microaot_add_n_f32(&p, pointers.data(), out.data());
  return out;
}

// int8 with TFLM's constants: inputs times 2^20 / 2, the sum times 2 * ratio / 2^20, where ratio is the input
// scale over the output scale (a power of two here: multiplier 2^30, shift -19 + log2(2 * ratio)).
std::vector<int8_t> run_s8(const std::vector<std::vector<int8_t>>& inputs, int32_t input_zp, int32_t output_zp,
                           int32_t ratio_log2 = 0) {
  std::vector<const int8_t*> pointers;
  for (const auto& v : inputs) pointers.push_back(v.data());
  const microaot_add_n_params_s8 p{static_cast<int32_t>(inputs[0].size()), static_cast<int32_t>(inputs.size()),
                                   -input_zp, 20, 1 << 30, 0, 1 << 30, -18 + ratio_log2, output_zp};
  std::vector<int8_t> out(inputs[0].size(), 0x55);
  microaot_add_n_s8(&p, pointers.data(), out.data());
  return out;
}

TEST(AddNF32, SumsEveryInput) {
  EXPECT_EQ(run_f32({{1, 2.5f}, {3, -1}, {0.5f, 0.5f}}), (std::vector<float>{4.5f, 2}));
  EXPECT_EQ(run_f32({{-1}, {1}}), (std::vector<float>{0}));
}

TEST(AddNS8, SameScaleZeroPointZeroIsThePlainSum) {
  EXPECT_EQ(run_s8({{10, -20, 100}, {5, 7, 100}, {-3, 100, 100}}, 0, 0), (std::vector<int8_t>{12, 87, 127}));
  EXPECT_EQ(run_s8({{-100}, {-100}}, 0, 0), (std::vector<int8_t>{-128}));
  EXPECT_EQ(run_s8({{10}, {6}}, 0, -5), (std::vector<int8_t>{11}));
}

TEST(AddNS8, StartsFromTheScaledRawZeroAsTflm) {
  // Input zero point 4: real values 6 and 2 sum to 8 (9 with output zero point 1), but TFLM's sum starts at
  // the transform of a raw 0, -4: 4 + 1 = 5.
  EXPECT_EQ(run_s8({{10}, {6}}, 4, 1), (std::vector<int8_t>{5}));
  EXPECT_EQ(run_s8({{10}, {6}, {4}}, -2, 0), (std::vector<int8_t>{12 + 8 + 6 + 2}));
}

TEST(AddNS8, RescaledSumRoundsHalfAwayFromZero) {
  // Output scale twice the input's: sums 3 and -3 become 1.5 and -1.5 -> 2 and -2; 1 -> 0.5 -> 1.
  EXPECT_EQ(run_s8({{1, -1, 1}, {2, -2, 0}}, 0, 0, -1), (std::vector<int8_t>{2, -2, 1}));
}

TEST(AddNS8, RandomSumsAreExactAtEqualScales) {
  std::mt19937 rng(5);
  std::uniform_int_distribution<int> value(-128, 127), count(2, 6), zp(-20, 20);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<std::vector<int8_t>> inputs(static_cast<size_t>(count(rng)), std::vector<int8_t>(7));
    for (auto& v : inputs)
      for (int8_t& x : v) x = static_cast<int8_t>(value(rng));
    const int32_t input_zp = zp(rng), output_zp = zp(rng);
    std::vector<int8_t> want;
    for (size_t i = 0; i < 7; ++i) {
      int32_t sum = -input_zp + output_zp;  // TFLM's start
      for (const auto& v : inputs) sum += v[i] - input_zp;
      want.push_back(static_cast<int8_t>(std::clamp(sum, -128, 127)));
    }
    ASSERT_EQ(run_s8(inputs, input_zp, output_zp), want) << "trial " << trial;
  }
}

}  // namespace
