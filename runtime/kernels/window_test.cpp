// microaot_window_of (microaot/internal/window.h) against a scan of every tap: [begin, end) must be exactly the taps
// that fall inside the input, for strides, paddings, dilations and filters larger than the input; likewise
// microaot_transposed_window_of against a scan of every input.
#include "microaot/internal/window.h"

#include <gtest/gtest.h>

#include <string>

namespace {

TEST(Window, CoversExactlyTheInBoundsTaps) {
  int empty = 0;
  for (int in_size = 1; in_size <= 7; ++in_size) {
    for (int filter = 1; filter <= 5; ++filter) {
      for (int stride = 1; stride <= 3; ++stride) {
        for (int dilation = 1; dilation <= 3; ++dilation) {
          for (int padding = 0; padding <= 4; ++padding) {
            for (int out = 0; out <= (in_size + 2 * padding) / stride + 1; ++out) {
              SCOPED_TRACE("in " + std::to_string(in_size) + " filter " + std::to_string(filter) + " stride " +
                           std::to_string(stride) + " dilation " + std::to_string(dilation) + " padding " +
                           std::to_string(padding) + " out " + std::to_string(out));
              const microaot_window w = microaot_window_of(out, stride, padding, filter, dilation, in_size);
              ASSERT_EQ(w.origin, out * stride - padding);
              int inside = 0;
              for (int t = 0; t < filter; ++t) {
                const int position = w.origin + t * dilation;
                const bool in_bounds = position >= 0 && position < in_size;
                ASSERT_EQ(in_bounds, t >= w.begin && t < w.end) << "tap " << t;
                inside += in_bounds ? 1 : 0;
              }
              if (inside == 0) {
                EXPECT_LE(w.end, w.begin);
                ++empty;
              }
            }
          }
        }
      }
    }
  }
  EXPECT_GT(empty, 0);  // the sweep reaches windows wholly outside the input too
}

TEST(TransposedWindow, CoversExactlyTheInputsWhoseTapFits) {
  int empty = 0;
  for (int in_size = 1; in_size <= 6; ++in_size) {
    for (int filter = 1; filter <= 5; ++filter) {
      for (int stride = 1; stride <= 3; ++stride) {
        for (int padding = 0; padding < filter; ++padding) {
          for (int out = 0; out <= in_size * stride + 2; ++out) {
            SCOPED_TRACE("in " + std::to_string(in_size) + " filter " + std::to_string(filter) + " stride " +
                         std::to_string(stride) + " padding " + std::to_string(padding) + " out " +
                         std::to_string(out));
            const microaot_window w = microaot_transposed_window_of(out, stride, padding, filter, in_size);
            ASSERT_EQ(w.origin, out + padding);
            int reaching = 0;
            for (int i = 0; i < in_size; ++i) {
              const int tap = out + padding - i * stride;  // input i reaches `out` through this tap
              const bool fits = tap >= 0 && tap < filter;
              ASSERT_EQ(fits, i >= w.begin && i < w.end) << "input " << i;
              reaching += fits ? 1 : 0;
            }
            if (reaching == 0) {
              EXPECT_LE(w.end, w.begin);
              ++empty;
            }
          }
        }
      }
    }
  }
  EXPECT_GT(empty, 0);  // outputs beyond every input's reach are swept too
}

}  // namespace
