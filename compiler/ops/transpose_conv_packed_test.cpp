// The packed TRANSPOSE_CONV (one packed convolution per stride phase) over what the compiler lays out, in the three
// weight forms, against the portable kernel over the model's weights and bias: random shapes (strides 1 to 3 and
// unequal, filters 1 to 5 and unequal, phases without taps, SAME and VALID, odd depths and channel counts, batches,
// with and without bias, clamps, both ends of the input zero point), byte for byte. On the host the kernels run
// microaot/internal/dsp.h's C definitions; tests/e2e/transpose_conv_qemu_test.cpp runs the instructions.
#include "ops/transpose_conv_packed.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "microaot/fit/transpose_conv.h"
#include "microaot/kernels/packed.h"
#include "microaot/kernels/transpose_conv.h"
#include "microaot/packed_matmul.h"
#include "ops/quant_math.h"

namespace microaot {
namespace {

int draw(std::mt19937& rng, int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }

std::vector<int8_t> random_bytes(std::mt19937& rng, int count) {
  std::vector<int8_t> v(static_cast<size_t>(count));
  for (int8_t& x : v) x = static_cast<int8_t>(draw(rng, -128, 127));
  return v;
}

// One axis of a TFLite transposed convolution: SAME (out = in * stride) or VALID (out = (in - 1) * stride +
// filter), one time in three an output shape one larger or smaller (a model's output shape may be any), and the
// leading padding TFLM derives from the forward convolution of the output (transposed_padding).
void transposed_axis(std::mt19937& rng, int32_t in, int32_t filter, int32_t stride, int32_t& out, int32_t& pad) {
  const bool same = draw(rng, 0, 1) == 1;
  out = same ? in * stride : (in - 1) * stride + filter;
  if (draw(rng, 0, 2) == 0) out = std::max(1, out + (draw(rng, 0, 1) == 0 ? -1 : 1));
  const int32_t forward = same ? (out + stride - 1) / stride : (out - filter) / stride + 1;
  const int32_t total = (forward - 1) * stride + filter - out;
  pad = forward < 0 || total <= 0 ? 0 : total / 2;
}

microaot_transpose_conv_params_q random_geometry(std::mt19937& rng) {
  microaot_transpose_conv_params_q p{};
  p.batches = draw(rng, 1, 2);
  p.input_height = draw(rng, 1, 6), p.input_width = draw(rng, 1, 6);
  p.input_depth = draw(rng, 1, 12);
  p.output_depth = draw(rng, 1, 9);
  p.filter_height = draw(rng, 1, 5), p.filter_width = draw(rng, 1, 5);
  p.stride_height = draw(rng, 1, 3), p.stride_width = draw(rng, 1, 3);
  transposed_axis(rng, p.input_height, p.filter_height, p.stride_height, p.output_height, p.pad_height);
  transposed_axis(rng, p.input_width, p.filter_width, p.stride_width, p.output_width, p.pad_width);
  return p;
}

// The kernels of the three weight forms.
struct Flavour {
  PackedWeights form;
  decltype(&microaot_transpose_conv_s8_packed) kernel;
  const char* name;
};
const Flavour kFlavours[] = {
    {PackedWeights::kInt8, microaot_transpose_conv_s8_packed, "int8 weights"},
    {PackedWeights::kInt16, microaot_transpose_conv_s8_packed_w16, "int16 weights"},
    {PackedWeights::kInt8Raw, microaot_transpose_conv_s8_packed_raw, "int8 weights, raw form"},
};

// Outputs compared, and of those neither clamp bound.
struct Counts {
  int compared = 0, inside = 0, packed = 0, raw = 0, unified = 0;
};

// Case i of geometry p through every form against the portable kernel; the quantization scales a typical sum of
// a window's products to a few tens of output steps.
void expect_matches(std::mt19937& rng, microaot_transpose_conv_params_q p, int i, Counts& counts) {
  const int32_t window = p.filter_height * p.filter_width * p.input_depth, units = p.output_depth;
  std::vector<int32_t> multiplier, shift, bias;
  for (int u = 0; u < units; ++u) {
    const QuantizedMultiplier m = quantize_multiplier(draw(rng, 20, 60) / (128.0 * 64.0 * std::sqrt(window)));
    multiplier.push_back(m.multiplier), shift.push_back(m.shift), bias.push_back(draw(rng, -5000, 5000));
  }
  const int32_t extreme_offsets[] = {-127, 128};  // zero points 127 and -128
  p.input_offset = i % 3 == 0 ? -draw(rng, -128, 127) : extreme_offsets[i % 2];
  p.output_offset = draw(rng, -20, 20);
  p.activation_min = i % 2 == 0 ? -128 : p.output_offset;
  p.activation_max = i % 3 == 0 ? std::min(127, p.output_offset + draw(rng, 5, 40)) : 127;
  p.output_multiplier = multiplier.data(), p.output_shift = shift.data();
  if (i % 4 == 0) bias.clear();
  const auto input = random_bytes(rng, p.batches * p.input_height * p.input_width * p.input_depth);
  const auto filter = random_bytes(rng, units * window);
  const size_t out_size = static_cast<size_t>(p.batches * p.output_height * p.output_width * units);
  std::vector<int8_t> expected(out_size);
  microaot_transpose_conv_s8(&p, input.data(), filter.data(), bias.empty() ? nullptr : bias.data(), expected.data());
  const PackedRequant requant{{multiplier.begin(), multiplier.end()}, {shift.begin(), shift.end()},
                              p.output_offset, p.activation_min, p.activation_max};
  microaot_transpose_conv_params_q bare = p;
  bare.output_multiplier = nullptr, bare.output_shift = nullptr;
  const size_t scratch_bytes = MICROAOT_TRANSPOSE_CONV_PACKED_BYTES(static_cast<size_t>(microaot_tconv_max_window(&p)),
                                                                    static_cast<size_t>(microaot_tconv_units(&p)));
  for (const Flavour& f : kFlavours) {
    const PackedPhases packed = pack_transpose_conv(p, filter, bias, requant, f.form);
    if (packed.table.empty()) continue;  // the layer keeps the portable kernel (or, raw, the int8 words)
    counts.packed += f.form == PackedWeights::kInt8;
    counts.unified +=
        f.form == PackedWeights::kInt8 && p.stride_height * p.stride_width > 1 && microaot_tconv_unified(&p);
    counts.raw += f.form == PackedWeights::kInt8Raw;
    std::vector<uint32_t> scratch((scratch_bytes + 3) / 4, 0xa5a5a5a5u);  // exact size, garbage
    std::vector<int8_t> got(out_size, int8_t{-99});
    ASSERT_EQ(f.kernel(&bare, input.data(), packed.words.data(), packed.table.data(), got.data(), scratch.data()),
              MICROAOT_STATUS_OK);
    ASSERT_EQ(got, expected) << "case " << i << ", " << f.name << ": " << p.input_height << "x" << p.input_width
                             << "x" << p.input_depth << " -> " << p.output_height << "x" << p.output_width << "x"
                             << units << ", filter " << p.filter_height << "x" << p.filter_width << ", stride "
                             << p.stride_height << "x" << p.stride_width << ", pad " << p.pad_height << "x"
                             << p.pad_width;
  }
  counts.compared += static_cast<int>(expected.size());
  for (int8_t v : expected) counts.inside += v != p.activation_min && v != p.activation_max;
}

TEST(PackedTransposeConv, MatchesPortableOnRandomShapes) {
  std::mt19937 rng(61);
  Counts counts;
  for (int i = 0; i < 500; ++i) expect_matches(rng, random_geometry(rng), i, counts);
  EXPECT_GT(counts.inside, counts.compared / 2);
  EXPECT_GT(counts.packed, 450);
  EXPECT_GT(counts.raw, 100);
  EXPECT_GT(counts.unified, 50);  // phases run as one convolution (filters a multiple of a stride above 1)
}

// Decoder-like layers: many channels, 4x4 and 3x3 filters at stride 2, windows up to one chunk.
TEST(PackedTransposeConv, MatchesPortableOnDecoderLayers) {
  std::mt19937 rng(67);
  Counts counts;
  for (int i = 0; i < 12; ++i) {
    microaot_transpose_conv_params_q p = random_geometry(rng);
    p.input_depth = draw(rng, 24, 40), p.output_depth = draw(rng, 8, 20);
    p.filter_height = p.filter_width = draw(rng, 2, 4), p.stride_height = p.stride_width = 2;
    transposed_axis(rng, p.input_height, p.filter_height, p.stride_height, p.output_height, p.pad_height);
    transposed_axis(rng, p.input_width, p.filter_width, p.stride_width, p.output_width, p.pad_width);
    expect_matches(rng, p, i, counts);
  }
  EXPECT_GT(counts.inside, counts.compared / 2);
  EXPECT_EQ(counts.packed, 12);
}

// The phases' weights: a 3-tap axis at stride 2 takes taps 2 and 0 (reversed) in phase 0 and tap 1 in phase 1;
// the 1-tap axis at stride 2 has a phase without taps (zeros).
TEST(PackedTransposeConv, PhasesTakeTheirTapsReversed) {
  microaot_transpose_conv_params_q p{};
  p.input_depth = 1, p.output_depth = 1;
  p.filter_height = 1, p.filter_width = 3, p.stride_height = p.stride_width = 2;
  const std::vector<int8_t> filter = {10, 11, 12};
  EXPECT_EQ(transpose_conv_phase_weights(p, filter, 0, 0), (std::vector<int8_t>{12, 10}));
  EXPECT_EQ(transpose_conv_phase_weights(p, filter, 0, 1), (std::vector<int8_t>{11}));
  EXPECT_EQ(transpose_conv_phase_weights(p, filter, 1, 0), (std::vector<int8_t>{0, 0}));  // no row tap, 2 column taps
  EXPECT_EQ(transpose_conv_phase_weights(p, filter, 1, 1), (std::vector<int8_t>{0}));
}

// A call without the table, or with params outside the fit (a graph blob is untrusted), writes nothing.
TEST(PackedTransposeConv, RefusesACallWithoutTheTableOrOutsideTheFit) {
  microaot_transpose_conv_params_q p{};
  p.batches = p.input_height = p.input_width = p.input_depth = p.output_depth = 1;
  p.filter_height = p.filter_width = p.stride_height = p.stride_width = 1;
  p.output_height = p.output_width = 1;
  p.activation_min = -128, p.activation_max = 127;
  const int8_t input = 5;
  const int32_t words[4] = {1, 0, 0, 0}, table[MICROAOT_PACKED_STEP_WORDS] = {};
  uint32_t scratch[16] = {};
  int8_t out = 42;
  EXPECT_EQ(microaot_transpose_conv_s8_packed(&p, &input, words, nullptr, &out, scratch), MICROAOT_STATUS_NULL_POINTER);
  p.input_depth = MICROAOT_PACKED_CHUNK + 1;
  EXPECT_EQ(microaot_transpose_conv_s8_packed(&p, &input, words, table, &out, scratch),
            MICROAOT_STATUS_VALUE_OUT_OF_RANGE);
  EXPECT_EQ(out, 42);
}

}  // namespace
}  // namespace microaot
