// SELECT_V2 kernel: byte-generic selection for 1-, 2-, 4- and 8-byte elements, the three-input broadcast walk
// against an explicit broadcast, and the output over x.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "microaot/kernels/select_v2.h"

namespace {

microaot_select_v2_params flat_params(int32_t n, int32_t element_size) {
  microaot_select_v2_params p = {};
  p.flat_size = n;
  p.element_size = element_size;
  return p;
}

template <typename T>
std::vector<T> select(const std::vector<uint8_t>& condition, const std::vector<T>& x, const std::vector<T>& y) {
  const microaot_select_v2_params p = flat_params(static_cast<int32_t>(x.size()), sizeof(T));
  std::vector<T> out(x.size());
  microaot_select_v2(&p, condition.data(), x.data(), y.data(), out.data());
  return out;
}

TEST(SelectV2, MovesWholeElementsOfEverySize) {
  const std::vector<uint8_t> c = {1, 0, 3, 0};  // any non-zero byte is true
  EXPECT_EQ(select<int8_t>(c, {1, 2, 3, 4}, {-1, -2, -3, -4}), (std::vector<int8_t>{1, -2, 3, -4}));
  EXPECT_EQ(select<int16_t>(c, {1000, 2000, 3000, 4000}, {-1, -2, -3, -4}),
            (std::vector<int16_t>{1000, -2, 3000, -4}));
  EXPECT_EQ(select<float>(c, {0.5f, 1.5f, 2.5f, 3.5f}, {-0.0f, -1.0f, -2.0f, -3.0f}),
            (std::vector<float>{0.5f, -1.0f, 2.5f, -3.0f}));
  EXPECT_EQ(select<int64_t>(c, {1LL << 40, 2, 3, 4}, {-1, -(1LL << 50), -3, -4}),
            (std::vector<int64_t>{1LL << 40, -(1LL << 50), 3, -4}));
}

TEST(SelectV2, ThreeInputBroadcastEqualsExplicitBroadcast) {
  // condition [1, 4], x [3, 4], y [4] -> [3, 4]: condition and y re-read for every row.
  const int32_t shape[2] = {3, 4}, sc[2] = {0, 1}, sx[2] = {4, 1}, sy[2] = {0, 1};
  microaot_select_v2_params p = {};
  p.flat_size = 12;
  p.num_dims = 2;
  p.output_shape = shape;
  p.input1_strides = sc;
  p.input2_strides = sx;
  p.input3_strides = sy;
  p.element_size = sizeof(int16_t);
  const std::vector<uint8_t> c = {1, 0, 0, 1};
  std::vector<int16_t> x(12);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<int16_t>(100 + i);
  const std::vector<int16_t> y = {-1, -2, -3, -4};
  std::vector<int16_t> out(12);
  microaot_select_v2(&p, c.data(), x.data(), y.data(), out.data());
  for (int r = 0; r < 3; ++r) {
    for (int k = 0; k < 4; ++k) EXPECT_EQ(out[r * 4 + k], c[k] ? x[r * 4 + k] : y[k]) << r << "," << k;
  }
  // The output over x, which is not broadcast: the same values.
  std::vector<int16_t> in_place = x;
  microaot_select_v2(&p, c.data(), in_place.data(), y.data(), in_place.data());
  EXPECT_EQ(in_place, out);
}

}  // namespace
