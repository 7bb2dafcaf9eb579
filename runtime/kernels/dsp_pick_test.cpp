// The DSP maximum_s8 and minimum_s8 (host: microaot/internal/dsp.h's C definitions) against the portable
// kernels: random walks of one to three dimensions where each input steps by one, is broadcast (step 0) or is
// strided along a dimension, rows of 1 to 19 elements (words and the last one to three elements), the flat
// form (num_dims 0), and the extremes -128 and 127.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "binary_kernel_test_util.h"
#include "microaot/kernels/maximum_minimum.h"

extern "C" {
void microaot_dsp_maximum_s8(const microaot_binary_params* params, const int8_t* input1, const int8_t* input2,
                             int8_t* output);
void microaot_dsp_minimum_s8(const microaot_binary_params* params, const int8_t* input1, const int8_t* input2,
                             int8_t* output);
}

namespace {

using binary_test::draw;
using binary_test::input_strides;

TEST(DspMaximumMinimumS8, MatchPortableOnRandomWalks) {
  std::mt19937 rng(89);
  for (int trial = 0; trial < 300; ++trial) {
    const int dims = draw(rng, 0, 3);
    std::vector<int32_t> shape;
    int32_t flat = 1;
    for (int d = 0; d < dims; ++d) shape.push_back(d + 1 == dims ? draw(rng, 1, 19) : draw(rng, 1, 4));
    for (int32_t s : shape) flat *= s;
    if (dims == 0) flat = draw(rng, 1, 40);
    int32_t span1 = flat, span2 = flat;
    const std::vector<int32_t> s1 = dims == 0 ? std::vector<int32_t>{} : input_strides(rng, shape, &span1);
    const std::vector<int32_t> s2 = dims == 0 ? std::vector<int32_t>{} : input_strides(rng, shape, &span2);
    std::vector<int8_t> a(static_cast<size_t>(span1)), b(static_cast<size_t>(span2));
    const int extreme = trial % 7;
    for (int8_t& v : a) v = static_cast<int8_t>(extreme == 0 ? -128 : extreme == 1 ? 127 : draw(rng, -128, 127));
    for (int8_t& v : b) v = static_cast<int8_t>(extreme == 1 ? -128 : extreme == 0 ? 127 : draw(rng, -128, 127));
    const microaot_binary_params p = {flat, dims, shape.data(), s1.data(), s2.data()};
    std::vector<int8_t> want(static_cast<size_t>(flat)), got(want.size(), 0x55);
    microaot_maximum_s8(&p, a.data(), b.data(), want.data());
    microaot_dsp_maximum_s8(&p, a.data(), b.data(), got.data());
    EXPECT_EQ(got, want) << "maximum, trial " << trial;
    microaot_minimum_s8(&p, a.data(), b.data(), want.data());
    microaot_dsp_minimum_s8(&p, a.data(), b.data(), got.data());
    EXPECT_EQ(got, want) << "minimum, trial " << trial;
  }
}

}  // namespace
