// REMAP kernel: hand-computed tables (a transpose, padding with a fill value, a reversal), a rank-3 walk
// checked against an independent index computation, for 1- and 4-byte elements, and random tables of rank 1 to
// 5 against a direct definition (element sizes 1, 2, 3 and 4; fills in any dimension; rows that are contiguous
// runs, long enough for one copy or not), and planes whose rows lie a fixed step apart (copied column by column).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "microaot/kernels/remap.h"

namespace {

TEST(Remap, TransposesByTables) {
  // in [2,3] = 0..5; out [3,2]: out[i][j] = in[j][i], byte offsets j*3 + i.
  const std::vector<int8_t> in = {0, 1, 2, 3, 4, 5};
  const int32_t dims[] = {3, 2};
  const int32_t offsets[] = {0, 1, 2, /*second dimension*/ 0, 3};
  const int8_t fill[] = {0};
  const microaot_remap_params p = {2, 1, dims, offsets, fill};
  std::vector<int8_t> out(6, -1);
  microaot_remap(&p, in.data(), out.data());
  EXPECT_EQ(out, (std::vector<int8_t>{0, 3, 1, 4, 2, 5}));
}

TEST(Remap, FillsPaddingWithTheFillBytes) {
  // in [2] of int16 {7, 8}; out [1 + 2 + 2] padded with 0x1234.
  const std::vector<int16_t> in = {7, 8};
  const int32_t dims[] = {5};
  const int32_t offsets[] = {-1, 0, 2, -1, -1};
  const int8_t fill[] = {0x34, 0x12};
  const microaot_remap_params p = {1, 2, dims, offsets, fill};
  std::vector<int16_t> out(5, 0);
  microaot_remap(&p, in.data(), out.data());
  EXPECT_EQ(out, (std::vector<int16_t>{0x1234, 7, 8, 0x1234, 0x1234}));
}

TEST(Remap, FillInAnOuterDimensionCoversTheWholeRow) {
  // in [1,2] {1,2}; out [3,2]: rows 0 and 2 padding.
  const std::vector<int8_t> in = {1, 2};
  const int32_t dims[] = {3, 2};
  const int32_t offsets[] = {-1, 0, -1, 0, 1};
  const int8_t fill[] = {9};
  const microaot_remap_params p = {2, 1, dims, offsets, fill};
  std::vector<int8_t> out(6, 0);
  microaot_remap(&p, in.data(), out.data());
  EXPECT_EQ(out, (std::vector<int8_t>{9, 9, 1, 2, 9, 9}));
}

TEST(Remap, AgreesWithIndexArithmeticOnARank3Permutation) {
  // in [2,3,4] float; out [4,2,3] = perm (2,0,1), with the last dimension reversed.
  std::vector<float> in(24);
  for (int i = 0; i < 24; ++i) in[i] = static_cast<float>(i) * 0.5f;
  std::vector<int32_t> offsets;
  for (int c = 0; c < 4; ++c) offsets.push_back(c * 4);
  for (int a = 0; a < 2; ++a) offsets.push_back(a * 12 * 4);
  for (int b = 2; b >= 0; --b) offsets.push_back(b * 4 * 4);
  const int32_t dims[] = {4, 2, 3};
  const int8_t fill[] = {0, 0, 0, 0};
  const microaot_remap_params p = {3, 4, dims, offsets.data(), fill};
  std::vector<float> out(24, -1.0f);
  microaot_remap(&p, in.data(), out.data());
  for (int c = 0; c < 4; ++c) {
    for (int a = 0; a < 2; ++a) {
      for (int b = 0; b < 3; ++b) {
        EXPECT_EQ(out[(c * 2 + a) * 3 + b], in[(a * 3 + (2 - b)) * 4 + c]) << c << a << b;
      }
    }
  }
}

TEST(Remap, RowsEndingInFillAreNotAFixedStep) {
  // Rows at 7, 6, 5 and fill (-1 would continue the step of -1): the last row is the fill, not byte 4.
  const std::vector<int8_t> in = {0, 1, 2, 3, 4, 5, 6, 7};
  const int32_t dims[] = {1, 4, 1};
  const int32_t offsets[] = {5, /*rows*/ 2, 1, 0, -1, /*elements*/ 0};
  const int8_t fill[] = {-9};
  const microaot_remap_params p = {3, 1, dims, offsets, fill};
  std::vector<int8_t> out(4, 0);
  microaot_remap(&p, in.data(), out.data());
  EXPECT_EQ(out, (std::vector<int8_t>{7, 6, 5, -9}));
}

TEST(Remap, EmptyOutputWritesNothing) {
  const int8_t in[] = {1};
  const int32_t dims[] = {2, 0};
  const int32_t offsets[] = {0, 0};
  const int8_t fill[] = {0};
  const microaot_remap_params p = {2, 1, dims, offsets, fill};
  int8_t out[1] = {42};
  microaot_remap(&p, in, out);
  EXPECT_EQ(out[0], 42);
}

// output[o] = the element at the sum of the coordinates' offsets, or the fill where one is -1.
std::vector<uint8_t> remap_directly(const std::vector<int32_t>& dims, const std::vector<int32_t>& offsets,
                                    const std::vector<uint8_t>& in, const std::vector<uint8_t>& fill) {
  std::vector<uint8_t> out;
  std::vector<int32_t> index(dims.size(), 0);
  size_t total = 1;
  for (int32_t d : dims) total *= static_cast<size_t>(d);
  for (size_t n = 0; n < total; ++n) {
    int32_t offset = 0;
    size_t base = 0;
    for (size_t d = 0; d < dims.size(); ++d) {
      const int32_t entry = offsets[base + static_cast<size_t>(index[d])];
      offset = offset < 0 || entry < 0 ? -1 : offset + entry;
      base += static_cast<size_t>(dims[d]);
    }
    const uint8_t* from = offset < 0 ? fill.data() : in.data() + offset;
    out.insert(out.end(), from, from + fill.size());
    for (size_t d = dims.size(); d-- > 0;) {
      if (++index[d] < dims[d]) break;
      index[d] = 0;
    }
  }
  return out;
}

TEST(Remap, MatchesTheDefinitionOnRandomTables) {
  std::mt19937 rng(73);
  auto draw = [&rng](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  for (int trial = 0; trial < 400; ++trial) {
    const int32_t bytes = trial % 4 + 1;
    const size_t rank = static_cast<size_t>(draw(1, 5));
    std::vector<int32_t> dims, offsets;
    int32_t span = 0;  // the input bytes the offsets may reach
    for (size_t d = 0; d < rank; ++d) {
      const int32_t n = d + 1 == rank ? draw(1, 24) : draw(1, 4);
      const bool run = d + 1 == rank && draw(0, 1) == 1;  // a contiguous row
      const int32_t start = draw(0, 3) * bytes;
      for (int32_t i = 0; i < n; ++i) {
        offsets.push_back(run ? start + i * bytes : draw(0, 9) == 0 ? -1 : draw(0, 7) * bytes);
      }
      span += start + 24 * bytes * 2;
      dims.push_back(n);
    }
    std::vector<uint8_t> in(static_cast<size_t>(span)), fill(static_cast<size_t>(bytes));
    for (uint8_t& b : in) b = static_cast<uint8_t>(draw(0, 255));
    for (uint8_t& b : fill) b = static_cast<uint8_t>(draw(0, 255));
    const std::vector<uint8_t> want = remap_directly(dims, offsets, in, fill);
    std::vector<uint8_t> got(want.size(), 0xA5);
    std::vector<int8_t> fill_bytes(fill.size());
    std::memcpy(fill_bytes.data(), fill.data(), fill.size());
    const microaot_remap_params p = {static_cast<int32_t>(rank), bytes, dims.data(), offsets.data(), fill_bytes.data()};
    microaot_remap(&p, in.data(), got.data());
    EXPECT_EQ(got, want) << "trial " << trial;
  }
}

// Planes of 4 to 13 rows a fixed step apart (up or down; the last row fill in some, which must not go by
// columns), each row's elements anywhere, under an outer dimension that continues the rows' step in some (the
// rows of several planes then go as one column) and an outermost one that is fill in places.
TEST(Remap, MatchesTheDefinitionOnRowsAFixedStepApart) {
  std::mt19937 rng(29);
  auto draw = [&rng](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  for (int trial = 0; trial < 400; ++trial) {
    const int32_t bytes = trial % 4 + 1;
    const int32_t outermost = draw(1, 3), outer = draw(1, 3), rows = draw(4, 13), count = draw(1, 6);
    const int32_t step = draw(1, 5) * bytes * (draw(0, 1) == 1 ? 1 : -1);
    const bool last_row_fill = draw(0, 5) == 0, continued = draw(0, 1) == 1;
    const int32_t plane_span = 5 * bytes * rows + 10 * bytes;  // the bytes one plane may reach
    const int32_t outer_step = continued ? rows * step : plane_span;
    std::vector<int32_t> offsets;
    for (int32_t k = 0; k < outermost; ++k) offsets.push_back(draw(0, 3) == 0 ? -1 : k * outer * 2 * plane_span);
    for (int32_t k = 0; k < outer; ++k) {
      offsets.push_back(outer_step > 0 ? k * outer_step : (k + 1 - outer) * outer_step);
    }
    const int32_t first = step > 0 ? 0 : -step * (rows - 1);
    for (int32_t j = 0; j < rows; ++j) offsets.push_back(last_row_fill && j + 1 == rows ? -1 : first + j * step);
    for (int32_t i = 0; i < count; ++i) offsets.push_back(draw(0, 9) * bytes);
    const std::vector<int32_t> dims = {outermost, outer, rows, count};
    std::vector<uint8_t> in(static_cast<size_t>(outermost * outer * 2 * plane_span + plane_span));
    std::vector<uint8_t> fill(static_cast<size_t>(bytes));
    for (uint8_t& b : in) b = static_cast<uint8_t>(draw(0, 255));
    for (uint8_t& b : fill) b = static_cast<uint8_t>(draw(0, 255));
    const std::vector<uint8_t> want = remap_directly(dims, offsets, in, fill);
    std::vector<uint8_t> got(want.size(), 0xA5);
    std::vector<int8_t> fill_bytes(fill.begin(), fill.end());
    const microaot_remap_params p = {4, bytes, dims.data(), offsets.data(), fill_bytes.data()};
    microaot_remap(&p, in.data(), got.data());
    EXPECT_EQ(got, want) << "trial " << trial;
  }
}

}  // namespace
