// For the tests of the element-wise binary kernels: TFLite's multiplier quantization, computed independently
// of the compiler, and the broadcast, input rescale and output rescale fields of a params struct.
#pragma once

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "multiplier_test_util.h"

namespace binary_test {

using multiplier_test::Multiplier;
using multiplier_test::quantize;

// A random int in [lo, hi].
inline int draw(std::mt19937& rng, int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }

// An input's strides over `shape`: per dimension its row-major stride, 0 (broadcast) or twice the stride.
inline std::vector<int32_t> input_strides(std::mt19937& rng, const std::vector<int32_t>& shape, int32_t* span) {
  std::vector<int32_t> strides(shape.size());
  int32_t stride = 1;
  *span = 1;
  for (size_t d = shape.size(); d-- > 0;) {
    const int kind = draw(rng, 0, 5);
    strides[d] = kind == 0 ? 0 : kind == 1 ? 2 * stride : stride;
    *span += strides[d] * (shape[d] - 1);
    stride *= 2 * shape[d];
  }
  return strides;
}

// n random int8 values.
inline std::vector<int8_t> random_bytes(std::mt19937& rng, size_t n) {
  std::vector<int8_t> v(n);
  for (int8_t& x : v) x = static_cast<int8_t>(draw(rng, -128, 127));
  return v;
}

// Sets the MICROAOT_BROADCAST_FIELDS of p: a flat walk of n elements, or with a shape and strides of num_dims.
template <typename P>
void set_walk(P& p, int32_t n, int32_t num_dims = 0, const int32_t* shape = nullptr, const int32_t* strides1 = nullptr,
              const int32_t* strides2 = nullptr) {
  p.flat_size = n;
  p.num_dims = num_dims;
  p.output_shape = shape;
  p.input1_strides = strides1;
  p.input2_strides = strides2;
}

// Sets input<k>_offset (-z<k>), input<k>_multiplier and input<k>_shift (m<k>) and left_shift.
template <typename P>
void set_input_rescale(P& p, int32_t z1, Multiplier m1, int32_t z2, Multiplier m2, int left_shift) {
  p.input1_offset = -z1;
  p.input1_multiplier = m1.mantissa;
  p.input1_shift = m1.shift;
  p.input2_offset = -z2;
  p.input2_multiplier = m2.mantissa;
  p.input2_shift = m2.shift;
  p.left_shift = left_shift;
}

// Sets output_multiplier and output_shift (m), output_offset (zo) and the clamp [qmin, qmax].
template <typename P>
void set_output_rescale(P& p, Multiplier m, int32_t zo, int32_t qmin, int32_t qmax) {
  p.output_multiplier = m.mantissa;
  p.output_shift = m.shift;
  p.output_offset = zo;
  p.activation_min = qmin;
  p.activation_max = qmax;
}

}  // namespace binary_test
