// RESIZE_NEAREST_NEIGHBOR and RESIZE_BILINEAR kernels: hand-computed gathers and blends (rounding halves
// away from zero, a negative half-pixel weight), nearest-neighbour gathers of random geometry (repeated source
// rows, pixels below and above 16 bytes) against the definition, and the int8 blend against the real-valued
// bilinear formula over many inputs and weights and against TFLM's 64-bit sum at the bounds of its weights.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "microaot/kernels/resize.h"

namespace {

TEST(ResizeNearestNeighbor, CopiesWholePixelsPerBatch) {
  // Two batches of [2,2] pixels of 2 int16 channels; rows {1,0}, columns {0,0,1}.
  std::vector<int16_t> in(2 * 2 * 2 * 2);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<int16_t>(100 * i);
  const int32_t rows[] = {1, 0}, cols[] = {0, 0, 1};
  const microaot_resize_nearest_neighbor_params p = {2, 2, 2, 2, 3, 4, rows, cols};
  std::vector<int16_t> out(2 * 2 * 3 * 2, -1);
  microaot_resize_nearest_neighbor(&p, in.data(), out.data());
  const std::vector<int16_t> batch0 = {400, 500, 400, 500, 600, 700, 0, 100, 0, 100, 200, 300};
  for (size_t i = 0; i < batch0.size(); ++i) {
    EXPECT_EQ(out[i], batch0[i]) << i;
    EXPECT_EQ(out[12 + i], batch0[i] + 800) << i;
  }
}

TEST(ResizeNearestNeighbor, MatchesTheDefinitionOnRandomGeometry) {
  std::mt19937 rng(83);
  auto draw = [&rng](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  for (int trial = 0; trial < 200; ++trial) {
    const int32_t batches = draw(1, 2), in_h = draw(1, 5), in_w = draw(1, 5), out_h = draw(1, 11),
                  out_w = draw(1, 11), pixel = draw(1, 40);
    std::vector<int32_t> rows(static_cast<size_t>(out_h)), cols(static_cast<size_t>(out_w));
    for (int32_t y = 0; y < out_h; ++y) {
      rows[static_cast<size_t>(y)] = trial % 2 == 0 ? y * in_h / out_h : draw(0, in_h - 1);  // upscales repeat rows
    }
    for (int32_t& c : cols) c = draw(0, in_w - 1);
    std::vector<uint8_t> in(static_cast<size_t>(batches * in_h * in_w * pixel));
    for (uint8_t& b : in) b = static_cast<uint8_t>(draw(0, 255));
    std::vector<uint8_t> want, got(static_cast<size_t>(batches * out_h * out_w * pixel), 0xA5);
    for (int32_t b = 0; b < batches; ++b) {
      for (int32_t y = 0; y < out_h; ++y) {
        for (int32_t x = 0; x < out_w; ++x) {
          const size_t at = static_cast<size_t>(((b * in_h + rows[static_cast<size_t>(y)]) * in_w +
                                                 cols[static_cast<size_t>(x)]) * pixel);
          want.insert(want.end(), in.begin() + static_cast<std::ptrdiff_t>(at),
                      in.begin() + static_cast<std::ptrdiff_t>(at) + pixel);
        }
      }
    }
    const microaot_resize_nearest_neighbor_params p = {batches, in_h, in_w, out_h, out_w, pixel, rows.data(),
                                                       cols.data()};
    microaot_resize_nearest_neighbor(&p, in.data(), got.data());
    EXPECT_EQ(got, want) << "trial " << trial;
  }
}

TEST(ResizeBilinear, Int8HalvesRoundAwayFromZero) {
  // One row [0, 101, -101] widened: column taps (0,1,w=512) and (0,2,w=512) give 50.5 -> 51 and -50.5 -> -51.
  const std::vector<int8_t> in = {0, 101, -101};
  const int32_t zero[] = {0}, cols_lo[] = {0, 0, 1}, cols_hi[] = {1, 2, 1}, col_w[] = {512, 512, 0};
  const microaot_resize_bilinear_params_q p = {1, 1, 3, 1, 3, 1, zero, zero, cols_lo, cols_hi, zero, col_w};
  std::vector<int8_t> out(3, 0);
  microaot_resize_bilinear_s8(&p, in.data(), out.data());
  EXPECT_EQ(out, (std::vector<int8_t>{51, -51, 101}));
}

TEST(ResizeBilinear, Int8NegativeWeightOnOnePixelKeepsIt) {
  // Half-pixel centres start at position -147/1024 with both taps on pixel 0: the value is unchanged.
  const std::vector<int8_t> in = {-77, 5};
  const int32_t zero[] = {0}, lo[] = {0}, hi[] = {0}, w[] = {-147};
  const microaot_resize_bilinear_params_q p = {1, 1, 2, 1, 1, 1, zero, zero, lo, hi, zero, w};
  int8_t out = 0;
  microaot_resize_bilinear_s8(&p, in.data(), &out);
  EXPECT_EQ(out, -77);
}

TEST(ResizeBilinear, Int8AgreesWithTheRealBlend) {
  // A [3,3] image of 2 channels sampled at random taps and weights, against the real-valued formula.
  std::mt19937 rng(11);
  std::uniform_int_distribution<int> value(-128, 127), index(0, 2), weight(0, 1023);
  std::vector<int8_t> in(3 * 3 * 2);
  for (int8_t& v : in) v = static_cast<int8_t>(value(rng));
  std::vector<int32_t> rlo(5), rhi(5), rw(5), clo(7), chi(7), cw(7);
  for (int i = 0; i < 5; ++i) rlo[i] = index(rng), rhi[i] = index(rng), rw[i] = weight(rng);
  for (int i = 0; i < 7; ++i) clo[i] = index(rng), chi[i] = index(rng), cw[i] = weight(rng);
  const microaot_resize_bilinear_params_q p = {1,          3,          3,         5,         7,         2,
                                               rlo.data(), rhi.data(), clo.data(), chi.data(), rw.data(), cw.data()};
  std::vector<int8_t> out(5 * 7 * 2);
  microaot_resize_bilinear_s8(&p, in.data(), out.data());
  auto at = [&](int y, int x, int c) { return static_cast<double>(in[(y * 3 + x) * 2 + c]); };
  for (int y = 0; y < 5; ++y) {
    for (int x = 0; x < 7; ++x) {
      for (int c = 0; c < 2; ++c) {
        const double fy = rw[y] / 1024.0, fx = cw[x] / 1024.0;
        const double real = at(rlo[y], clo[x], c) * (1 - fy) * (1 - fx) + at(rhi[y], clo[x], c) * fy * (1 - fx) +
                            at(rlo[y], chi[x], c) * (1 - fy) * fx + at(rhi[y], chi[x], c) * fy * fx;
        EXPECT_EQ(out[(y * 7 + x) * 2 + c], static_cast<int8_t>(std::round(real))) << y << " " << x << " " << c;
      }
    }
  }
}

// TFLM's sum in 64 bits and its division, against the kernel's int32 sum, on weights over their whole range
// [-512, 1024) (the ends included) and values at the int8 extremes as often as random ones.
TEST(ResizeBilinear, Int8EqualsTheSixtyFourBitSumAtTheBounds) {
  std::mt19937 rng(13);
  std::uniform_int_distribution<int> value(-128, 127), index(0, 3), weight(-512, 1023), pick(0, 3);
  const int weights_at_ends[] = {-512, 1023, 0, -1};
  std::vector<int8_t> in(4 * 4 * 3);
  std::vector<int32_t> rlo(40), rhi(40), rw(40), clo(40), chi(40), cw(40);
  for (int round = 0; round < 50; ++round) {
    for (int8_t& v : in) v = static_cast<int8_t>(pick(rng) == 0 ? -128 : pick(rng) == 0 ? 127 : value(rng));
    for (int i = 0; i < 40; ++i) {
      rlo[i] = index(rng), rhi[i] = index(rng), clo[i] = index(rng), chi[i] = index(rng);
      rw[i] = pick(rng) == 0 ? weights_at_ends[pick(rng)] : weight(rng);
      cw[i] = pick(rng) == 0 ? weights_at_ends[pick(rng)] : weight(rng);
    }
    const microaot_resize_bilinear_params_q p = {1,          4,          4,          40,        40,       3,
                                                 rlo.data(), rhi.data(), clo.data(), chi.data(), rw.data(), cw.data()};
    std::vector<int8_t> out(40 * 40 * 3);
    microaot_resize_bilinear_s8(&p, in.data(), out.data());
    auto at = [&](int y, int x, int c) { return static_cast<int64_t>(in[static_cast<size_t>((y * 4 + x) * 3 + c)]); };
    for (int y = 0; y < 40; ++y) {
      for (int x = 0; x < 40; ++x) {
        for (int c = 0; c < 3; ++c) {
          const int64_t one = 1024, wy = rw[y], wx = cw[x];
          const int64_t sum = at(rlo[y], clo[x], c) * (one - wy) * (one - wx) +
                              at(rhi[y], clo[x], c) * wy * (one - wx) + at(rlo[y], chi[x], c) * (one - wy) * wx +
                              at(rhi[y], chi[x], c) * wy * wx;
          const int64_t half = int64_t{1} << 19;
          const auto want = static_cast<int8_t>((sum + (sum > 0 ? half : -half)) / (int64_t{1} << 20));
          ASSERT_EQ(out[static_cast<size_t>((y * 40 + x) * 3 + c)], want) << round << ": " << y << " " << x << " " << c;
        }
      }
    }
  }
}

TEST(ResizeBilinear, FloatBlendsFourPixelsPerBatch) {
  // Two batches of a [2,2] single-channel image; output pixel at (1/4, 1/2) between all four.
  const std::vector<float> in = {0.0f, 4.0f, 8.0f, 12.0f, 1.0f, 1.0f, 1.0f, 1.0f};
  const int32_t lo[] = {0}, hi[] = {1};
  const float rw[] = {0.25f}, cw[] = {0.5f};
  const microaot_resize_bilinear_params_f32 p = {2, 2, 2, 1, 1, 1, lo, hi, lo, hi, rw, cw};
  std::vector<float> out(2, 0.0f);
  microaot_resize_bilinear_f32(&p, in.data(), out.data());
  // 0*.75*.5 + 8*.25*.5 + 4*.75*.5 + 12*.25*.5 = 1 + 1.5 + 1.5 = 4.
  EXPECT_FLOAT_EQ(out[0], 4.0f);
  EXPECT_FLOAT_EQ(out[1], 1.0f);
}

}  // namespace
