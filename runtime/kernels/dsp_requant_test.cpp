// microaot/internal/dsp_requant.h's narrow step (SMMULR of the saturated doubled value) against TFLM's
// MultiplyByQuantizedMultiplier (microaot/fixedpoint.h) followed by the clamp to int8 it is written for: right
// shifts up to 21, offsets up to 128 in magnitude, multipliers 0 or in [2^30, 2^31), sums across the whole int32
// range (those past 2^30 take the saturated path). On the host the instructions run as dsp.h's C definitions.
#include "microaot/internal/dsp_requant.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>

#include "microaot/fixedpoint.h"

namespace {

int32_t clamp8(int32_t v) { return v < -128 ? -128 : (v > 127 ? 127 : v); }

TEST(DspRequant, NarrowStepClampsLikeTflm) {
  std::mt19937 rng(5);
  const int32_t edges[] = {INT32_MIN, INT32_MIN + 1, -(1 << 30) - 1, -(1 << 30),    -(1 << 30) + 1, -1, 0,
                           1,         (1 << 30) - 1, 1 << 30,        (1 << 30) + 1, INT32_MAX};
  for (int i = 0; i < 300000; ++i) {
    const int32_t acc =
        i % 3 == 0 ? edges[(i / 3) % 12]
                   : (i % 3 == 1 ? static_cast<int32_t>(rng()) : static_cast<int32_t>(rng() % 2000001) - 1000000);
    const int32_t multiplier =
        i % 11 == 0 ? 0 : (i % 13 == 0 ? (1 << 30) : static_cast<int32_t>((1u << 30) + rng() % (1u << 30)));
    const int shift = static_cast<int>(rng() % 25) - 21;  // right shifts up to 21, left shifts up to 3
    const int32_t offset = static_cast<int32_t>(rng() % 257) - 128;
    const microaot_dsp_requant q = microaot_dsp_requant_of(multiplier, shift);
    ASSERT_EQ(clamp8(microaot_dsp_requant_narrow(&q, acc) + offset),
              clamp8(microaot_multiply_by_quantized_multiplier(acc, multiplier, shift) + offset))
        << acc << " " << multiplier << " " << shift << " " << offset;
  }
}

}  // namespace
