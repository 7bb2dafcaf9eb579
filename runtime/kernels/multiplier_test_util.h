// For kernel tests: TFLite's QuantizeMultiplier computed independently of the compiler (frexp, the mantissa
// rounded half away from zero, 2^31 folded into the exponent).
#pragma once

#include <cmath>
#include <cstdint>

namespace multiplier_test {

struct Multiplier {
  int32_t mantissa;
  int32_t shift;
};

inline Multiplier quantize(double real) {
  int exponent = 0;
  int64_t mantissa = std::llround(std::frexp(real, &exponent) * 2147483648.0);
  if (mantissa == (1LL << 31)) {
    mantissa /= 2;
    ++exponent;
  }
  return {static_cast<int32_t>(mantissa), exponent};
}

}  // namespace multiplier_test
