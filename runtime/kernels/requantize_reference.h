// For kernel tests: TFLite's two requantizations written from their definitions with plain 64-bit
// arithmetic (floor division, explicit ties), sharing no code with microaot/fixedpoint.h.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>

namespace requantize_reference {

// floor(x / 2^e).
inline int64_t floor_div_pow2(int64_t x, int e) {
  const int64_t d = int64_t{1} << e;
  return x >= 0 ? x / d : -((-x + d - 1) / d);
}

// 32-bit accumulators (int8, and int16 with a 32-bit bias): acc * multiplier / 2^31 rounded half up
// (gemmlowp's doubling high multiply, after a wrapping left shift), then / 2^-shift rounded half away from
// zero.
inline int32_t requantize_s32(int32_t acc, int32_t multiplier, int shift) {
  const auto shifted = static_cast<int32_t>(static_cast<uint32_t>(acc) << std::max(shift, 0));
  int32_t high = INT32_MAX;
  if (!(shifted == INT32_MIN && multiplier == INT32_MIN)) {
    const int64_t p = int64_t{shifted} * multiplier;
    high = static_cast<int32_t>(p >= 0 ? floor_div_pow2(p + (int64_t{1} << 30), 31)
                                       : -floor_div_pow2(-p + (int64_t{1} << 30) - 1, 31));
  }
  const int right = std::max(-shift, 0);
  if (right == 0) return high;
  const int64_t magnitude = (std::llabs(high) + (int64_t{1} << (right - 1))) >> right;
  return static_cast<int32_t>(high < 0 ? -magnitude : magnitude);
}

// 64-bit accumulators (TFLite's 16x8 kernels): the multiplier rounded to its top 16 bits (half up, at most
// 0x7FFF), then acc * that / 2^(15 - shift) rounded half up.
inline int32_t requantize_s64(int64_t acc, int32_t multiplier, int shift) {
  const int64_t reduced = std::min<int64_t>(floor_div_pow2(int64_t{multiplier} + (1 << 15), 16), 0x7FFF);
  const int e = 15 - shift;
  return static_cast<int32_t>(floor_div_pow2(acc * reduced + (int64_t{1} << (e - 1)), e));
}

}  // namespace requantize_reference
