// The packed layout and the folded bias (by hand), then the packed kernels over what the compiler packs against the
// portable kernels over the model's weights and bias: random shapes, zero points, strides and multipliers, byte for
// byte; without the output step's table they refuse the call (on the host the kernels run microaot/dsp.h's C
// definitions; the Cortex-M e2e tests run the instructions).
#include "ops/packed_weights.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "microaot/kernels/conv.h"
#include "microaot/kernels/fully_connected.h"
#include "microaot/kernels/packed.h"
#include "microaot/packed_matmul.h"
#include "ops/quant_math.h"

namespace microaot {
namespace {

// 3 units of 5: unit u element k = 10 * u + k + 1 (unit 2 negative), so each byte names its place.
std::vector<int8_t> weights_naming_their_places() {
  std::vector<int8_t> w;
  for (int u = 0; u < 3; ++u) {
    for (int k = 0; k < 5; ++k) w.push_back(static_cast<int8_t>((u == 2 ? -1 : 1) * (10 * u + k + 1)));
  }
  return w;
}

void expect_words(const std::vector<int32_t>& words, const std::vector<uint32_t>& expected) {
  ASSERT_EQ(words.size(), expected.size());
  for (size_t i = 0; i < words.size(); ++i) EXPECT_EQ(static_cast<uint32_t>(words[i]), expected[i]) << i;
}

TEST(PackedWeights, PairsUnitsAndGroupsFourElementsPerWord) {
  const std::vector<int32_t> words = pack_weight_words(weights_naming_their_places(), 3, 5, PackedWeights::kInt8);
  expect_words(words, {
      0x04030201u, 0x0E0D0C0Bu,  // pair 0, elements 0..3: unit 0 then unit 1
      0x00000005u, 0x0000000Fu,  // elements 4..7: element 4, then zeros past the depth
      0xE8E9EAEBu, 0x00000000u,  // pair 1: unit 2 (-21..-24) beside the zero unit
      0x000000E7u, 0x00000000u,  // unit 2 element 4 (-25)
  });
}

// The int16 form of the same weights: per unit and group, elements (0, 2) then (1, 3) as int16 lanes, low first.
TEST(PackedWeights, Int16FormHoldsEvenThenOddElementsPerUnit) {
  const std::vector<int32_t> words = pack_weight_words(weights_naming_their_places(), 3, 5, PackedWeights::kInt16);
  expect_words(words, {
      0x00030001u, 0x00040002u, 0x000D000Bu, 0x000E000Cu,  // pair 0, elements 0..3: unit 0 (1 3, 2 4), unit 1
      0x00000005u, 0x00000000u, 0x0000000Fu, 0x00000000u,  // elements 4..7: element 4, zeros past the depth
      0xFFE9FFEBu, 0xFFE8FFEAu, 0x00000000u, 0x00000000u,  // pair 1: unit 2 (-21 -23, -22 -24), the zero unit
      0x0000FFE7u, 0x00000000u, 0x00000000u, 0x00000000u,  // unit 2 element 4 (-25)
  });
}

// Speed takes the int16 form, balanced the int8 one.
TEST(PackedWeights, FormFollowsTheOptimizeSetting) {
  Target speed;
  speed.dsp = true;
  Target balanced = speed;
  balanced.optimize_balanced = true;
  EXPECT_EQ(packed_weights_form(speed), PackedWeights::kInt16);
  EXPECT_EQ(packed_weights_form(balanced), PackedWeights::kInt8);
}

TEST(PackedWeights, FoldsTheInputOffsetIntoTheBias) {
  const std::vector<int8_t> w = {1, 2, 3, -4, -5, -6};  // sums 6 and -15
  EXPECT_EQ(fold_input_offset({100, -100}, w, 2, 3, 7), (std::vector<int32_t>{142, -205}));
  EXPECT_EQ(fold_input_offset({}, w, 2, 3, -128), (std::vector<int32_t>{-768, 1920}));
  // The sums wrap as the kernel's int32 sums do.
  EXPECT_EQ(fold_input_offset({INT32_MAX}, {1}, 1, 1, 1), (std::vector<int32_t>{INT32_MIN}));
}

TEST(PackedWeights, RefusesTargetsUnitsAndWeightZeroPoints) {
  Target dsp;
  dsp.dsp = true;
  EXPECT_EQ(packed_refusal(dsp, kPackedMinUnits, 0, kPackedMinUnits), "");
  EXPECT_EQ(packed_refusal(dsp, 1, 0, kPackedConvMinUnits), "");  // a convolution of one output channel
  EXPECT_EQ(packed_refusal(Target{}, 8, 0, kPackedMinUnits), "not packed: the target has no DSP extension");
  Target size = dsp;
  size.optimize_size = true;
  EXPECT_EQ(packed_refusal(size, 8, 0, kPackedMinUnits), "not packed: --optimize size");
  EXPECT_EQ(packed_refusal(dsp, 8, -3, kPackedMinUnits), "not packed: the weights have a zero point");
  EXPECT_EQ(packed_refusal(dsp, 2, 0, kPackedMinUnits), "not packed: 2 units do not repay widening the input rows");
}

// Rows longer than MICROAOT_PACKED_CHUNK are laid out chunk after chunk, each chunk's words those of a row of its
// length; a shorter row is one chunk; the scratch stays bounded whatever the depth.
TEST(PackedWeights, LongRowsAreLaidOutChunkByChunk) {
  EXPECT_EQ(MICROAOT_PACKED_CHUNK_LENGTH(640), 640);
  EXPECT_EQ(MICROAOT_PACKED_CHUNK_LENGTH(641), 324);  // 324 + 317
  EXPECT_EQ(MICROAOT_PACKED_CHUNK_LENGTH(1152), 576);
  EXPECT_EQ(MICROAOT_PACKED_CHUNK_LENGTH(4000), 572);  // 7 chunks, the last 568
  std::mt19937 rng(19);
  std::vector<int8_t> weights(3 * 1152);
  for (int8_t& w : weights) w = static_cast<int8_t>(rng());
  std::vector<int8_t> first(3 * 576), second(3 * 576);
  for (size_t u = 0; u < 3; ++u) {
    std::copy_n(weights.begin() + static_cast<std::ptrdiff_t>(u * 1152), 576, first.begin() + static_cast<std::ptrdiff_t>(u * 576));
    std::copy_n(weights.begin() + static_cast<std::ptrdiff_t>(u * 1152 + 576), 576,
                second.begin() + static_cast<std::ptrdiff_t>(u * 576));
  }
  for (PackedWeights form : {PackedWeights::kInt8, PackedWeights::kInt16}) {
    std::vector<int32_t> expected = pack_weight_words(first, 3, 576, form);
    const std::vector<int32_t> tail = pack_weight_words(second, 3, 576, form);
    expected.insert(expected.end(), tail.begin(), tail.end());
    EXPECT_EQ(pack_weight_words(weights, 3, 1152, form), expected);
  }
  EXPECT_EQ(packed_rows_bytes(640, 100), 4 * 640);  // one chunk: no sums
  EXPECT_EQ(packed_rows_bytes(100000, 10), 4 * MICROAOT_PACKED_CHUNK_LENGTH(100000) + 4 * 2 * 10);
  // The k x k kernel's: three rows and a window of a chunk (three windows where the layer's are all gathered:
  // rows of 12 or not of whole groups), then (past one chunk) three rows' sums.
  EXPECT_EQ(MICROAOT_PACKED_WINDOWS_BYTES(640, 64, 9), 7 * 640);
  EXPECT_EQ(MICROAOT_PACKED_WINDOWS_BYTES(640, 16, 9), 7 * 640);
  EXPECT_EQ(MICROAOT_PACKED_WINDOWS_BYTES(640, 12, 9), 9 * 640);
  EXPECT_EQ(MICROAOT_PACKED_WINDOWS_BYTES(27, 9, 9), 9 * 28);
  EXPECT_EQ(MICROAOT_PACKED_WINDOWS_BYTES(100000, 2000, 9), 7 * MICROAOT_PACKED_CHUNK_LENGTH(100000) + 4 * 3 * 10);
  EXPECT_EQ(MICROAOT_PACKED_WINDOWS_BYTES(100000, 2001, 9), 7 * MICROAOT_PACKED_CHUNK_LENGTH(100000) + 4 * 3 * 10);
  EXPECT_LE(MICROAOT_PACKED_WINDOWS_BYTES(100000, 2000, 9), 7 * MICROAOT_PACKED_CHUNK + 4 * 3 * 10);
  EXPECT_EQ(packed_pixel_rows_bytes(640, 100), 6 * 640);
  EXPECT_EQ(packed_pixel_rows_bytes(100000, 10), 6 * MICROAOT_PACKED_CHUNK_LENGTH(100000) + 4 * 3 * 10);
}

int draw(std::mt19937& rng, int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }

std::vector<int8_t> random_bytes(std::mt19937& rng, int count, int lowest = -128) {
  std::vector<int8_t> v(static_cast<size_t>(count));
  for (int8_t& x : v) x = static_cast<int8_t>(draw(rng, lowest, 127));
  return v;
}

// Requantization for `units` channels scaling sums of `depth` products to a few tens, offsets, clamp.
struct Quant {
  std::vector<int32_t> multiplier, shift, bias;
  int32_t input_offset, output_offset, activation_min, activation_max;
};

Quant random_quant(std::mt19937& rng, int units, int depth) {
  Quant q{{}, {}, {}, -draw(rng, -128, 127), draw(rng, -20, 20), -128, 127};
  if (draw(rng, 0, 1) == 1) q.activation_min = q.output_offset;
  // A narrower top (ReLU6-like): the packed kernels clamp their saturated rows afterwards.
  if (draw(rng, 0, 2) == 0) q.activation_max = std::min(127, q.output_offset + draw(rng, 5, 40));
  for (int u = 0; u < units; ++u) {
    const QuantizedMultiplier m = quantize_multiplier(draw(rng, 20, 60) / (128.0 * 64.0 * std::sqrt(depth)));
    q.multiplier.push_back(m.multiplier);
    q.shift.push_back(m.shift);
    q.bias.push_back(draw(rng, -5000, 5000));
  }
  return q;
}

template <typename Params>
void set_quant(Params& p, const Quant& q) {
  p.input_offset = q.input_offset, p.output_offset = q.output_offset;
  p.activation_min = q.activation_min, p.activation_max = q.activation_max;
  p.output_multiplier = q.multiplier.data(), p.output_shift = q.shift.data();
}

// Outputs compared, and of those neither clamp bound: the comparison must see enough of them to mean something.
struct Counts {
  int compared = 0, inside = 0;
  void add(const std::vector<int8_t>& out) {
    compared += static_cast<int>(out.size());
    for (int8_t v : out) inside += v != -128 && v != 127;
  }
};

// What lowering hands the packed kernels: the packed words and the output step's table with the folded bias
// (empty: the layer keeps the unpacked kernel); the input offset becomes 0.
struct Packed {
  std::vector<int32_t> words, requant;
};

// Scratch of exactly `bytes` (ASan sees an overrun), word aligned as the planner's, full of garbage: the
// kernels must write what they read.
struct Scratch {
  explicit Scratch(size_t bytes) : words((bytes + 3) / 4, 0xa5a5a5a5u) {}
  void* data() { return words.data(); }
  std::vector<uint32_t> words;
};

// The packed kernels of one weight form, as lowering pairs them.
struct Flavour {
  PackedWeights form;
  decltype(&microaot_fully_connected_s8_packed) fully_connected;
  decltype(&microaot_conv_2d_s8_packed) pointwise, pointwise_overlap, window, window_overlap;
  const char* name;
};
const Flavour kFlavours[] = {
    {PackedWeights::kInt8, microaot_fully_connected_s8_packed, microaot_conv_2d_s8_packed,
     microaot_conv_2d_s8_packed_overlap, microaot_conv_2d_s8_packed_kxk, microaot_conv_2d_s8_packed_kxk_overlap,
     "int8 weights"},
    {PackedWeights::kInt16, microaot_fully_connected_s8_packed_w16, microaot_conv_2d_s8_packed_w16,
     microaot_conv_2d_s8_packed_w16_overlap, microaot_conv_2d_s8_packed_kxk_w16,
     microaot_conv_2d_s8_packed_kxk_w16_overlap, "int16 weights"},
    {PackedWeights::kInt8Raw, microaot_fully_connected_s8_packed_raw, microaot_conv_2d_s8_packed_raw,
     microaot_conv_2d_s8_packed_raw_overlap, microaot_conv_2d_s8_packed_kxk_raw,
     microaot_conv_2d_s8_packed_kxk_raw_overlap, "int8 weights, raw form"},
};

template <typename Params>
Packed pack_for_kernel(const std::vector<int8_t>& weights, const std::vector<int32_t>& bias, Params& p,
                       PackedWeights form = PackedWeights::kInt8) {
  const int32_t units = p.output_depth, depth = p.input_depth;
  const std::vector<int32_t> folded = fold_input_offset(bias, weights, units, depth, p.input_offset);
  const PackedRequant requant{{p.output_multiplier, p.output_multiplier + units}, {p.output_shift, p.output_shift + units},
                              p.output_offset};
  const std::vector<int32_t> stage = packed_output_stage(folded, weights, units, depth, requant);
  const Packed packed{pack_weight_words(weights, units, depth, form),
                      form == PackedWeights::kInt8Raw ? raw_form_stage(stage, weights, units, depth) : stage};
  p.input_offset = 0;
  return packed;
}

// The params as the compiler emits them beside the output step's table: no per-channel arrays.
template <typename Params>
Params without_channel_arrays(Params p) {
  p.output_multiplier = nullptr;
  p.output_shift = nullptr;
  return p;
}

// A FULLY_CONNECTED as the 1x1 CONV_2D over one image row of `batches` pixels that computes it, as the k x k
// kernel takes it when the model links that kernel (compiler/kernels/share_kernels.cpp).
microaot_conv_2d_params_q pixel_conv_of(const microaot_fully_connected_params_q& fc) {
  microaot_conv_2d_params_q p{};
  p.batches = p.input_height = p.output_height = 1;
  p.input_width = p.output_width = fc.batches;
  p.input_depth = p.filter_depth = fc.input_depth;
  p.output_depth = fc.output_depth;
  p.filter_height = p.filter_width = p.stride_height = p.stride_width = p.dilation_height = p.dilation_width = 1;
  p.input_offset = fc.input_offset, p.output_offset = fc.output_offset;
  p.activation_min = fc.activation_min, p.activation_max = fc.activation_max;
  p.output_multiplier = fc.output_multiplier, p.output_shift = fc.output_shift;
  return p;
}

// The packed FULLY_CONNECTED of both weight forms, when the compiler gives the output step's table, against the
// portable kernel; the same through the k x k CONV_2D kernel.
void expect_fully_connected_matches(const microaot_fully_connected_params_q& model, const std::vector<int8_t>& input,
                                    const std::vector<int8_t>& weights, const std::vector<int32_t>& bias,
                                    const std::string& what, int* packed = nullptr, int* raw = nullptr) {
  std::vector<int8_t> expected(static_cast<size_t>(model.batches * model.output_depth)), got(expected.size());
  microaot_fully_connected_s8(&model, input.data(), weights.data(), bias.empty() ? nullptr : bias.data(),
                              expected.data());
  for (const Flavour& f : kFlavours) {
    microaot_fully_connected_params_q p = model;
    const Packed k = pack_for_kernel(weights, bias, p, f.form);
    Scratch rows(MICROAOT_PACKED_ROWS_BYTES(static_cast<size_t>(p.input_depth), static_cast<size_t>(p.output_depth)));
    if (k.requant.empty()) continue;
    if (packed != nullptr && f.form == PackedWeights::kInt8) ++*packed;
    if (raw != nullptr && f.form == PackedWeights::kInt8Raw) ++*raw;
    const microaot_fully_connected_params_q bare = without_channel_arrays(p);
    ASSERT_EQ(f.fully_connected(&bare, input.data(), k.words.data(), k.requant.data(), got.data(), rows.data()),
              MICROAOT_STATUS_OK);
    ASSERT_EQ(got, expected) << what << " (" << f.name << ")";
    std::fill(got.begin(), got.end(), int8_t{-99});
    const microaot_conv_2d_params_q bare_conv = pixel_conv_of(bare);
    Scratch pixel_rows(
        MICROAOT_PACKED_PIXEL_ROWS_BYTES(static_cast<size_t>(p.input_depth), static_cast<size_t>(p.output_depth)));
    ASSERT_EQ(f.window(&bare_conv, input.data(), k.words.data(), k.requant.data(), got.data(), pixel_rows.data()),
              MICROAOT_STATUS_OK);
    ASSERT_EQ(got, expected) << what << " (k x k kernel, " << f.name << ")";
  }
}

TEST(PackedKernels, FullyConnectedMatchesPortable) {
  std::mt19937 rng(23);
  Counts counts;
  int packed = 0, raw = 0;
  for (int i = 0; i < 300; ++i) {
    microaot_fully_connected_params_q p{};
    p.batches = draw(rng, 1, 4), p.input_depth = draw(rng, 1, 70), p.output_depth = draw(rng, 1, 9);
    if (i % 25 == 0) p.input_depth = 641 + 11 * i;  // rows reduced in chunks (up to 3,941 elements: 7 chunks)
    const Quant q = random_quant(rng, p.output_depth, p.input_depth);
    set_quant(p, q);
    const auto input = random_bytes(rng, p.batches * p.input_depth);
    const auto weights = random_bytes(rng, p.output_depth * p.input_depth);
    const std::vector<int32_t> bias = i % 4 == 0 ? std::vector<int32_t>{} : q.bias;
    std::vector<int8_t> expected(static_cast<size_t>(p.batches * p.output_depth));
    microaot_fully_connected_s8(&p, input.data(), weights.data(), bias.empty() ? nullptr : bias.data(),
                                expected.data());
    expect_fully_connected_matches(p, input, weights, bias, "case " + std::to_string(i), &packed, &raw);
    counts.add(expected);
  }
  EXPECT_GT(counts.inside, counts.compared / 2);
  EXPECT_GT(packed, 250);
  EXPECT_GT(raw, 150);  // the raw form where its bounds hold (no -128 after a negative weight, sums below 2^23)
}

// 1x1 layers through the 1x1 kernel and through the k x k kernel (its pixel rows, three at a time), with the 1x1
// lowering's params and words, each kernel in its scratch.
TEST(PackedKernels, PointwiseConvMatchesPortablePlainAndOverlap) {
  std::mt19937 rng(29);
  Counts counts;
  int packed = 0, raw = 0;
  for (int i = 0; i < 300; ++i) {
    microaot_conv_2d_params_q p{};
    p.batches = draw(rng, 1, 2), p.input_height = draw(rng, 1, 6), p.input_width = draw(rng, 1, 7);
    p.input_depth = p.filter_depth = draw(rng, 1, 40), p.output_depth = draw(rng, 1, 9);
    if (i % 30 == 0) p.input_depth = p.filter_depth = draw(rng, 641, 2600);  // pixels reduced in chunks
    p.filter_height = p.filter_width = p.dilation_height = p.dilation_width = 1;
    p.stride_height = draw(rng, 1, 2), p.stride_width = draw(rng, 1, 2);
    p.output_height = (p.input_height - 1) / p.stride_height + 1;
    p.output_width = (p.input_width - 1) / p.stride_width + 1;
    const Quant q = random_quant(rng, p.output_depth, p.input_depth);
    set_quant(p, q);
    const auto input = random_bytes(rng, p.batches * p.input_height * p.input_width * p.input_depth);
    const auto filter = random_bytes(rng, p.output_depth * p.input_depth);
    const size_t out_size = static_cast<size_t>(p.batches * p.output_height * p.output_width * p.output_depth);
    std::vector<int8_t> expected(out_size), got(out_size), got_overlap(out_size);
    const size_t rows_bytes =
        MICROAOT_PACKED_ROWS_BYTES(static_cast<size_t>(p.input_depth), static_cast<size_t>(p.output_depth));
    const size_t pixel_rows_bytes =
        MICROAOT_PACKED_PIXEL_ROWS_BYTES(static_cast<size_t>(p.input_depth), static_cast<size_t>(p.output_depth));
    const size_t output_row = static_cast<size_t>(p.output_width * p.output_depth);
    Scratch rows(rows_bytes), rows_and_output_row(rows_bytes + output_row);
    Scratch pixel_rows(pixel_rows_bytes), pixel_rows_and_output_row(pixel_rows_bytes + output_row);
    microaot_conv_2d_s8(&p, input.data(), filter.data(), q.bias.data(), expected.data());
    for (const Flavour& f : kFlavours) {
      microaot_conv_2d_params_q packed_params = p;
      const Packed k = pack_for_kernel(filter, q.bias, packed_params, f.form);
      if (k.requant.empty()) continue;  // the layer keeps the unpacked kernel
      packed += f.form == PackedWeights::kInt8;
      raw += f.form == PackedWeights::kInt8Raw;
      const microaot_conv_2d_params_q used = without_channel_arrays(packed_params);
      ASSERT_EQ(f.pointwise(&used, input.data(), k.words.data(), k.requant.data(), got.data(), rows.data()),
                MICROAOT_STATUS_OK);
      ASSERT_EQ(f.pointwise_overlap(&used, input.data(), k.words.data(), k.requant.data(), got_overlap.data(),
                                    rows_and_output_row.data()),
                MICROAOT_STATUS_OK);
      ASSERT_EQ(got, expected) << "case " << i << ", " << f.name;
      ASSERT_EQ(got_overlap, expected) << "case " << i << ", " << f.name;
      // The k x k kernel takes the same call when the model links it (compiler/kernels/share_kernels.cpp).
      std::fill(got.begin(), got.end(), int8_t{-99});
      std::fill(got_overlap.begin(), got_overlap.end(), int8_t{-99});
      ASSERT_EQ(f.window(&used, input.data(), k.words.data(), k.requant.data(), got.data(), pixel_rows.data()),
                MICROAOT_STATUS_OK);
      ASSERT_EQ(f.window_overlap(&used, input.data(), k.words.data(), k.requant.data(), got_overlap.data(),
                                 pixel_rows_and_output_row.data()),
                MICROAOT_STATUS_OK);
      ASSERT_EQ(got, expected) << "case " << i << ", " << f.name << ", k x k kernel";
      ASSERT_EQ(got_overlap, expected) << "case " << i << ", " << f.name << ", k x k kernel";
    }
    counts.add(expected);
  }
  EXPECT_GT(counts.inside, counts.compared / 2);
  EXPECT_GT(packed, 250);
  EXPECT_GT(raw, 150);
}

// The specialised output step at the edges of its range, against the portable kernel: sums whose doubles
// reach 2^31 - 2^24 (the bias at the bound less what the products can add), the largest right shift (31) and the
// smallest (1), the extreme multipliers, output offsets at both ends.
TEST(PackedKernels, SmmlarOutputStepIsExactAtTheEdgesOfItsRange) {
  struct Edge {
    int32_t multiplier, shift, output_offset;
  };
  const Edge edges[] = {{INT32_MAX, -31, 0}, {1 << 30, -31, 0},  {1 << 30, -24, 127}, {INT32_MAX, -24, -128},
                        {1 << 30, -1, 0},    {INT32_MAX, -1, 0}, {0, -5, 7},          {1518500250, -23, -5},
                        {0, 0, -3},          {0, 4, 9}};
  std::mt19937 rng(31);
  for (const Edge& edge : edges) {
    for (int sign : {1, -1}) {
      microaot_fully_connected_params_q p{};
      p.batches = 3, p.input_depth = 8, p.output_depth = 4;
      const std::vector<int32_t> multiplier(4, edge.multiplier), shift(4, edge.shift);
      p.output_multiplier = multiplier.data(), p.output_shift = shift.data();
      p.output_offset = edge.output_offset, p.activation_min = -128, p.activation_max = 127;
      const auto weights = random_bytes(rng, 4 * 8);
      // Per unit the bias of largest magnitude, with the sign of the case, for which the compiler still emits
      // the step (then its sums reach the step's bound: 2^30 or the rounding term's limit).
      std::vector<int32_t> bias;
      for (int u = 0; u < 4; ++u) {
        const std::vector<int8_t> unit(weights.begin() + u * 8, weights.begin() + u * 8 + 8);
        const PackedRequant one{{edge.multiplier}, {edge.shift}, edge.output_offset};
        int64_t lo = 0, hi = int64_t{1} << 30;  // accepted, refused
        while (hi - lo > 1) {
          const int64_t mid = (lo + hi) / 2;
          const bool accepted = !packed_output_stage({static_cast<int32_t>(sign * mid)}, unit, 1, 8, one).empty();
          (accepted ? lo : hi) = mid;
        }
        bias.push_back(static_cast<int32_t>(sign * lo));
      }
      for (int trial = 0; trial < 20; ++trial) {
        const auto input = random_bytes(rng, 3 * 8);
        microaot_fully_connected_params_q q = p;
        ASSERT_FALSE(pack_for_kernel(weights, bias, q).requant.empty()) << edge.multiplier << " " << edge.shift;
        expect_fully_connected_matches(p, input, weights, bias,
                                       std::to_string(edge.multiplier) + " >> " + std::to_string(-edge.shift));
      }
    }
  }
}

// Channels whose bias is so large that no input moves their output (VWW's dead channels: bias 2^30) take
// constant words, beside ordinary channels of the same layer, clamped by ReLU or not.
TEST(PackedKernels, ConstantChannelsMatchPortable) {
  std::mt19937 rng(37);
  for (int relu : {0, 1}) {
    microaot_fully_connected_params_q p{};
    p.batches = 3, p.input_depth = 16, p.output_depth = 5, p.input_offset = 3, p.output_offset = -7;
    p.activation_min = relu ? -7 : -128, p.activation_max = 127;
    const std::vector<int32_t> multiplier = {1 << 30, 1518500250, 1 << 30, 2000000000, 1 << 30};
    const std::vector<int32_t> shift = {-31, -20, -9, -25, -8};
    p.output_multiplier = multiplier.data(), p.output_shift = shift.data();
    const std::vector<int32_t> bias = {1 << 30, -(1 << 30), 1 << 30, 1000, -(1 << 30) + 9};
    const auto weights = random_bytes(rng, 5 * 16);
    microaot_fully_connected_params_q q = p;
    ASSERT_FALSE(pack_for_kernel(weights, bias, q).requant.empty());
    for (int trial = 0; trial < 20; ++trial) {
      expect_fully_connected_matches(p, random_bytes(rng, 3 * 16), weights, bias, "relu " + std::to_string(relu));
    }
  }
}

// A call without the output step's table (a direct call; a graph blob's loader requires the argument) returns
// MICROAOT_STATUS_NULL_POINTER and leaves the output as it was; the same call with it computes the layer.
TEST(PackedKernels, RefuseACallWithoutTheOutputStepTable) {
  std::mt19937 rng(41);
  microaot_conv_2d_params_q p{};
  p.batches = 1, p.input_height = p.input_width = 4, p.input_depth = p.filter_depth = 8, p.output_depth = 6;
  p.filter_height = p.filter_width = p.stride_height = p.stride_width = p.dilation_height = p.dilation_width = 1;
  p.output_height = p.output_width = 4;
  const Quant q = random_quant(rng, p.output_depth, p.input_depth);
  set_quant(p, q);
  const auto input = random_bytes(rng, 4 * 4 * 8), filter = random_bytes(rng, 6 * 8);
  std::vector<int8_t> expected(4 * 4 * 6);
  microaot_conv_2d_s8(&p, input.data(), filter.data(), q.bias.data(), expected.data());
  microaot_fully_connected_params_q fc{};  // the same product: 16 batches of the pixels
  fc.batches = 16, fc.input_depth = 8, fc.output_depth = 6;
  set_quant(fc, q);
  const int8_t kSentinel = 0x5a;
  for (const Flavour& f : kFlavours) {
    microaot_conv_2d_params_q packed_params = p;
    const Packed k = pack_for_kernel(filter, q.bias, packed_params, f.form);
    ASSERT_FALSE(k.requant.empty());
    const microaot_conv_2d_params_q conv = without_channel_arrays(packed_params);
    microaot_fully_connected_params_q dense = without_channel_arrays(fc);
    dense.input_offset = 0;
    Scratch scratch(MICROAOT_PACKED_WINDOWS_BYTES(8, 8, 6) + 4 * 6);  // the largest of the kernels' scratches
    const auto call = [&](int kernel, const int32_t* table, int8_t* out) {
      switch (kernel) {
        case 0: return f.pointwise(&conv, input.data(), k.words.data(), table, out, scratch.data());
        case 1: return f.pointwise_overlap(&conv, input.data(), k.words.data(), table, out, scratch.data());
        case 2: return f.window(&conv, input.data(), k.words.data(), table, out, scratch.data());
        case 3: return f.window_overlap(&conv, input.data(), k.words.data(), table, out, scratch.data());
        default: return f.fully_connected(&dense, input.data(), k.words.data(), table, out, scratch.data());
      }
    };
    for (int kernel = 0; kernel < 5; ++kernel) {
      std::vector<int8_t> out(expected.size(), kSentinel);
      EXPECT_EQ(call(kernel, nullptr, out.data()), MICROAOT_STATUS_NULL_POINTER) << kernel << ", " << f.name;
      EXPECT_EQ(out, std::vector<int8_t>(expected.size(), kSentinel)) << kernel << ", " << f.name;
      EXPECT_EQ(call(kernel, k.requant.data(), out.data()), MICROAOT_STATUS_OK) << kernel << ", " << f.name;
      EXPECT_EQ(out, expected) << kernel << ", " << f.name;
    }
  }
}

// Outside the range the layer keeps the unpacked kernel: a shift >= 0, sums that may reach 2^30, a rounding term
// beyond int32, a negative multiplier.
TEST(PackedWeights, OutputStepRefusesWhatItCannotComputeExactly) {
  const std::vector<int8_t> w = {100, -100};  // one unit of depth 2: products up to 2 * 128 * 100
  const auto stage = [&](int32_t bias, int64_t multiplier, int64_t shift, int64_t output_offset) {
    return packed_output_stage({bias}, w, 1, 2, PackedRequant{{multiplier}, {shift}, output_offset});
  };
  const int32_t largest = (1 << 30) - 1 - 25600;
  // The pair's words, the absent second unit's zeros: bias, multiplier, rounding 2^2 + 2 * 2^3, shift.
  EXPECT_EQ(stage(largest, 1 << 30, -3, 2), (std::vector<int32_t>{largest, 0, 1 << 30, 0, 4 + 2 * 8, 0, 3, 0}));
  EXPECT_EQ(stage(-largest, 1 << 30, -3, 2).size(), 8u);
  // Sums beyond 2^30 whose outputs differ: (128.5 * 2^23 +- 25600) / 2^23 - 128 is 0 or 1 (-1 or -2 below).
  EXPECT_TRUE(stage(1077936128, 1 << 30, -22, -128).empty());
  EXPECT_TRUE(stage(-1077936128, 1 << 30, -22, 127).empty());
  EXPECT_TRUE(stage(0, 1 << 30, 0, 0).empty());
  // A bias that saturates the output whatever the products: the constant 127 as rounding 2 * 127 + 1, shift 1.
  EXPECT_EQ(stage(1 << 30, 1 << 30, -3, 2), (std::vector<int32_t>{0, 0, 0, 0, 255, 0, 1, 0}));
  EXPECT_EQ(stage(-(1 << 30), 1 << 30, -3, 2), (std::vector<int32_t>{0, 0, 0, 0, -255, 0, 1, 0}));
  EXPECT_EQ(stage(0, 0, 0, 5), (std::vector<int32_t>{0, 0, 0, 0, 1 + 5 * 2, 0, 1, 0}));  // a zeroed channel
  EXPECT_EQ(stage(0, 0, 3, 5), (std::vector<int32_t>{0, 0, 0, 0, 1 + 5 * 2, 0, 1, 0}));
  EXPECT_TRUE(stage(0, 1 << 30, 2, 0).empty());
  EXPECT_TRUE(stage(0, 1 << 30, -32, 0).empty());
  EXPECT_TRUE(stage(0, -1, -3, 0).empty());
  EXPECT_EQ(stage(0, INT32_MAX, -31, 0).size(), 8u);
  // 2^30 + 2^31 is beyond int32 as a rounding term, but the products cannot move the output from 1.
  EXPECT_EQ(stage(0, INT32_MAX, -31, 1), (std::vector<int32_t>{0, 0, 0, 0, 3, 0, 1, 0}));
}

// SAME (pad before = half the total, rounded down) or VALID output size and padding of one axis.
void window_axis(std::mt19937& rng, int32_t in, int32_t filter, int32_t stride, int32_t dilation, int32_t& out,
                 int32_t& pad) {
  const int32_t effective = (filter - 1) * dilation + 1;
  if (draw(rng, 0, 1) == 1 || in < effective) {  // SAME
    out = (in + stride - 1) / stride;
    pad = std::max(0, (out - 1) * stride + effective - in) / 2;
  } else {
    out = (in - effective) / stride + 1;
    pad = 0;
  }
}

// A random k x k geometry: windows of 1 to 4 taps a side, strides up to 3, dilations up to 2, SAME or VALID.
microaot_conv_2d_params_q random_window_geometry(std::mt19937& rng) {
  microaot_conv_2d_params_q p{};
  p.batches = draw(rng, 1, 2);
  p.input_height = draw(rng, 1, 9), p.input_width = draw(rng, 1, 9);
  p.input_depth = p.filter_depth = draw(rng, 1, 12);
  p.output_depth = draw(rng, 1, 9);
  p.filter_height = draw(rng, 1, 4), p.filter_width = draw(rng, 1, 4);
  p.stride_height = draw(rng, 1, 3), p.stride_width = draw(rng, 1, 3);
  p.dilation_height = draw(rng, 1, 2), p.dilation_width = draw(rng, 1, 2);
  window_axis(rng, p.input_height, p.filter_height, p.stride_height, p.dilation_height, p.output_height, p.pad_height);
  window_axis(rng, p.input_width, p.filter_width, p.stride_width, p.dilation_width, p.output_width, p.pad_width);
  return p;
}

// Case i of geometry p (random quantization; the input zero point at an end of its range two cases in three)
// through both k x k kernels against the portable kernel on the model's weights and bias, when the compiler gives
// the output step's table. Returns whether it gives it (the case is packed); counts the raw form's runs in *raw
// (weights from `lowest`: -127 keeps the raw form's bound on -128).
bool expect_window_conv_matches(std::mt19937& rng, microaot_conv_2d_params_q p, int i, Counts& counts,
                                int* raw = nullptr, int lowest = -128) {
  const int32_t window = p.filter_height * p.filter_width * p.input_depth;
  Quant q = random_quant(rng, p.output_depth, window);
  const int32_t extreme_offsets[] = {-127, 128};  // zero points 127 and -128
  if (i % 3 != 0) q.input_offset = extreme_offsets[i % 2];
  set_quant(p, q);
  const auto input = random_bytes(rng, p.batches * p.input_height * p.input_width * p.input_depth);
  const auto filter = random_bytes(rng, p.output_depth * window, lowest);
  const std::vector<int32_t> bias = i % 4 == 0 ? std::vector<int32_t>{} : q.bias;
  const size_t out_size = static_cast<size_t>(p.batches * p.output_height * p.output_width * p.output_depth);
  std::vector<int8_t> expected(out_size), got(out_size), got_overlap(out_size);
  microaot_conv_2d_s8(&p, input.data(), filter.data(), bias.empty() ? nullptr : bias.data(), expected.data());
  // The kernel keeps the input offset: the padding's value (-offset); its products are in the folded bias.
  const std::vector<int32_t> folded = fold_input_offset(bias, filter, p.output_depth, window, p.input_offset);
  const size_t scratch_bytes = static_cast<size_t>(microaot_packed_kxk_bytes(&p));
  Scratch plain(scratch_bytes), with_row(scratch_bytes + static_cast<size_t>(p.output_width * p.output_depth));
  const PackedRequant requant{{p.output_multiplier, p.output_multiplier + p.output_depth},
                              {p.output_shift, p.output_shift + p.output_depth},
                              p.output_offset, p.activation_min, p.activation_max};
  const std::vector<int32_t> stage = packed_output_stage(folded, filter, p.output_depth, window, requant);
  if (stage.empty()) return false;  // the layer keeps the unpacked kernel
  const microaot_conv_2d_params_q used = without_channel_arrays(p);
  for (const Flavour& f : kFlavours) {
    const std::vector<int32_t> words = pack_weight_words(filter, p.output_depth, window, f.form);
    const std::vector<int32_t> table =
        f.form == PackedWeights::kInt8Raw ? raw_form_stage(stage, filter, p.output_depth, window) : stage;
    if (table.empty()) continue;  // outside the raw form's bounds: the layer takes the int8 words
    if (raw != nullptr && f.form == PackedWeights::kInt8Raw) ++*raw;
    EXPECT_EQ(f.window(&used, input.data(), words.data(), table.data(), got.data(), plain.data()),
              MICROAOT_STATUS_OK);
    EXPECT_EQ(f.window_overlap(&used, input.data(), words.data(), table.data(), got_overlap.data(), with_row.data()),
              MICROAOT_STATUS_OK);
    EXPECT_EQ(got, expected) << "case " << i << ", " << f.name;
    EXPECT_EQ(got_overlap, expected) << "case " << i << ", " << f.name;
  }
  counts.add(expected);
  return true;
}

// k x k windows of every kind, the input zero point at both ends of its range (the padding taps' value).
TEST(PackedKernels, WindowConvMatchesPortablePlainAndOverlap) {
  std::mt19937 rng(31);
  Counts counts;
  int packed = 0;
  for (int i = 0; i < 400; ++i) packed += expect_window_conv_matches(rng, random_window_geometry(rng), i, counts);
  EXPECT_GT(counts.inside, counts.compared / 2);
  EXPECT_GT(packed, 300);
}

// Windows longer than MICROAOT_PACKED_CHUNK, reduced in chunks whose bounds fall anywhere in a filter row (odd
// depths) or a tap: up to 5x5 taps of up to 300 channels (windows of 641 to 7,500 elements), strides and dilations
// up to 2, padded edges, odd unit counts.
TEST(PackedKernels, WideWindowsMatchPortable) {
  std::mt19937 rng(43);
  Counts counts;
  int packed = 0;
  for (int i = 0; i < 24; ++i) {
    microaot_conv_2d_params_q p = random_window_geometry(rng);
    p.input_height = draw(rng, 1, 5), p.input_width = draw(rng, 1, 5);
    p.filter_height = draw(rng, 1, 5), p.filter_width = draw(rng, 1, 5);
    p.stride_height = draw(rng, 1, 2), p.stride_width = draw(rng, 1, 2);
    p.input_depth = p.filter_depth = std::max(draw(rng, 60, 300), 641 / (p.filter_height * p.filter_width) + 1);
    window_axis(rng, p.input_height, p.filter_height, p.stride_height, p.dilation_height, p.output_height, p.pad_height);
    window_axis(rng, p.input_width, p.filter_width, p.stride_width, p.dilation_width, p.output_width, p.pad_width);
    packed += expect_window_conv_matches(rng, p, i, counts);
  }
  EXPECT_GT(counts.inside, counts.compared / 2);
  EXPECT_GT(packed, 20);
}

// Windows past one chunk three pixels at a time (the chunked path's triples through microaot_packed_pairs3's sums
// mode), as the one-chunk path's split: output widths 1 to 7 (remainders 0, 1, 2 and 4 after the triples), odd and
// even unit counts, gathered windows (3x3 over 81 channels: 729 elements, two chunks; padded edges) and pixel
// windows (1x1 over 700 channels, read in place), in every weight form (weights in [-127, 127], sums below 2^23:
// the raw form's bounds hold).
TEST(PackedKernels, ChunkedWindowsRunThreePixelsAtATime) {
  std::mt19937 rng(47);
  Counts counts;
  int packed = 0, raw = 0, i = 0;
  for (int32_t width = 1; width <= 7; ++width) {
    for (int32_t units : {5, 8}) {
      for (int32_t k : {3, 1}) {
        microaot_conv_2d_params_q p{};
        p.batches = 1;
        p.input_height = 2, p.input_width = width;
        p.input_depth = p.filter_depth = k == 3 ? 81 : 700;
        p.output_depth = units;
        p.filter_height = p.filter_width = k;
        p.stride_height = p.stride_width = p.dilation_height = p.dilation_width = 1;
        p.output_height = 2, p.output_width = width;
        p.pad_height = p.pad_width = k / 2;  // SAME
        packed += expect_window_conv_matches(rng, p, i++, counts, &raw, -127);
      }
    }
  }
  EXPECT_GT(counts.inside, counts.compared / 2);
  EXPECT_EQ(packed, i);
  EXPECT_GT(raw, i / 2);
}

// Short windows of a first layer (3x3 stride 2, 1 to 4 channels: rows of 3 to 12 taps, windows of 9 to 36, 27
// for RGB), SAME or VALID on odd and even sizes: windows wholly inside the image, copied row run by row run, and
// windows over the padded last row or column, gathered tap by tap; odd unit counts.
TEST(PackedKernels, FirstLayerWindowsMatchPortable) {
  std::mt19937 rng(37);
  Counts counts;
  int packed = 0, i = 0;
  for (int32_t depth = 1; depth <= 4; ++depth) {
    for (int32_t size : {7, 8}) {
      for (int32_t units : {3, 8}) {
        microaot_conv_2d_params_q p{};
        p.batches = 1;
        p.input_height = p.input_width = size;
        p.input_depth = p.filter_depth = depth;
        p.output_depth = units;
        p.filter_height = p.filter_width = 3;
        p.stride_height = p.stride_width = 2;
        p.dilation_height = p.dilation_width = 1;
        window_axis(rng, size, 3, 2, 1, p.output_height, p.pad_height);
        window_axis(rng, size, 3, 2, 1, p.output_width, p.pad_width);
        packed += expect_window_conv_matches(rng, p, i++, counts);
      }
    }
  }
  EXPECT_GT(counts.inside, counts.compared / 2);
  EXPECT_GT(packed, 12);  // of 16
}

// The padded rows (microaot_packed_padded_rows_bytes): taken by gathered windows (rows not of whole groups or
// under 16 bytes, no column dilation) that reach past the left or right edge, while the rows fit one chunk.
TEST(PackedWeights, PaddedRowsTakeFewChannelLayersWithSideEdges) {
  const auto geometry = [](int32_t width, int32_t depth, int32_t filter, int32_t pad, int32_t out_width) {
    microaot_conv_2d_params_q p{};
    p.input_height = 40, p.input_width = width, p.input_depth = depth;
    p.filter_height = p.filter_width = filter, p.pad_height = p.pad_width = pad;
    p.stride_height = p.stride_width = p.dilation_height = p.dilation_width = 1;
    p.output_height = 40, p.output_width = out_width;
    return p;
  };
  microaot_conv_2d_params_q p = geometry(3, 1, 3, 1, 3);  // 3 rows of 5 columns: 15 bytes, in words
  EXPECT_EQ(microaot_packed_padded_rows_bytes(&p), 16);
  EXPECT_EQ(microaot_packed_kxk_bytes(&p), MICROAOT_PACKED_WINDOWS_BYTES(9, 3, 0) + 16);
  p = geometry(28, 1, 3, 0, 26);  // VALID: no window reaches past an edge
  EXPECT_EQ(microaot_packed_padded_rows_bytes(&p), 0);
  p = geometry(3, 1, 3, 0, 2);
  p.input_width = 2;  // no padding before, but the last window reaches past the right edge
  EXPECT_EQ(microaot_packed_padded_rows_bytes(&p), 12);
  p = geometry(28, 8, 3, 1, 28);  // rows of 24 bytes: read straight from the image
  EXPECT_EQ(microaot_packed_padded_rows_bytes(&p), 0);
  p = geometry(70, 3, 3, 1, 70);  // 3 rows of 72 columns of 3 channels: 648 bytes, past one chunk
  EXPECT_EQ(microaot_packed_padded_rows_bytes(&p), 0);
  p = geometry(69, 3, 3, 1, 69);  // 639 bytes
  EXPECT_EQ(microaot_packed_padded_rows_bytes(&p), 640);
  p.dilation_width = 2;  // taps apart: gathered tap by tap
  EXPECT_EQ(microaot_packed_padded_rows_bytes(&p), 0);
}

// Narrow images of few channels (accelerometer, audio and digit stems: widths 1 to 9, 1 to 3 channels, filters of
// 1 to 5 taps a side, strides 1 and 2, row dilations 1 and 2), SAME or VALID, in every weight form: most take the
// padded rows, whose windows must match the portable kernel's at every edge.
TEST(PackedKernels, NarrowImagesGatherFromPaddedRows) {
  std::mt19937 rng(59);
  Counts counts;
  int packed = 0, padded = 0, i = 0;
  for (int32_t width = 1; width <= 9; ++width) {
    for (int32_t depth = 1; depth <= 3; ++depth) {
      for (int32_t stride = 1; stride <= 2; ++stride) {
        microaot_conv_2d_params_q p{};
        p.batches = draw(rng, 1, 2);
        p.input_height = draw(rng, 4, 12), p.input_width = width;
        p.input_depth = p.filter_depth = depth;
        p.output_depth = draw(rng, 1, 9);
        p.filter_height = draw(rng, 1, 5), p.filter_width = draw(rng, 1, std::min(5, width + 2));
        p.stride_height = p.stride_width = stride;
        p.dilation_height = draw(rng, 1, 2), p.dilation_width = 1;
        window_axis(rng, p.input_height, p.filter_height, p.stride_height, p.dilation_height, p.output_height,
                    p.pad_height);
        window_axis(rng, p.input_width, p.filter_width, p.stride_width, p.dilation_width, p.output_width, p.pad_width);
        padded += microaot_packed_padded_rows_bytes(&p) > 0;
        packed += expect_window_conv_matches(rng, p, i++, counts);
      }
    }
  }
  EXPECT_GT(counts.inside, counts.compared / 2);
  EXPECT_GT(packed, i * 3 / 4);
  EXPECT_GT(padded, i / 3);
}

// Windows widened straight from the image (widen_direct: row runs of whole groups, at least 16 bytes, the windows
// of all the pixels taken together inside the image; three at a time through microaot_packed_widen3) and pixel
// windows of whole groups (1x1, three at a time through it too): depths 4 to 16, filters of 1 to 5 taps a side,
// strides 1 and 2, row dilations 1 and 2 (column dilation 2 takes the gather), widths 3 to 11 (interior triples,
// pairs and lone pixels), SAME and VALID, odd and even units, in every weight form.
TEST(PackedKernels, InteriorWindowsWidenStraightFromTheImage) {
  std::mt19937 rng(53);
  Counts counts;
  int packed = 0, straight = 0, i = 0;
  for (int32_t depth : {4, 8, 12, 16}) {
    for (int32_t k = 1; k <= 5; ++k) {
      for (int32_t stride = 1; stride <= 2; ++stride) {
        microaot_conv_2d_params_q p{};
        p.batches = draw(rng, 1, 2);
        p.input_height = draw(rng, 3, 8), p.input_width = draw(rng, 3, 11);
        p.input_depth = p.filter_depth = depth;
        p.output_depth = draw(rng, 2, 9);
        p.filter_height = k, p.filter_width = draw(rng, std::max(1, k - 1), k);
        p.stride_height = p.stride_width = stride;
        p.dilation_height = draw(rng, 1, 2), p.dilation_width = i % 7 == 6 ? 2 : 1;
        if (k == 1) p.dilation_height = p.dilation_width = 1;
        window_axis(rng, p.input_height, p.filter_height, p.stride_height, p.dilation_height, p.output_height,
                    p.pad_height);
        window_axis(rng, p.input_width, p.filter_width, p.stride_width, p.dilation_width, p.output_width, p.pad_width);
        const int32_t run = p.filter_width * depth;
        const bool pixels = k == 1 && p.filter_width == 1;  // 1x1, no padding: each window is its input pixel
        straight += p.output_width >= 3 && (pixels || (run % 4 == 0 && run >= 16 && p.dilation_width == 1));
        packed += expect_window_conv_matches(rng, p, i++, counts);
      }
    }
  }
  EXPECT_GT(counts.inside, counts.compared / 2);
  EXPECT_GT(packed, i * 3 / 4);
  EXPECT_GE(straight, i / 2);
}

// The raw form over the whole int8 domain: every weight pair's word has the SXTB16 lanes and the raw int16 lanes
// the kernels take (w0 and 256 w1 + w0) unless its odd weight is -128 after a negative one, which raw_form_stage
// refuses; and every input pair (x0, x1), in both lanes of a group, through the raw FULLY_CONNECTED against the
// portable kernel, with weights at the ends of the int8 range (the widened lanes 256 x0 - x1 + 127 in int16).
TEST(PackedWeights, RawFormIsExactOverTheWholeInt8Domain) {
  for (int w0 = -128; w0 <= 127; ++w0) {
    for (int w1 = -128; w1 <= 127; ++w1) {
      const std::vector<int8_t> pair = {static_cast<int8_t>(w0), static_cast<int8_t>(w1)};
      const std::vector<int32_t> stage(MICROAOT_PACKED_STEP_WORDS, 0);  // multiplier 0: the bound is not the point
      const bool refused = w1 == -128 && w0 < 0;
      ASSERT_EQ(raw_form_stage(stage, pair, 1, 2).empty(), refused) << w0 << " " << w1;
      if (refused) continue;
      const auto word = static_cast<uint32_t>(pack_weight_words(pair, 1, 2, PackedWeights::kInt8Raw)[0]);
      ASSERT_EQ(static_cast<int8_t>(word & 0xFFu), w0);
      ASSERT_EQ(static_cast<int16_t>(word & 0xFFFFu), 256 * w1 + w0) << w0 << " " << w1;
    }
  }
  microaot_fully_connected_params_q p{};
  p.batches = 256 * 256, p.input_depth = 4, p.output_depth = 8;
  const Quant q{std::vector<int32_t>(8, 1 << 30), std::vector<int32_t>(8, -8), {-5, 7, 300, -300, 0, 1, -1, 9},
                0, 3, -128, 127};
  set_quant(p, q);
  const std::vector<int8_t> weights = {127, 127, 127, 127, -127, -127, -127, -127, -128, 127, -128, 127,
                                       127, -128, 1, -128, -1, 127, -127, 1, 0, -128, 0, -128,
                                       5, -7, 100, -3, -128, 126, 127, -128};
  std::vector<int8_t> input;
  for (int x0 = -128; x0 <= 127; ++x0) {
    for (int x1 = -128; x1 <= 127; ++x1) {
      for (int x : {x0, x1, x1, x0}) input.push_back(static_cast<int8_t>(x));
    }
  }
  std::vector<int8_t> expected(static_cast<size_t>(p.batches * p.output_depth)), got(expected.size());
  microaot_fully_connected_s8(&p, input.data(), weights.data(), q.bias.data(), expected.data());
  microaot_fully_connected_params_q packed_params = p;
  const Packed k = pack_for_kernel(weights, q.bias, packed_params, PackedWeights::kInt8Raw);
  ASSERT_FALSE(k.requant.empty());
  Scratch rows(MICROAOT_PACKED_ROWS_BYTES(size_t{4}, size_t{8}));
  const microaot_fully_connected_params_q bare = without_channel_arrays(packed_params);
  ASSERT_EQ(microaot_fully_connected_s8_packed_raw(&bare, input.data(), k.words.data(), k.requant.data(), got.data(),
                                                   rows.data()),
            MICROAOT_STATUS_OK);
  EXPECT_EQ(got, expected);
  Counts counts;
  counts.add(expected);
  EXPECT_GT(counts.inside, counts.compared / 2);
}

// The raw form's bound: a unit whose sum may reach 2^23 is refused unless its multiplier is 0.
TEST(PackedWeights, RawFormRefusesSumsThatMayReach2To23) {
  const int32_t depth = 512;
  const std::vector<int8_t> over(517, 127), under(depth, 127);
  std::vector<int32_t> stage(MICROAOT_PACKED_STEP_WORDS, 0);
  stage[2] = 1 << 30;  // unit 0's multiplier
  EXPECT_TRUE(raw_form_stage(stage, over, 1, 517).empty());  // 517 * 127 * 128 >= 2^23
  EXPECT_FALSE(raw_form_stage(stage, under, 1, depth).empty());  // 512 * 127 * 128 < 2^23
  stage[0] = 1 << 16;  // with the bias: 8,323,072 + 65,536 >= 2^23
  EXPECT_TRUE(raw_form_stage(stage, under, 1, depth).empty());
  stage[2] = 0;  // a constant channel: any sum
  EXPECT_FALSE(raw_form_stage(stage, under, 1, depth).empty());
}

// The packed 16x8 CONV_2D (microaot_conv_2d_s16_packed and _w16, plain and overlap) against the portable kernel
// over random k x k geometries (windows of 1 to 192 elements, strides, dilations, padding, odd units): int16
// inputs over their whole range, int8 weights, an int64 bias or none, per-channel multipliers whose shifts take
// both output steps (the one-SMLAL range, microaot_fit_depthwise_s16_dsp_shift, and outside it), int16 clamps
// whole or narrower.
TEST(PackedKernels, S16WindowsMatchPortable) {
  std::mt19937 rng(61);
  int compared = 0, inside = 0, outside_smlal = 0;
  for (int i = 0; i < 300; ++i) {
    microaot_conv_2d_params_q p = random_window_geometry(rng);
    const int32_t window = p.filter_height * p.filter_width * p.input_depth, units = p.output_depth;
    std::vector<int32_t> multiplier, shift;
    std::vector<int64_t> bias;
    for (int u = 0; u < units; ++u) {
      const double scale[] = {1.0, 1e-3, 90.0};  // the SMLAL range, a shift below it, one at or above 0
      const QuantizedMultiplier m =
          quantize_multiplier(draw(rng, 20, 60) / (1e4 * std::sqrt(window)) * scale[(u + i) % 3]);
      multiplier.push_back(m.multiplier), shift.push_back(m.shift);
      outside_smlal += m.shift < -17 || m.shift > -1;
      bias.push_back(int64_t{draw(rng, -(1 << 20), 1 << 20)} * draw(rng, 1, 64));
    }
    p.output_multiplier = multiplier.data(), p.output_shift = shift.data();
    p.input_offset = p.output_offset = 0;
    p.activation_min = i % 3 == 0 ? -2000 : -32768, p.activation_max = i % 3 == 0 ? 3000 : 32767;
    std::vector<int16_t> input(static_cast<size_t>(p.batches * p.input_height * p.input_width * p.input_depth));
    for (int16_t& v : input) v = static_cast<int16_t>(draw(rng, -32768, 32767));
    const auto filter = random_bytes(rng, units * window);
    const int64_t* b = i % 4 == 3 ? nullptr : bias.data();
    const size_t out_size = static_cast<size_t>(p.batches * p.output_height * p.output_width * units);
    std::vector<int16_t> expected(out_size), got(out_size), got_overlap(out_size);
    microaot_conv_2d_s16(&p, input.data(), filter.data(), b, expected.data());
    const size_t bytes = MICROAOT_PACKED_S16_BYTES(static_cast<size_t>(window), static_cast<size_t>(units));
    Scratch plain(bytes), with_row(bytes + 2 * static_cast<size_t>(p.output_width * units));
    for (PackedWeights form : {PackedWeights::kInt8, PackedWeights::kInt16}) {
      const std::vector<int32_t> words = pack_weight_words(filter, units, window, form);
      const bool wide = form == PackedWeights::kInt16;
      EXPECT_EQ((wide ? microaot_conv_2d_s16_packed_w16 : microaot_conv_2d_s16_packed)(
                    &p, input.data(), words.data(), b, got.data(), plain.data()),
                MICROAOT_STATUS_OK);
      EXPECT_EQ((wide ? microaot_conv_2d_s16_packed_w16_overlap : microaot_conv_2d_s16_packed_overlap)(
                    &p, input.data(), words.data(), b, got_overlap.data(), with_row.data()),
                MICROAOT_STATUS_OK);
      EXPECT_EQ(got, expected) << "case " << i << (wide ? ", int16 words" : ", int8 words");
      EXPECT_EQ(got_overlap, expected) << "case " << i << (wide ? ", int16 words" : ", int8 words");
    }
    compared += static_cast<int>(out_size);
    for (int16_t v : expected) inside += v != p.activation_min && v != p.activation_max;
  }
  EXPECT_GT(inside, compared / 3);
  EXPECT_GT(outside_smlal, 100);
}

// The packed 16x8 FULLY_CONNECTED (microaot_fully_connected_s16_packed and _w16) against the portable kernel: 1 to 5
// batches (row pairs and a lone row), rows of 1 to 508 elements (every remainder of four), 1 to 13 units (quads and
// one to three left for a lone row, an odd last pair for two), an int64 bias or none, per-channel multipliers, int16
// clamps whole or narrower.
TEST(PackedKernels, S16RowsMatchPortable) {
  std::mt19937 rng(67);
  int compared = 0, inside = 0;
  for (int i = 0; i < 200; ++i) {
    microaot_fully_connected_params_q p{};
    p.batches = draw(rng, 1, 5), p.input_depth = i % 10 == 0 ? MICROAOT_PACKED_S16_MAX_WINDOW : draw(rng, 1, 90);
    p.output_depth = draw(rng, 1, 13);
    std::vector<int32_t> multiplier, shift;
    std::vector<int64_t> bias;
    for (int u = 0; u < p.output_depth; ++u) {
      const QuantizedMultiplier m = quantize_multiplier(draw(rng, 20, 60) / (1e4 * std::sqrt(p.input_depth)));
      multiplier.push_back(m.multiplier), shift.push_back(m.shift);
      bias.push_back(int64_t{draw(rng, -(1 << 20), 1 << 20)} * draw(rng, 1, 64));
    }
    p.output_multiplier = multiplier.data(), p.output_shift = shift.data();
    p.activation_min = i % 3 == 0 ? -2000 : -32768, p.activation_max = i % 3 == 0 ? 3000 : 32767;
    std::vector<int16_t> input(static_cast<size_t>(p.batches * p.input_depth));
    for (int16_t& v : input) v = static_cast<int16_t>(draw(rng, -32768, 32767));
    const auto weights = random_bytes(rng, p.output_depth * p.input_depth);
    const int64_t* b = i % 4 == 3 ? nullptr : bias.data();
    const size_t out_size = static_cast<size_t>(p.batches * p.output_depth);
    std::vector<int16_t> expected(out_size), got(out_size);
    microaot_fully_connected_s16(&p, input.data(), weights.data(), b, expected.data());
    Scratch rows(MICROAOT_PACKED_CHUNK_ROWS_BYTES(static_cast<size_t>(p.input_depth)));
    for (PackedWeights form : {PackedWeights::kInt8, PackedWeights::kInt16}) {
      const std::vector<int32_t> words = pack_weight_words(weights, p.output_depth, p.input_depth, form);
      const bool wide = form == PackedWeights::kInt16;
      std::fill(got.begin(), got.end(), int16_t{-99});
      EXPECT_EQ((wide ? microaot_fully_connected_s16_packed_w16 : microaot_fully_connected_s16_packed)(
                    &p, input.data(), words.data(), b, got.data(), rows.data()),
                MICROAOT_STATUS_OK);
      EXPECT_EQ(got, expected) << "case " << i << (wide ? ", int16 words" : ", int8 words");
    }
    compared += static_cast<int>(out_size);
    for (int16_t v : expected) inside += v != p.activation_min && v != p.activation_max;
  }
  EXPECT_GT(inside, compared / 3);
}

// A window past MICROAOT_PACKED_S16_MAX_WINDOW, whose int32 sums could overflow, is refused, nothing written.
TEST(PackedKernels, S16RefusesWindowsPastItsBound) {
  microaot_conv_2d_params_q p{};
  p.batches = p.input_height = p.input_width = p.output_height = p.output_width = 1;
  p.input_depth = p.filter_depth = MICROAOT_PACKED_S16_MAX_WINDOW + 1, p.output_depth = 2;
  p.filter_height = p.filter_width = p.stride_height = p.stride_width = p.dilation_height = p.dilation_width = 1;
  const std::vector<int16_t> input(static_cast<size_t>(p.input_depth), 1);
  const std::vector<int32_t> words(4096, 0);
  std::vector<int16_t> out(2, 77);
  Scratch scratch(MICROAOT_PACKED_S16_BYTES(static_cast<size_t>(p.input_depth), 2u));
  EXPECT_EQ(microaot_conv_2d_s16_packed_w16(&p, input.data(), words.data(), nullptr, out.data(), scratch.data()),
            MICROAOT_STATUS_VALUE_OUT_OF_RANGE);
  EXPECT_EQ(out, std::vector<int16_t>(2, 77));
}


}  // namespace
}  // namespace microaot
