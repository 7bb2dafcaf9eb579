// For the tests of the forms the compiler fits for int8 binary layers (add_linear_test.cpp,
// mul_folded_test.cpp): the output side of a layer drawn as TFLM's Prepare makes it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>

namespace microaot {

// Sets p's output_offset (a random int8 zero point) and clamp: a ReLU on every third layer, an upper bound 60
// above the zero point on every fifth.
template <typename P>
void draw_output_and_clamp(std::mt19937& rng, P& p) {
  p.output_offset = std::uniform_int_distribution<int32_t>(-128, 127)(rng);
  p.activation_min = rng() % 3 == 0 ? std::max(p.output_offset, -128) : -128;
  p.activation_max = rng() % 5 == 0 ? std::min(p.output_offset + 60, 127) : 127;
}

}  // namespace microaot
