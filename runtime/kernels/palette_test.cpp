// The palettised kernels (microaot/internal/palette.h) against the kernels they stand in for: random layers whose
// weights take at most 2^bits values per output channel, packed here (a packer of the test's own, written from
// the layout's description), must give the unpalettised kernel's output byte for byte, through the plain and
// the overlap variant; a corrupt header or a missing argument is refused with the output unwritten.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "../../compiler/ops/in_place_bounds.h"
#include "conv_geometry_test_util.h"
#include "overlap_harness.h"
#include "microaot/fit/depthwise_conv_2d.h"
#include "microaot/kernels/conv.h"
#include "microaot/kernels/fully_connected.h"
#include "microaot/kernels/packed.h"

namespace {

struct Packed {
  std::vector<uint8_t> indices;
  std::vector<int8_t> table;
};

// rows: channels x n; row c's values are table[c * 2^bits + index] with index random below 2^bits (shared: one
// table of 2^bits for every channel, flagged in the header).
struct Layer {
  std::vector<int8_t> rows;
  Packed packed;
};

Layer random_palette(std::mt19937& rng, int channels, int n, int bits, bool shared = false) {
  Layer l;
  const int entries = 1 << bits;
  l.packed.table = random_ints<int8_t>(rng, static_cast<size_t>((shared ? 1 : channels) * entries), -128, 127);
  const size_t row_bytes = (static_cast<size_t>(n) * bits + 7) / 8;
  l.packed.indices.assign(1 + static_cast<size_t>(channels) * row_bytes, 0);
  l.packed.indices[0] = static_cast<uint8_t>(bits | (shared ? 0x80 : 0));
  std::uniform_int_distribution<int> pick(0, entries - 1);
  for (int c = 0; c < channels; ++c) {
    for (int i = 0; i < n; ++i) {
      const int index = pick(rng);
      l.rows.push_back(l.packed.table[static_cast<size_t>((shared ? 0 : c) * entries + index)]);
      for (int b = 0; b < bits; ++b) {  // bit b of the index: bit i * bits + b of the row
        const size_t at = static_cast<size_t>(i) * bits + b;
        if ((index >> b) & 1) l.packed.indices[1 + c * row_bytes + at / 8] |= static_cast<uint8_t>(1u << (at % 8));
      }
    }
  }
  return l;
}

struct Geometry {
  int batches, in_h, in_w, in_c, filter_h, filter_w, out_h, out_w, out_c, stride_h, stride_w, dilation_h, dilation_w,
      pad_h, pad_w;
};

Geometry random_geometry(std::mt19937& rng, bool depthwise, int multiplier) {
  std::uniform_int_distribution<int> small(1, 3), size(3, 7), depth(1, 5), pad(0, 1);
  Geometry g{};
  g.batches = small(rng) == 3 ? 2 : 1;
  g.in_h = size(rng), g.in_w = size(rng), g.in_c = depth(rng);
  g.filter_h = small(rng), g.filter_w = small(rng);
  g.stride_h = small(rng) == 1 ? 2 : 1, g.stride_w = small(rng) == 1 ? 2 : 1;
  g.dilation_h = 1, g.dilation_w = small(rng) == 3 && g.in_w >= 7 ? 2 : 1;
  g.pad_h = std::min(pad(rng), g.filter_h - 1), g.pad_w = std::min(pad(rng), g.filter_w - 1);
  g.out_c = depthwise ? g.in_c * multiplier : depth(rng) + 1;
  g.out_h = (g.in_h + 2 * g.pad_h - ((g.filter_h - 1) * g.dilation_h + 1)) / g.stride_h + 1;
  g.out_w = (g.in_w + 2 * g.pad_w - ((g.filter_w - 1) * g.dilation_w + 1)) / g.stride_w + 1;
  return g;
}

template <typename P>
void random_quant(std::mt19937& rng, P& p, std::vector<int32_t>& multiplier, std::vector<int32_t>& shift, int channels) {
  multiplier = random_ints<int32_t>(rng, static_cast<size_t>(channels), 1 << 29, (1 << 30) + (1 << 29));
  shift = random_ints<int32_t>(rng, static_cast<size_t>(channels), -9, -6);
  p.input_offset = random_ints<int32_t>(rng, 1, -20, 20)[0];
  p.output_offset = random_ints<int32_t>(rng, 1, -10, 10)[0];
  p.activation_min = -128, p.activation_max = 127;
  p.output_multiplier = multiplier.data(), p.output_shift = shift.data();
}

// A depthwise filter's rows (channel, tap) in the model's [1, H, W, C] order.
std::vector<int8_t> depthwise_filter(const std::vector<int8_t>& rows, int taps, int channels) {
  std::vector<int8_t> filter(rows.size());
  for (int c = 0; c < channels; ++c)
    for (int t = 0; t < taps; ++t) filter[static_cast<size_t>(t * channels + c)] = rows[static_cast<size_t>(c * taps + t)];
  return filter;
}

TEST(PaletteKernels, ConvAndDepthwiseMatchTheUnpalettisedKernels) {
  std::mt19937 rng(32);
  for (int trial = 0; trial < 120; ++trial) {
    const bool depthwise = trial % 2 == 1;
    const int bits = 1 + trial % 7;
    const Geometry g = random_geometry(rng, depthwise, 1 + trial % 3);
    const int taps = g.filter_h * g.filter_w * (depthwise ? 1 : g.in_c);
    const Layer l = random_palette(rng, g.out_c, taps, bits, trial % 3 == 2);
    const auto input = random_ints<int8_t>(rng, static_cast<size_t>(g.batches * g.in_h * g.in_w * g.in_c), -128, 127);
    const auto bias = random_ints<int32_t>(rng, static_cast<size_t>(g.out_c), -3000, 3000);
    const size_t out_size = static_cast<size_t>(g.batches * g.out_h * g.out_w * g.out_c);
    std::vector<int8_t> expected(out_size), plain(out_size, 0x55), overlap(out_size, 0x55);
    std::vector<int8_t> scratch(static_cast<size_t>(taps + g.out_w * g.out_c));
    std::vector<int32_t> multiplier, shift;
    if (depthwise) {
      microaot_depthwise_conv_2d_params_q p{};
      set_conv_window(p, g);
      p.depth_multiplier = g.out_c / g.in_c;
      random_quant(rng, p, multiplier, shift, g.out_c);
      microaot_depthwise_conv_2d_s8(&p, input.data(), depthwise_filter(l.rows, taps, g.out_c).data(), bias.data(),
                                    expected.data());
      EXPECT_EQ(microaot_depthwise_conv_2d_s8_palette(&p, input.data(), l.packed.indices.data(), l.packed.table.data(),
                                                      bias.data(), plain.data(), scratch.data()),
                MICROAOT_STATUS_OK);
      EXPECT_EQ(microaot_depthwise_conv_2d_s8_palette_overlap(&p, input.data(), l.packed.indices.data(),
                                                              l.packed.table.data(), bias.data(), overlap.data(),
                                                              scratch.data()),
                MICROAOT_STATUS_OK);
    } else {
      microaot_conv_2d_params_q p{};
      set_conv_window(p, g);
      p.filter_depth = g.in_c;
      random_quant(rng, p, multiplier, shift, g.out_c);
      microaot_conv_2d_s8(&p, input.data(), l.rows.data(), trial % 4 == 0 ? nullptr : bias.data(), expected.data());
      EXPECT_EQ(microaot_conv_2d_s8_palette(&p, input.data(), l.packed.indices.data(), l.packed.table.data(),
                                            trial % 4 == 0 ? nullptr : bias.data(), plain.data(), scratch.data()),
                MICROAOT_STATUS_OK);
      EXPECT_EQ(microaot_conv_2d_s8_palette_overlap(&p, input.data(), l.packed.indices.data(), l.packed.table.data(),
                                                    trial % 4 == 0 ? nullptr : bias.data(), overlap.data(),
                                                    scratch.data()),
                MICROAOT_STATUS_OK);
    }
    ASSERT_EQ(plain, expected) << "trial " << trial << " bits " << bits;
    ASSERT_EQ(overlap, expected) << "trial " << trial << " bits " << bits;
  }
}

// A random FULLY_CONNECTED over a palette of `bits` bits and fully_connected_s8's output on it (a fifth with a
// weights offset; without bias where `with_bias` is false).
struct FcCase {
  Layer l;
  microaot_fully_connected_params_q p{};
  std::vector<int32_t> multiplier, shift, bias;
  std::vector<int8_t> input, expected;
};

FcCase fc_case(std::mt19937& rng, int trial, int units, int depth, int batches, int bits, bool shared, bool with_bias) {
  FcCase c;
  c.l = random_palette(rng, units, depth, bits, shared);
  c.p.batches = batches, c.p.input_depth = depth, c.p.output_depth = units;
  random_quant(rng, c.p, c.multiplier, c.shift, units);
  c.p.filter_offset = trial % 5 == 0 ? 3 : 0;
  c.input = random_ints<int8_t>(rng, static_cast<size_t>(batches * depth), -128, 127);
  if (with_bias) c.bias = random_ints<int32_t>(rng, static_cast<size_t>(units), -3000, 3000);
  c.expected.resize(static_cast<size_t>(batches * units));
  microaot_fully_connected_s8(&c.p, c.input.data(), c.l.rows.data(), with_bias ? c.bias.data() : nullptr,
                              c.expected.data());
  return c;
}

TEST(PaletteKernels, FullyConnectedMatchesTheUnpalettisedKernel) {
  std::mt19937 rng(33);
  for (int trial = 0; trial < 60; ++trial) {
    const int bits = 1 + trial % 8, depth = 1 + (trial * 7) % 41;
    const FcCase c = fc_case(rng, trial, 1 + trial % 9, depth, 1 + trial % 3, bits, trial % 3 == 2, true);
    std::vector<int8_t> got(c.expected.size(), 0x55), scratch(static_cast<size_t>(depth));
    ASSERT_EQ(microaot_fully_connected_s8_palette(&c.p, c.input.data(), c.l.packed.indices.data(),
                                                  c.l.packed.table.data(), c.bias.data(), got.data(), scratch.data()),
              MICROAOT_STATUS_OK);
    ASSERT_EQ(got, c.expected) << "trial " << trial << " bits " << bits;
  }
}

// The DSP FULLY_CONNECTED palette kernel (4-bit indices through a table of index bytes' weight pairs; its C
// definitions here) against fully_connected_s8: shared and per-channel tables, odd and even depths (an odd row's
// last byte has a padding nibble), batches, a weights offset, no bias; the scratch starts as garbage.
TEST(PaletteKernels, FullyConnectedPairTableMatchesTheUnpalettisedKernel) {
  std::mt19937 rng(40);
  for (int trial = 0; trial < 60; ++trial) {
    const int depth = 1 + (trial * 37) % 300;
    const FcCase c = fc_case(rng, trial, 1 + trial % 9, depth, 1 + trial % 3, 4, trial % 2 == 0, trial % 4 != 3);
    std::vector<int8_t> got(c.expected.size(), 0x55);
    std::vector<uint32_t> scratch(static_cast<size_t>(MICROAOT_FC_PALETTE_PAIRS_BYTES(depth) / 4), 0xA5A5A5A5u);
    ASSERT_EQ(microaot_fully_connected_s8_packed_palette(&c.p, c.input.data(), c.l.packed.indices.data(),
                                                         c.l.packed.table.data(), c.bias.empty() ? nullptr : c.bias.data(),
                                                         got.data(), scratch.data()),
              MICROAOT_STATUS_OK);
    ASSERT_EQ(got, c.expected) << "trial " << trial << " depth " << depth << " shared " << (trial % 2 == 0);
  }
}

// It takes 4-bit indices only; a corrupt header, another width or a missing table is refused, unwritten.
TEST(PaletteKernels, FullyConnectedPairTableRefusesWhatItDoesNotTake) {
  std::mt19937 rng(41);
  Layer l = random_palette(rng, 2, 6, 4);
  microaot_fully_connected_params_q p{};
  p.batches = 1, p.input_depth = 6, p.output_depth = 2;
  const std::vector<int8_t> input(6, 1);
  std::vector<int8_t> out(2, 0x55);
  std::vector<uint32_t> scratch(static_cast<size_t>(MICROAOT_FC_PALETTE_PAIRS_BYTES(6) / 4));
  const auto call = [&](const int8_t* table) {
    return microaot_fully_connected_s8_packed_palette(&p, input.data(), l.packed.indices.data(), table, nullptr,
                                                      out.data(), scratch.data());
  };
  l.packed.indices[0] = 0;
  EXPECT_EQ(call(l.packed.table.data()), MICROAOT_STATUS_VALUE_OUT_OF_RANGE);
  l.packed.indices[0] = 3;
  EXPECT_EQ(call(l.packed.table.data()), MICROAOT_STATUS_VALUE_OUT_OF_RANGE);
  l.packed.indices[0] = 4;
  EXPECT_EQ(call(nullptr), MICROAOT_STATUS_NULL_POINTER);
  EXPECT_EQ(out, std::vector<int8_t>(2, 0x55));
}

// The packed kernels' output step table (microaot/kernels/packed.h) for shifts below 0 and small sums, from its
// documented words: per unit pair each unit's bias + input_offset * sum of its weights, multiplier, rounding
// 2^(e-1) + output_offset * 2^e and e = -shift.
std::vector<int32_t> step_table(const std::vector<int8_t>& rows, const std::vector<int32_t>& bias, int units, int depth,
                                const microaot_conv_2d_params_q& p) {
  std::vector<int32_t> words(static_cast<size_t>((units + 1) / 2) * 8, 0);
  for (int u = 0; u < units; ++u) {
    int32_t sum = 0;
    for (int d = 0; d < depth; ++d) sum += rows[static_cast<size_t>(u * depth + d)];
    const int32_t e = -p.output_shift[u];
    const int32_t step[4] = {(bias.empty() ? 0 : bias[static_cast<size_t>(u)]) + p.input_offset * sum,
                             p.output_multiplier[u], (1 << (e - 1)) + p.output_offset * (1 << e), e};
    for (int k = 0; k < 4; ++k) words[static_cast<size_t>((u / 2) * 8 + u % 2 + 2 * k)] = step[k];
  }
  return words;
}

// A random layer of geometry g (rows of `window` weights) for the DSP palette kernels: 1 to 8 bits, a third with
// one shared table, a quarter without bias, a third with a ReLU-like clamp; conv_2d_s8's output on it, and the
// params as the compiler passes them (the table holds bias, zero point's products and steps; input_offset 0, or
// kept as the k x k kernel's padding value).
struct PackedCase {
  int bits = 0;
  Layer l;
  std::vector<int8_t> input, expected;
  std::vector<int32_t> step, multiplier, shift;
  microaot_conv_2d_params_q p{}, packed{};
};

PackedCase packed_case(std::mt19937& rng, const Geometry& g, int window, int trial, bool keep_offset) {
  PackedCase c;
  c.bits = 1 + trial % 8;
  c.l = random_palette(rng, g.out_c, window, c.bits, trial % 3 == 1);
  c.input = random_ints<int8_t>(rng, static_cast<size_t>(g.batches * g.in_h * g.in_w * g.in_c), -128, 127);
  const auto bias = trial % 4 == 0 ? std::vector<int32_t>{} : random_ints<int32_t>(rng, size_t(g.out_c), -3000, 3000);
  set_conv_window(c.p, g);
  c.p.filter_depth = g.in_c;
  random_quant(rng, c.p, c.multiplier, c.shift, g.out_c);
  if (trial % 3 == 0) c.p.activation_min = c.p.output_offset, c.p.activation_max = 100;
  c.expected.resize(static_cast<size_t>(g.batches * g.out_h * g.out_w * g.out_c));
  microaot_conv_2d_s8(&c.p, c.input.data(), c.l.rows.data(), bias.empty() ? nullptr : bias.data(), c.expected.data());
  c.step = step_table(c.l.rows, bias, g.out_c, window, c.p);
  c.packed = c.p;
  c.packed.output_multiplier = nullptr, c.packed.output_shift = nullptr;
  if (!keep_offset) c.packed.input_offset = 0;
  return c;
}

using PackedPaletteFn = microaot_status (*)(const microaot_conv_2d_params_q*, const int8_t*, const uint8_t*,
                                           const int8_t*, const int32_t*, int8_t*, void*);

// The params and input/output rows of output rows [a, b) of one image, as a fused band's call has them
// (codegen/emit_bands.cpp: the band's input rows, output rows and top padding).
struct BandRows {
  microaot_conv_2d_params_q p{};
  int64_t input_first = 0;
};
BandRows band_rows(const microaot_conv_2d_params_q& p, int32_t a, int32_t b) {
  const int32_t extent = (p.filter_height - 1) * p.dilation_height + 1, start = a * p.stride_height - p.pad_height;
  const int32_t first = std::clamp(start, 0, p.input_height);
  const int32_t end = std::clamp((b - 1) * p.stride_height - p.pad_height + extent, first, p.input_height);
  BandRows r{p, first};
  r.p.input_height = end - first, r.p.output_height = b - a, r.p.pad_height = first - start;
  return r;
}

// A DSP palette kernel's row ranges and overlap flavor against its plain output c.expected: the plain flavor band
// by band (one image, bands of 1 to 3 rows), the overlap flavor on separate buffers over garbage scratch, and over
// its own input at the compiler's in-place bound (in_place_bounds.h) and one output row below it; its scratch the
// plain flavor's `plain_scratch` bytes and then `chunk` output rows.
void check_rows_and_overlap(const PackedCase& c, const Geometry& g, size_t plain_scratch, int32_t chunk, int trial,
                            PackedPaletteFn plain, PackedPaletteFn overlap, const std::string& what) {
  const size_t row_bytes = static_cast<size_t>(g.out_w * g.out_c), in_row = static_cast<size_t>(g.in_w * g.in_c);
  const uint8_t* indices = c.l.packed.indices.data();
  const int8_t* table = c.l.packed.table.data();
  std::vector<uint8_t> scratch(plain_scratch + static_cast<size_t>(chunk) * row_bytes + 4, 0x55);
  if (g.batches == 1) {
    std::vector<int8_t> banded(c.expected.size(), 0x33);
    const int32_t rows = 1 + trial % 3;
    for (int32_t a = 0; a < g.out_h; a += rows) {
      const BandRows band = band_rows(c.packed, a, std::min(a + rows, g.out_h));
      ASSERT_EQ(plain(&band.p, c.input.data() + band.input_first * static_cast<int64_t>(in_row), indices, table,
                      c.step.data(), banded.data() + static_cast<size_t>(a) * row_bytes, scratch.data()),
                MICROAOT_STATUS_OK);
    }
    ASSERT_EQ(banded, c.expected) << what << " bands of " << rows << " rows";
  }
  std::vector<int8_t> got(c.expected.size(), 0x55);
  std::fill(scratch.begin(), scratch.end(), uint8_t{0x55});
  ASSERT_EQ(overlap(&c.packed, c.input.data(), indices, table, c.step.data(), got.data(), scratch.data()),
            MICROAOT_STATUS_OK);
  ASSERT_EQ(got, c.expected) << what << " overlap on separate buffers";
  microaot::RowWiseAccess a;
  a.batches = g.batches, a.input_height = g.in_h, a.output_height = g.out_h;
  a.input_row_bytes = static_cast<int64_t>(in_row), a.output_row_bytes = static_cast<int64_t>(row_bytes);
  a.stride = g.stride_h, a.pad = g.pad_h;
  const int64_t bound = microaot::row_wise_max_shift(a);
  for (int64_t shift : {bound, bound - static_cast<int64_t>(row_bytes)}) {
    const auto out = overlap_test::run_overlapped(
        overlap_test::bytes_of(c.input), c.expected.size(), shift, scratch.size(), 1, 1,
        [&](uint8_t* in, uint8_t* o, void* s) {
          EXPECT_EQ(overlap(&c.packed, reinterpret_cast<const int8_t*>(in), indices, table, c.step.data(),
                            reinterpret_cast<int8_t*>(o), s),
                    MICROAOT_STATUS_OK);
        });
    ASSERT_EQ(out, overlap_test::bytes_of(c.expected)) << what << " in place, shift " << shift;
  }
}

// The DSP palette kernel (1x1, no padding; its C definitions here) against conv_2d_s8: depths of whole words,
// 1 to 11 channels (partial quads), strides, batches, 1 to 8 bits, ReLU-like clamps.
TEST(PaletteKernels, PackedPaletteMatchesTheUnpalettisedKernel) {
  std::mt19937 rng(35);
  for (int trial = 0; trial < 80; ++trial) {
    Geometry g = random_geometry(rng, false, 1);
    g.filter_h = g.filter_w = 1, g.pad_h = g.pad_w = 0, g.dilation_h = g.dilation_w = 1;
    g.in_c = 4 * (1 + (trial * 5) % 16), g.out_c = 1 + trial % 11;
    if (trial % 4 == 3) g.in_h = 10 + trial % 9, g.in_w = 1 + trial % 3;  // tall and narrow: overlap chunks
    g.out_h = (g.in_h - 1) / g.stride_h + 1, g.out_w = (g.in_w - 1) / g.stride_w + 1;
    const PackedCase c = packed_case(rng, g, g.in_c, trial, false);
    std::vector<int8_t> got(c.expected.size(), 0x55);
    std::vector<int32_t> block(static_cast<size_t>(MICROAOT_PACKED_PALETTE_BLOCK_BYTES(g.in_c) / 4));
    ASSERT_EQ(microaot_conv_2d_s8_packed_palette(&c.packed, c.input.data(), c.l.packed.indices.data(),
                                                 c.l.packed.table.data(), c.step.data(), got.data(), block.data()),
              MICROAOT_STATUS_OK);
    const std::string what = "trial " + std::to_string(trial) + " bits " + std::to_string(c.bits) + " depth " +
                             std::to_string(g.in_c) + " units " + std::to_string(g.out_c);
    ASSERT_EQ(got, c.expected) << what;
    check_rows_and_overlap(c, g, block.size() * 4, microaot_packed_palette_overlap_rows(&c.packed), trial,
                           microaot_conv_2d_s8_packed_palette, microaot_conv_2d_s8_packed_palette_overlap, what);
  }
}

// The k x k DSP palette kernel's output on case c (status OK expected), the scratch as given.
std::vector<int8_t> run_kxk_palette(const PackedCase& c, std::vector<int32_t>& scratch) {
  std::vector<int8_t> got(c.expected.size(), 0x55);
  EXPECT_EQ(microaot_conv_2d_s8_packed_kxk_palette(&c.packed, c.input.data(), c.l.packed.indices.data(),
                                                   c.l.packed.table.data(), c.step.data(), got.data(), scratch.data()),
            MICROAOT_STATUS_OK);
  return got;
}

// The k x k DSP palette kernel (its C definitions here) against conv_2d_s8: windows of whole words and not (depth 1
// under a filter 4 wide, odd depths: the zero-padded last group), padding (the zero point in the gathered taps),
// strides, column dilation, 1 to 11 channels, and 64-deep 3x3 windows of up to 30 channels (blocks of 8, the last
// partial), 1 to 8 bits, batches, clamps, odd output widths (a last single pixel); the output step's table holds
// the bias and the zero point's products, input_offset stays.
TEST(PaletteKernels, PackedKxkPaletteMatchesTheUnpalettisedKernel) {
  std::mt19937 rng(37);
  for (int trial = 0; trial < 100; ++trial) {
    Geometry g = random_geometry(rng, false, 1);
    g.in_h += 2, g.in_w += 3;  // inner pixels too
    g.out_c = 1 + trial % 11;
    if (trial % 5 == 0) {
      g.in_c = 1, g.filter_w = 4, g.dilation_w = 1;
    } else if (trial % 5 == 1) {
      g.in_c = 1 + 2 * (trial % 4), g.filter_h = 1 + trial % 3, g.filter_w = 3;
    } else if (trial % 5 == 2) {
      g.in_c = 64, g.filter_h = g.filter_w = 3, g.out_c = 9 + trial % 22, g.in_h += 8;  // overlap chunks
    } else {
      g.in_c = 4 * (1 + trial % 5), g.filter_h = 1 + trial % 3, g.filter_w = 1 + (trial / 3) % 3;
    }
    g.pad_h = std::min(g.pad_h, g.filter_h - 1), g.pad_w = std::min(trial % 2, g.filter_w - 1);
    g.out_h = (g.in_h + 2 * g.pad_h - ((g.filter_h - 1) * g.dilation_h + 1)) / g.stride_h + 1;
    g.out_w = (g.in_w + 2 * g.pad_w - ((g.filter_w - 1) * g.dilation_w + 1)) / g.stride_w + 1;
    const int window = g.filter_h * g.filter_w * g.in_c;
    const PackedCase c = packed_case(rng, g, window, trial, true);
    std::vector<int32_t> scratch(static_cast<size_t>(MICROAOT_PACKED_KXK_PALETTE_BYTES(window, g.out_c) / 4));
    const std::string what = "trial " + std::to_string(trial) + " bits " + std::to_string(c.bits) + " window " +
                             std::to_string(g.filter_h) + "x" + std::to_string(g.filter_w) + "x" +
                             std::to_string(g.in_c) + " units " + std::to_string(g.out_c);
    ASSERT_EQ(run_kxk_palette(c, scratch), c.expected) << what;
    check_rows_and_overlap(c, g, scratch.size() * 4, microaot_packed_kxk_palette_overlap_rows(&c.packed), trial,
                           microaot_conv_2d_s8_packed_kxk_palette, microaot_conv_2d_s8_packed_kxk_palette_overlap,
                           what);
  }
}

// The k x k DSP palette kernel on 1x1 windows without padding (the compiler's choice for pointwise layers where
// its block fits, compiler/ops/palette_weights.h; each pixel widened straight from the image): depths of whole
// words (16 to 256: blocks of 20 to 80 channels, several per layer, the last partial) and not (1 to 7: the widened
// tail's zeros), strides, batches, odd output widths, 1 to 48 channels, 1 to 8 bits, clamps, shared tables; the
// scratch filled with garbage first.
TEST(PaletteKernels, PackedKxkPaletteTakesPixelWindowsStraightFromTheImage) {
  std::mt19937 rng(41);
  for (int trial = 0; trial < 60; ++trial) {
    Geometry g = random_geometry(rng, false, 1);
    g.filter_h = g.filter_w = 1, g.pad_h = g.pad_w = 0, g.dilation_h = g.dilation_w = 1;
    g.in_w += trial % 2;  // odd and even widths
    g.in_c = trial % 4 == 0 ? 1 + trial % 7 : 16 << (trial % 5);
    g.out_c = trial % 3 == 0 ? 1 + trial % 11 : 21 + trial % 28;
    g.out_h = (g.in_h - 1) / g.stride_h + 1, g.out_w = (g.in_w - 1) / g.stride_w + 1;
    const PackedCase c = packed_case(rng, g, g.in_c, trial, true);
    std::vector<int32_t> scratch(static_cast<size_t>(MICROAOT_PACKED_KXK_PALETTE_BYTES(g.in_c, g.out_c) / 4));
    for (int32_t& word : scratch) word = static_cast<int32_t>(rng());
    ASSERT_EQ(run_kxk_palette(c, scratch), c.expected) << "trial " << trial << " bits " << c.bits << " depth " << g.in_c << " units "
                               << g.out_c << " stride " << g.stride_h << "x" << g.stride_w;
  }
}

// The k x k DSP palette kernel refuses a corrupt header, a window longer than a block takes or a grouped filter,
// and a missing table, its output unwritten.
TEST(PaletteKernels, PackedKxkPaletteRefusesWhatItDoesNotTake) {
  std::mt19937 rng(38);
  Layer l = random_palette(rng, 4, 12, 4);
  microaot_conv_2d_params_q p{};
  p.batches = p.input_height = p.input_width = p.output_height = p.output_width = 1;
  p.stride_height = p.stride_width = p.dilation_height = p.dilation_width = 1;
  p.input_depth = p.filter_depth = 4, p.output_depth = 4, p.filter_height = 1, p.filter_width = 3, p.pad_width = 1;
  p.activation_min = -128, p.activation_max = 127;
  const std::vector<int8_t> input(4, 1);
  const std::vector<int32_t> step(16, 1);
  std::vector<int8_t> out(4, 0x55);
  std::vector<int32_t> scratch(64);
  const auto call = [&](const int32_t* table) {
    return microaot_conv_2d_s8_packed_kxk_palette(&p, input.data(), l.packed.indices.data(), l.packed.table.data(),
                                                  table, out.data(), scratch.data());
  };
  l.packed.indices[0] = 0;
  EXPECT_EQ(call(step.data()), MICROAOT_STATUS_VALUE_OUT_OF_RANGE);
  l.packed.indices[0] = 4;
  p.input_depth = p.filter_depth = 4 + MICROAOT_PACKED_KXK_PALETTE_MAX_WINDOW / 3;  // a window past the most
  EXPECT_EQ(call(step.data()), MICROAOT_STATUS_VALUE_OUT_OF_RANGE);
  p.input_depth = 8;  // grouped
  EXPECT_EQ(call(step.data()), MICROAOT_STATUS_VALUE_OUT_OF_RANGE);
  p.input_depth = p.filter_depth = 4;
  EXPECT_EQ(call(nullptr), MICROAOT_STATUS_NULL_POINTER);
  EXPECT_EQ(out, std::vector<int8_t>(4, 0x55));
}

// The DSP palette kernel refuses a corrupt header, a depth it does not take and a missing argument, unwritten.
TEST(PaletteKernels, PackedPaletteRefusesWhatItDoesNotTake) {
  std::mt19937 rng(36);
  Layer l = random_palette(rng, 4, 8, 4);
  microaot_conv_2d_params_q p{};
  p.batches = p.input_height = p.input_width = p.output_height = p.output_width = 1;
  p.stride_height = p.stride_width = 1, p.input_depth = p.filter_depth = 8, p.output_depth = 4;
  p.filter_height = p.filter_width = 1, p.activation_min = -128, p.activation_max = 127;
  const std::vector<int8_t> input(8, 1);
  const std::vector<int32_t> step(16, 1);
  std::vector<int8_t> out(4, 0x55);
  std::vector<int32_t> block(16);
  l.packed.indices[0] = 9;
  EXPECT_EQ(microaot_conv_2d_s8_packed_palette(&p, input.data(), l.packed.indices.data(), l.packed.table.data(),
                                               step.data(), out.data(), block.data()),
            MICROAOT_STATUS_VALUE_OUT_OF_RANGE);
  l.packed.indices[0] = 4;
  p.input_depth = p.filter_depth = 6;
  EXPECT_EQ(microaot_conv_2d_s8_packed_palette(&p, input.data(), l.packed.indices.data(), l.packed.table.data(),
                                               step.data(), out.data(), block.data()),
            MICROAOT_STATUS_VALUE_OUT_OF_RANGE);
  EXPECT_EQ(microaot_conv_2d_s8_packed_palette(&p, input.data(), l.packed.indices.data(), l.packed.table.data(),
                                               nullptr, out.data(), block.data()),
            MICROAOT_STATUS_NULL_POINTER);
  EXPECT_EQ(out, std::vector<int8_t>(4, 0x55));
}

// A random 3x3 depthwise layer the DSP depthwise palette kernel takes (depth multiplier 1, whole groups of 4
// channels, no dilation): rows of 1 to 30 pixels (the ring's tiles of 12, rows too short for the ring), strides 1
// and 2, padding 0 or 1, batches, 1 to 8 bits, shared tables, no bias, clamps; depthwise_conv_2d_s8's output on it.
struct WidenedCase {
  int bits = 0;
  Geometry g{};
  Layer l;
  std::vector<int8_t> input, expected;
  std::vector<int32_t> bias, multiplier, shift;
  microaot_depthwise_conv_2d_params_q p{};
};

WidenedCase widened_case(std::mt19937& rng, int trial) {
  WidenedCase c;
  Geometry& g = c.g;
  const int stride = trial % 3 == 2 ? 2 : 1, pad = trial % 4 == 3 ? 0 : 1;
  g.batches = trial % 5 == 4 ? 2 : 1;
  g.in_h = random_ints<int>(rng, 1, 3, 9)[0], g.in_w = random_ints<int>(rng, 1, 3, 30)[0];
  g.in_c = g.out_c = 4 * (1 + trial % 5);
  g.filter_h = g.filter_w = 3, g.dilation_h = g.dilation_w = 1;
  g.stride_h = g.stride_w = stride, g.pad_h = g.pad_w = pad;
  g.out_h = (g.in_h + 2 * pad - 3) / stride + 1, g.out_w = (g.in_w + 2 * pad - 3) / stride + 1;
  c.bits = 1 + trial % 8;
  c.l = random_palette(rng, g.out_c, 9, c.bits, trial % 3 == 1);
  c.input = random_ints<int8_t>(rng, static_cast<size_t>(g.batches * g.in_h * g.in_w * g.in_c), -128, 127);
  if (trial % 4 != 0) c.bias = random_ints<int32_t>(rng, static_cast<size_t>(g.out_c), -3000, 3000);
  set_conv_window(c.p, g);
  c.p.depth_multiplier = 1;
  random_quant(rng, c.p, c.multiplier, c.shift, g.out_c);
  if (trial % 3 == 0) c.p.activation_min = c.p.output_offset, c.p.activation_max = 100;
  c.expected.resize(static_cast<size_t>(g.batches * g.out_h * g.out_w * g.out_c));
  microaot_depthwise_conv_2d_s8(&c.p, c.input.data(), depthwise_filter(c.l.rows, 9, g.out_c).data(),
                                c.bias.empty() ? nullptr : c.bias.data(), c.expected.data());
  return c;
}

// The DSP depthwise palette kernels: the full build and the ring-only one.
struct WidenedKernel {
  const char* name;
  decltype(&microaot_depthwise_conv_2d_s8_widened_palette) plain, overlap;
  int (*takes)(const microaot_depthwise_conv_2d_params_q*);
};
int takes_every_layer(const microaot_depthwise_conv_2d_params_q*) { return 1; }
const WidenedKernel kWidenedKernels[] = {
    {"widened", microaot_depthwise_conv_2d_s8_widened_palette, microaot_depthwise_conv_2d_s8_widened_palette_overlap,
     takes_every_layer},
    {"ring", microaot_depthwise_conv_2d_s8_ring_palette, microaot_depthwise_conv_2d_s8_ring_palette_overlap,
     microaot_fit_depthwise_ring_palette},
};

// The DSP depthwise palette kernels (their C definitions here) against depthwise_conv_2d_s8, plain and overlap on
// separate buffers, then the overlap variant over its own input at the compiler's bound (in_place_bounds.h), at a
// whole number of pixels below it (channel groups outermost) and one byte below that (chunks of rows). The
// ring-only build on the layers of microaot_fit_depthwise_ring_palette; any other it refuses, unwritten.
TEST(PaletteKernels, WidenedDepthwisePaletteMatchesTheUnpalettisedKernel) {
  std::mt19937 rng(39);
  int ring_layers = 0;
  for (int trial = 0; trial < 120; ++trial) {
    const WidenedCase c = widened_case(rng, trial);
    const int32_t* bias = c.bias.empty() ? nullptr : c.bias.data();
    const size_t row_bytes = static_cast<size_t>(c.g.out_w * c.g.out_c);
    const size_t chunk = static_cast<size_t>(microaot_depthwise_palette_overlap_rows(&c.p));
    std::vector<int8_t> scratch(MICROAOT_DEPTHWISE_PALETTE_BLOCK_BYTES + chunk * row_bytes, 0x55);
    ring_layers += microaot_fit_depthwise_ring_palette(&c.p);
    for (const WidenedKernel& k : kWidenedKernels) {
      const std::string what = std::string(k.name) + " trial " + std::to_string(trial) + " bits " +
                               std::to_string(c.bits) + " " + std::to_string(c.g.in_h) + "x" +
                               std::to_string(c.g.in_w) + "x" + std::to_string(c.g.in_c) + " stride " +
                               std::to_string(c.g.stride_w);
      std::vector<int8_t> got(c.expected.size(), 0x55), got_overlap(c.expected.size(), 0x55);
      if (!k.takes(&c.p)) {
        EXPECT_EQ(k.plain(&c.p, c.input.data(), c.l.packed.indices.data(), c.l.packed.table.data(), bias, got.data(),
                          scratch.data()),
                  MICROAOT_STATUS_VALUE_OUT_OF_RANGE)
            << what;
        EXPECT_EQ(k.overlap(&c.p, c.input.data(), c.l.packed.indices.data(), c.l.packed.table.data(), bias,
                            got_overlap.data(), scratch.data()),
                  MICROAOT_STATUS_VALUE_OUT_OF_RANGE)
            << what;
        ASSERT_EQ(got, std::vector<int8_t>(c.expected.size(), 0x55)) << what;
        ASSERT_EQ(got_overlap, got) << what;
        continue;
      }
      ASSERT_EQ(k.plain(&c.p, c.input.data(), c.l.packed.indices.data(), c.l.packed.table.data(), bias, got.data(),
                        scratch.data()),
                MICROAOT_STATUS_OK);
      ASSERT_EQ(got, c.expected) << what;
      ASSERT_EQ(k.overlap(&c.p, c.input.data(), c.l.packed.indices.data(), c.l.packed.table.data(), bias,
                          got_overlap.data(), scratch.data()),
                MICROAOT_STATUS_OK);
      ASSERT_EQ(got_overlap, c.expected) << what;
      microaot::RowWiseAccess a;
      a.batches = c.g.batches, a.input_height = c.g.in_h, a.output_height = c.g.out_h;
      a.input_row_bytes = c.g.in_w * c.g.in_c, a.output_row_bytes = static_cast<int64_t>(row_bytes);
      a.stride = c.g.stride_h, a.pad = c.g.pad_h;
      const int64_t bound = microaot::row_wise_max_shift(a);
      const int64_t whole =
          bound >= 0 ? bound / c.g.out_c * c.g.out_c : -((-bound + c.g.out_c - 1) / c.g.out_c * c.g.out_c);
      for (int64_t shift : {bound, whole, whole - 1}) {
        const auto out = overlap_test::run_overlapped(
            overlap_test::bytes_of(c.input), c.expected.size(), shift, scratch.size(), 1, 1,
            [&](uint8_t* in, uint8_t* o, void* s) {
              EXPECT_EQ(k.overlap(&c.p, reinterpret_cast<const int8_t*>(in), c.l.packed.indices.data(),
                                  c.l.packed.table.data(), bias, reinterpret_cast<int8_t*>(o), s),
                        MICROAOT_STATUS_OK);
            });
        ASSERT_EQ(out, overlap_test::bytes_of(c.expected)) << what << " shift " << shift;
      }
    }
  }
  EXPECT_GE(ring_layers, 10);  // the ring-only build met enough layers of its own
}

// The DSP depthwise palette kernel refuses what the DSP kernel's widened rows do not take, a corrupt header and a
// missing argument, its output unwritten.
TEST(PaletteKernels, WidenedDepthwisePaletteRefusesWhatItDoesNotTake) {
  std::mt19937 rng(40);
  const WidenedCase base = widened_case(rng, 1);
  const std::vector<std::pair<const char*, void (*)(WidenedCase&)>> breaks = {
      {"a 2x3 filter", [](WidenedCase& c) { c.p.filter_height = 2; }},
      {"dilation", [](WidenedCase& c) { c.p.dilation_width = 2; }},
      {"depth multiplier 2", [](WidenedCase& c) { c.p.depth_multiplier = 2; }},
      {"a partial group", [](WidenedCase& c) { c.p.output_depth -= 1; }},
      {"a left shift", [](WidenedCase& c) { c.shift[1] = 1; }},
      {"a header of 0 bits", [](WidenedCase& c) { c.l.packed.indices[0] = 0; }},
      {"a header of 9 bits", [](WidenedCase& c) { c.l.packed.indices[0] = 9; }},
      {"no table", [](WidenedCase& c) { c.l.packed.table.clear(); }},
  };
  for (const auto& [name, brk] : breaks) {
    WidenedCase c = base;
    c.p.output_multiplier = c.multiplier.data(), c.p.output_shift = c.shift.data();
    brk(c);
    std::vector<int8_t> out(c.expected.size(), 0x55), scratch(MICROAOT_DEPTHWISE_PALETTE_BLOCK_BYTES + 4096);
    const int8_t* table = c.l.packed.table.empty() ? nullptr : c.l.packed.table.data();
    const microaot_status want =
        table == nullptr ? MICROAOT_STATUS_NULL_POINTER : MICROAOT_STATUS_VALUE_OUT_OF_RANGE;
    for (const WidenedKernel& k : kWidenedKernels) {
      EXPECT_EQ(k.plain(&c.p, c.input.data(), c.l.packed.indices.data(), table, c.bias.data(), out.data(),
                        scratch.data()),
                want)
          << k.name << " " << name;
      EXPECT_EQ(k.overlap(&c.p, c.input.data(), c.l.packed.indices.data(), table, c.bias.data(), out.data(),
                          scratch.data()),
                want)
          << k.name << " " << name;
    }
    EXPECT_EQ(out, std::vector<int8_t>(c.expected.size(), 0x55)) << name;
  }
  WidenedCase c = base;
  c.p.output_multiplier = c.multiplier.data(), c.p.output_shift = c.shift.data();
  std::vector<int8_t> out(c.expected.size(), 0x55);
  for (const WidenedKernel& k : kWidenedKernels) {
    EXPECT_EQ(k.plain(&c.p, c.input.data(), c.l.packed.indices.data(), c.l.packed.table.data(), c.bias.data(),
                      out.data(), nullptr),
              MICROAOT_STATUS_NULL_POINTER)
        << k.name;
  }
}

// A graph blob is untrusted: a header outside 1..8 bits or a missing argument leaves the output unwritten.
TEST(PaletteKernels, RefuseACorruptHeaderOrAMissingArgument) {
  std::mt19937 rng(34);
  Layer l = random_palette(rng, 2, 4, 2);
  microaot_fully_connected_params_q p{};
  p.batches = 1, p.input_depth = 4, p.output_depth = 2;
  std::vector<int32_t> multiplier, shift;
  random_quant(rng, p, multiplier, shift, 2);
  const std::vector<int8_t> input = {1, 2, 3, 4};
  std::vector<int8_t> out(2, 0x55), scratch(4);
  for (uint8_t header : {uint8_t{0}, uint8_t{9}, uint8_t{0x80}, uint8_t{0x89}, uint8_t{255}}) {
    l.packed.indices[0] = header;
    EXPECT_EQ(microaot_fully_connected_s8_palette(&p, input.data(), l.packed.indices.data(), l.packed.table.data(),
                                                  nullptr, out.data(), scratch.data()),
              MICROAOT_STATUS_VALUE_OUT_OF_RANGE);
  }
  l.packed.indices[0] = 2;
  EXPECT_EQ(microaot_fully_connected_s8_palette(&p, input.data(), l.packed.indices.data(), nullptr, nullptr,
                                                out.data(), scratch.data()),
            MICROAOT_STATUS_NULL_POINTER);
  EXPECT_EQ(microaot_fully_connected_s8_palette(&p, input.data(), l.packed.indices.data(), l.packed.table.data(),
                                                nullptr, out.data(), nullptr),
            MICROAOT_STATUS_NULL_POINTER);
  EXPECT_EQ(out, std::vector<int8_t>(2, 0x55));
  microaot_conv_2d_params_q c{};
  EXPECT_EQ(microaot_conv_2d_s8_palette_overlap(&c, input.data(), l.packed.indices.data(), l.packed.table.data(),
                                                nullptr, out.data(), nullptr),
            MICROAOT_STATUS_NULL_POINTER);
}

}  // namespace
