#include "memory/bands.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace microaot {
namespace {

BandLayer layer(int64_t in, int64_t extent, int64_t stride, int64_t pad) {
  BandLayer l;
  l.input_rows = in;
  l.extent = extent;
  l.stride = stride;
  l.pad = pad;
  l.output_rows = (in + 2 * pad - extent) / stride + 1;
  l.input_row_bytes = l.output_row_bytes = 1;
  return l;
}

// A row's value from its window: a hash of the input rows it reads, in order, and of its own index.
int64_t row_value(const BandLayer& l, const std::vector<int64_t>& input, int64_t input_first, int64_t y) {
  int64_t v = 17 + y;
  for (int64_t k = 0; k < l.extent; ++k) {
    const int64_t row = y * l.stride - l.pad + k;
    if (row < 0 || row >= l.input_rows) continue;
    v = v * 31 + input.at(static_cast<size_t>(row - input_first)) + k;
  }
  return v;
}

// A residual ADD's row: its data row's value mixed with the skip row's.
int64_t add_skip(int64_t v, int64_t skip) { return v * 131 + skip; }

std::vector<int64_t> whole(const std::vector<BandLayer>& layers, std::vector<int64_t> rows) {
  std::vector<std::vector<int64_t>> outputs;
  const std::vector<int64_t> input = rows;
  for (const BandLayer& l : layers) {
    std::vector<int64_t> next;
    for (int64_t y = 0; y < l.output_rows; ++y) {
      const int64_t v = row_value(l, rows, 0, y);
      if (l.skip == kNoSkip) {
        next.push_back(v);
      } else {
        const std::vector<int64_t>& skip = l.skip == kChainInput ? input : outputs.at(static_cast<size_t>(l.skip));
        next.push_back(add_skip(v, skip.at(static_cast<size_t>(y))));
      }
    }
    outputs.push_back(next);
    rows = next;
  }
  return rows;
}

// Runs the schedule's actions on line buffers of exactly line_rows rows (at() catches any row outside). With
// `shift` >= 0 the input and the output share one memory, the output `shift` rows after the input's start.
std::vector<int64_t> banded(const std::vector<BandLayer>& layers, const std::vector<int64_t>& input,
                            const BandSchedule& s, int64_t shift = -1) {
  std::vector<int64_t> shared = input;
  if (shift >= 0) shared.resize(static_cast<size_t>(std::max<int64_t>(input.size(), shift + layers.back().output_rows)), -1);
  std::vector<std::vector<int64_t>> lines;
  for (int64_t rows : s.line_rows) lines.emplace_back(static_cast<size_t>(rows), -1);
  std::vector<int64_t> output(static_cast<size_t>(layers.back().output_rows), -1);
  for (const BandAction& a : s.actions) {
    if (!a.is_call) {
      std::vector<int64_t>& line = lines.at(static_cast<size_t>(a.move.buffer));
      for (int64_t r = 0; r < a.move.count; ++r) line.at(a.move.to + r) = line.at(a.move.from + r);
      continue;
    }
    const BandCall& c = a.call;
    const BandLayer& l = layers[c.layer];
    const std::vector<int64_t>& source = c.layer == 0 ? shared : lines.at(c.layer - 1);
    std::vector<int64_t> window;
    for (int64_t r = 0; r < c.input_end - c.input_first; ++r) window.push_back(source.at(c.input_row + r));
    // The call sees only its rows and its own padding, as the kernel does with the band's params.
    BandLayer local = l;
    local.input_rows = c.input_end - c.input_first;
    local.pad = c.pad;
    std::vector<int64_t>& target = c.layer + 1 == static_cast<int>(layers.size()) ? output : lines.at(c.layer);
    for (int64_t y = c.first_row; y < c.end_row; ++y) {
      int64_t v = 17 + y;
      for (int64_t k = 0; k < l.extent; ++k) {
        const int64_t row = (y - c.first_row) * l.stride - local.pad + k;
        if (row < 0 || row >= local.input_rows) continue;
        v = v * 31 + window.at(static_cast<size_t>(row)) + k;
      }
      if (l.skip != kNoSkip) {
        const std::vector<int64_t>& skip = l.skip == kChainInput ? shared : lines.at(static_cast<size_t>(l.skip));
        v = add_skip(v, skip.at(static_cast<size_t>(c.skip_row + y - c.first_row)));
      }
      target.at(static_cast<size_t>(c.output_row + y - c.first_row)) = v;
      if (shift >= 0 && &target == &output) shared.at(static_cast<size_t>(shift + y)) = v;
    }
  }
  if (shift >= 0) return std::vector<int64_t>(shared.begin() + shift, shared.begin() + shift + layers.back().output_rows);
  return output;
}

void expect_exact(const std::vector<BandLayer>& layers, int64_t band_rows) {
  std::vector<int64_t> input;
  for (int64_t r = 0; r < layers[0].input_rows; ++r) input.push_back(r * 7 + 3);
  for (const BandPace pace : {BandPace::kLastLayer, BandPace::kEveryLayer}) {
    const BandSchedule s = schedule_bands(layers, band_rows, pace);
    EXPECT_EQ(banded(layers, input, s), whole(layers, input))
        << "band rows " << band_rows << (pace == BandPace::kEveryLayer ? ", every layer" : "");
  }
}

TEST(Bands, ConvDepthwisePointwiseChainsAreExactForEveryBandHeight) {
  // MobileNet's first block: 3x3 stride 2 pad 1 (SAME on an even map), 3x3 depthwise pad 1, 1x1.
  const BandLayer a = layer(96, 3, 2, 0);
  std::vector<BandLayer> layers = {a};
  layers[0].pad = 0;
  layers[0].output_rows = 48;  // SAME, stride 2: padding after the last row only
  layers.push_back(layer(48, 3, 1, 1));
  layers.push_back(layer(48, 1, 1, 0));
  layers.push_back(layer(48, 3, 2, 0));
  layers.back().output_rows = 24;
  for (int64_t rows : {1, 2, 3, 5, 8, 24}) expect_exact(layers, rows);
}

// A layer's call_setup (a DSP palette kernel's decode, once per call) is counted once per extra call of the
// layer: the same schedule costs exactly calls - 1 set-ups more.
TEST(Bands, CostCountsEachLayersSetUpPerExtraCall) {
  std::vector<BandLayer> layers = {layer(40, 3, 1, 1), layer(40, 1, 1, 0)};
  const BandSchedule s = schedule_bands(layers, 4);
  const int64_t plain = bands_cost(layers, s);
  layers[1].call_setup = 1000;
  const std::vector<BandLayerWork> work = band_layer_work(layers, s);
  ASSERT_GT(work[1].calls, 1);
  EXPECT_EQ(bands_cost(layers, s), plain + (work[1].calls - 1) * 1000);
}

TEST(Bands, LineBuffersHoldOnlyTheWindow) {
  const std::vector<BandLayer> layers = {layer(40, 3, 1, 1), layer(40, 3, 1, 1)};
  const BandSchedule s = schedule_bands(layers, 1);
  ASSERT_EQ(s.line_rows.size(), 1u);
  EXPECT_EQ(s.line_rows[0], 3);  // the 3 rows one output row of the second layer reads
  EXPECT_EQ(s.calls, 79);  // the first call of the first layer computes the two rows output row 0 reads
  const BandSchedule wide = schedule_bands(layers, 8);
  EXPECT_EQ(wide.line_rows[0], 10);
  EXPECT_EQ(wide.calls, 10);
  EXPECT_EQ(wide.moved_bytes, 4 * 2);  // two halo rows kept at each of the four band boundaries that move
}

// The output written over the input at the largest permitted shift clobbers no row a later band reads.
TEST(Bands, OutputOverTheInputAtTheLargestShiftIsExact) {
  const std::vector<BandLayer> layers = {layer(40, 3, 2, 1), layer(20, 3, 1, 1), layer(20, 1, 1, 0)};
  std::vector<int64_t> input;
  for (int64_t r = 0; r < 40; ++r) input.push_back(r * 5 + 1);
  for (int64_t rows : {1, 2, 4}) {
    const BandSchedule s = schedule_bands(layers, rows);
    const int64_t shift = bands_output_shift(layers, s);
    ASSERT_GE(shift, 0) << rows;
    EXPECT_EQ(banded(layers, input, s, shift), whole(layers, input)) << rows;
    EXPECT_NE(banded(layers, input, s, shift + 1), whole(layers, input)) << rows << ": the shift is the largest";
  }
}

// Paced by every layer, the line buffers of a strided chain stay about one window each instead of widening
// up the chain by its strides.
TEST(Bands, EveryLayerPaceKeepsWindowSizedLineBuffers) {
  const std::vector<BandLayer> layers = {layer(64, 3, 1, 1), layer(64, 3, 2, 1), layer(32, 3, 2, 1),
                                         layer(16, 3, 1, 1)};
  const BandSchedule last = schedule_bands(layers, 1, BandPace::kLastLayer);
  const BandSchedule every = schedule_bands(layers, 1, BandPace::kEveryLayer);
  EXPECT_EQ(every.line_rows, (std::vector<int64_t>{3, 3, 3}));
  EXPECT_GT(last.line_rows[0], 3 * 2) << "four input rows of layer 1 per output row of the last";
  EXPECT_GT(every.calls, last.calls);
  EXPECT_EQ(every.calls, 64 + 32 + 16 + 16);
}

TEST(Bands, PoolsAndStridesDownTheChain) {
  std::vector<BandLayer> layers = {layer(31, 5, 1, 2), layer(31, 2, 2, 0), layer(15, 3, 1, 0), layer(13, 3, 3, 1)};
  for (int64_t rows : {1, 2, 4, 7}) expect_exact(layers, rows);
}

BandLayer residual(int64_t rows, int skip) {
  BandLayer l = layer(rows, 1, 1, 0);
  l.skip = skip;
  return l;
}

// MobileNetV2's inverted residual blocks: 1x1 expand, 3x3 depthwise, 1x1 project, ADD of the block's input.
// The first block's skip is the chain's input, the second's a line buffer that keeps its rows for the ADD.
TEST(Bands, ResidualBlocksKeepTheSkipRowsAndAreExact) {
  const std::vector<BandLayer> layers = {layer(24, 1, 1, 0), layer(24, 3, 1, 1), layer(24, 1, 1, 0),
                                         residual(24, kChainInput), layer(24, 1, 1, 0), layer(24, 3, 1, 1),
                                         layer(24, 1, 1, 0), residual(24, 3), layer(24, 3, 2, 1)};
  for (int64_t rows : {1, 2, 3, 5, 12}) expect_exact(layers, rows);
  const BandSchedule s = schedule_bands(layers, 1);
  // The block input (layer 3's output) is read one row ahead by the expand's depthwise: two rows kept.
  EXPECT_EQ(s.line_rows[3], 3);
  // The last layer's stride 2 takes two rows of the ADD a band: the depthwise reads a window of 4 expand rows.
  EXPECT_EQ(s.line_rows[4], 4);
}

// The ADD reads the chain's input late (after the expand read it): the permitted shift counts those reads.
TEST(Bands, ResidualAddOfTheChainInputLimitsTheOutputShift) {
  std::vector<BandLayer> layers = {layer(20, 1, 1, 0), layer(20, 3, 1, 1), residual(20, kChainInput),
                                   layer(20, 3, 2, 1)};
  layers.back().output_rows = 10;
  std::vector<BandLayer> no_skip = layers;
  no_skip[2].skip = kNoSkip;
  std::vector<int64_t> input;
  for (int64_t r = 0; r < 20; ++r) input.push_back(r * 5 + 1);
  for (int64_t rows : {1, 2, 4}) {
    const BandSchedule s = schedule_bands(layers, rows);
    const int64_t shift = bands_output_shift(layers, s);
    ASSERT_GE(shift, 0) << rows;
    EXPECT_LT(shift, bands_output_shift(no_skip, schedule_bands(no_skip, rows))) << rows;
    EXPECT_EQ(banded(layers, input, s, shift), whole(layers, input)) << rows;
  }
}

// A TRANSPOSE from NCHW at the chain's head: each band's output rows [a, b) read its input from row a on (the
// emitter moves the input pointer by a rows), so the input stays whole and the chain is exact.
TEST(Bands, LayoutHeadStreamsItsOutputRows) {
  BandLayer head = layer(32, 1, 1, 0);
  head.layout_head = true;
  const std::vector<BandLayer> layers = {head, layer(32, 3, 2, 1), layer(16, 3, 1, 1), layer(16, 1, 1, 0)};
  for (int64_t rows : {1, 2, 4, 16}) expect_exact(layers, rows);
  const BandSchedule s = schedule_bands(layers, 2, BandPace::kEveryLayer);
  for (const BandAction& a : s.actions) {
    if (!a.is_call || a.call.layer != 0) continue;
    EXPECT_EQ(a.call.input_first, a.call.first_row);
    EXPECT_EQ(a.call.input_end, a.call.end_row);
    EXPECT_EQ(a.call.input_row, a.call.first_row);
  }
  // The transposed map lives in a line buffer of one window: two output rows of the 3x3 stride 2 read 5 rows.
  EXPECT_EQ(s.line_rows[0], 5);
}

}  // namespace
}  // namespace microaot
