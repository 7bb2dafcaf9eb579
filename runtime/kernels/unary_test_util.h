// For the unary kernel tests: TFLite's QuantizeMultiplier computed independently (frexp, the mantissa rounded
// half away from zero) and the params of the rescaling unary kernels.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "microaot/unary.h"
#include "multiplier_test_util.h"

namespace unary_test {

using multiplier_test::Multiplier;
using multiplier_test::quantize;

// Every int8 value, in order.
inline std::vector<int8_t> all_int8() {
  std::vector<int8_t> values;
  for (int v = -128; v < 128; ++v) values.push_back(static_cast<int8_t>(v));
  return values;
}

inline microaot_unary_params_q rescale_params(int32_t size, int32_t input_zp, double real, int32_t output_zp,
                                              int32_t qmin, int32_t qmax) {
  const Multiplier m = quantize(real);
  return {size, -input_zp, m.mantissa, m.shift, output_zp, qmin, qmax};
}

}  // namespace unary_test
