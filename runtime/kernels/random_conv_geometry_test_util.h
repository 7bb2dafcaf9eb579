// For the DSP convolution tests (dsp_kernels_test.cpp, dsp_s16_test.cpp): random window geometries with the
// fields of set_conv_window (conv_geometry_test_util.h).
#pragma once

#include <random>

namespace conv_test {

// The fields of set_conv_window, drawn: sizes, strides, dilations, padding up to the filter's extent - 1.
struct Geometry {
  int batches, in_h, in_w, in_c, filter_h, filter_w, out_h, out_w, out_c;
  int stride_h, stride_w, dilation_h, dilation_w, pad_h, pad_w;
};

inline int out_size(int in, int pad, int filter, int dilation, int stride) {
  return (in + 2 * pad - (filter - 1) * dilation - 1) / stride + 1;
}

// Filters up to max_filter square, dilations 1 or 2; with square3 a 3x3 filter without dilation (the
// depthwise fast path). out_c is left to the caller.
inline Geometry random_geometry(std::mt19937& rng, int max_filter, bool square3 = false) {
  const auto draw = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  Geometry g{};
  g.batches = draw(1, 2);
  g.filter_h = draw(1, max_filter), g.filter_w = draw(1, max_filter);
  g.dilation_h = draw(1, 2), g.dilation_w = draw(1, 2);
  if (square3) g.filter_h = g.filter_w = 3, g.dilation_h = g.dilation_w = 1;
  g.stride_h = draw(1, 2), g.stride_w = draw(1, 2);
  g.pad_h = draw(0, (g.filter_h - 1) * g.dilation_h), g.pad_w = draw(0, (g.filter_w - 1) * g.dilation_w);
  g.in_h = (g.filter_h - 1) * g.dilation_h + draw(1, 6), g.in_w = (g.filter_w - 1) * g.dilation_w + draw(1, 6);
  g.in_c = draw(1, 19);
  g.out_h = out_size(g.in_h, g.pad_h, g.filter_h, g.dilation_h, g.stride_h);
  g.out_w = out_size(g.in_w, g.pad_w, g.filter_w, g.dilation_w, g.stride_w);
  return g;
}

}  // namespace conv_test
