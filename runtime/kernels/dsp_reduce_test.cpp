// The DSP reduce_sum_s8 (host: microaot/internal/dsp.h's C definitions) against the portable kernel: random
// shapes of rank 1 to 4 reduced over random axes, so both of its layouts (channels: the last dimension kept;
// rows: the last dimension reduced) and the template's walk take layers, with channel counts that are and are
// not multiples of four; groups of 255 to 1,025 words all -128 or all 127 (the 16-bit lanes' flushes at their
// extremes); and the rescale as MEAN sets it.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "microaot/kernels/reduce.h"

extern "C" {
void microaot_dsp_reduce_sum_s8(const microaot_reduce_sum_params_q* params, const int8_t* input, int8_t* output);
}

namespace {

int draw(std::mt19937& rng, int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }

// The two walks of a row-major shape reduced over `axes` (a flag per dimension), unmerged as the kernels accept
// them; a walk with nothing to visit is [1], [0].
struct Layer {
  std::vector<int32_t> kept_shape, kept_strides, reduced_shape, reduced_strides;
  int32_t elements = 1, group = 1;

  Layer(const std::vector<int32_t>& shape, const std::vector<bool>& axes) {
    std::vector<int32_t> strides(shape.size(), 1);
    for (size_t d = shape.size() - 1; d > 0; --d) strides[d - 1] = strides[d] * shape[d];
    for (size_t d = 0; d < shape.size(); ++d) {
      (axes[d] ? reduced_shape : kept_shape).push_back(shape[d]);
      (axes[d] ? reduced_strides : kept_strides).push_back(strides[d]);
      elements *= shape[d];
      if (axes[d]) group *= shape[d];
    }
    for (std::vector<int32_t>* walk : {&kept_shape, &reduced_shape}) {
      if (walk->empty()) {
        walk->push_back(1);
        (walk == &kept_shape ? kept_strides : reduced_strides).push_back(0);
      }
    }
  }

  // A rescale as MEAN sets one: between 1 / (2 * group) and 1 / group, the input zero point taken off.
  microaot_reduce_sum_params_q params(int32_t zero_point, int32_t output_offset) const {
    microaot_reduce_sum_params_q p{};
    p.kept_dims = static_cast<int32_t>(kept_shape.size());
    p.kept_shape = kept_shape.data(), p.kept_strides = kept_strides.data();
    p.reduced_dims = static_cast<int32_t>(reduced_shape.size());
    p.reduced_shape = reduced_shape.data(), p.reduced_strides = reduced_strides.data();
    p.sum_offset = -zero_point * group;
    int32_t shift = 1;
    while ((int64_t{1} << (shift - 1)) < group) ++shift;  // 2^(shift - 1) >= group
    p.output_multiplier = static_cast<int32_t>((int64_t{1} << 30) * (int64_t{1} << (shift - 1)) / group);
    p.output_shift = 1 - shift;
    p.output_offset = output_offset;
    return p;
  }
};

void expect_same(const Layer& layer, const std::vector<int8_t>& input, std::mt19937& rng, int id) {
  const microaot_reduce_sum_params_q p = layer.params(draw(rng, -128, 127), draw(rng, -128, 127));
  const size_t outputs = static_cast<size_t>(layer.elements / layer.group);
  std::vector<int8_t> expected(outputs), got(outputs, 0x55);
  microaot_reduce_sum_s8(&p, input.data(), expected.data());
  microaot_dsp_reduce_sum_s8(&p, input.data(), got.data());
  EXPECT_EQ(got, expected) << "case " << id;
}

TEST(DspReduceSumS8, MatchesPortableOverRandomShapesAndAxes) {
  std::mt19937 rng(61);
  for (int i = 0; i < 300; ++i) {
    const int rank = draw(rng, 1, 4);
    std::vector<int32_t> shape;
    std::vector<bool> axes;
    for (int d = 0; d < rank; ++d) {
      shape.push_back(d == rank - 1 ? draw(rng, 1, 40) : draw(rng, 1, 9));
      axes.push_back(draw(rng, 0, 1) == 1);
    }
    const Layer layer(shape, axes);
    std::vector<int8_t> input(static_cast<size_t>(layer.elements));
    for (int8_t& v : input) v = static_cast<int8_t>(draw(rng, -128, 127));
    expect_same(layer, input, rng, i);
  }
}

// Groups at the lanes' bounds: 255, 256, 257 and 1,025 reduced positions, per channel and per row, every value at
// one extreme, so a lane that kept more than 256 values would leave int16.
TEST(DspReduceSumS8, FlushesTheLanesAtTheirExtremes) {
  std::mt19937 rng(67);
  int id = 0;
  for (const int32_t positions : {255, 256, 257, 1025}) {
    for (const int8_t value : {int8_t{-128}, int8_t{127}}) {
      const Layer channels({1, positions, 1, 8}, {false, true, true, false});
      const Layer rows({3, 4 * positions + 3}, {false, true});
      const Layer two_rows({2, 2, 4 * positions}, {false, true, true});
      for (const Layer* layer : {&channels, &rows, &two_rows}) {
        expect_same(*layer, std::vector<int8_t>(static_cast<size_t>(layer->elements), value), rng, id++);
      }
    }
  }
}

}  // namespace
