// For convolution kernel tests: the window geometry fields every conv params struct shares, set from a test's
// geometry description (any struct with the fields batches, in_h, ..., pad_w), and random integer data.
#pragma once

#include <cstddef>
#include <random>
#include <vector>

// n values drawn uniformly from [lo, hi].
template <typename T>
std::vector<T> random_ints(std::mt19937& rng, size_t n, int lo, int hi) {
  std::uniform_int_distribution<int> dist(lo, hi);
  std::vector<T> v(n);
  for (T& x : v) x = static_cast<T>(dist(rng));
  return v;
}

template <typename Params, typename Geometry>
void set_conv_window(Params& p, const Geometry& g) {
  p.batches = g.batches, p.input_height = g.in_h, p.input_width = g.in_w, p.input_depth = g.in_c;
  p.filter_height = g.filter_h, p.filter_width = g.filter_w;
  p.output_height = g.out_h, p.output_width = g.out_w, p.output_depth = g.out_c;
  p.stride_height = g.stride_h, p.stride_width = g.stride_w;
  p.dilation_height = g.dilation_h, p.dilation_width = g.dilation_w;
  p.pad_height = g.pad_h, p.pad_width = g.pad_w;
}
