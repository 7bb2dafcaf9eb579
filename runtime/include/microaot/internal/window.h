/* The window of one output position along one axis, for the convolution and pooling templates: which
 * filter taps fall inside the input. Computed once per output row or column, so the kernels' tap loops run
 * over in-bounds taps only (skipping the others is what TFLite's reference kernels do tap by tap). */
#ifndef MICROAOT_WINDOW_H
#define MICROAOT_WINDOW_H

#include <stdint.h>

typedef struct {
  int32_t origin; /* input position of tap 0: out * stride - padding (may be negative) */
  int32_t begin;  /* the first tap inside [0, in_size) */
  int32_t end;    /* one past the last; end <= begin when no tap is inside */
} microaot_window;

/* Tap t reads input position origin + t * dilation; taps [begin, end) of the `filter` taps are in bounds. */
static inline microaot_window microaot_window_of(int32_t out, int32_t stride, int32_t padding, int32_t filter,
                                                 int32_t dilation, int32_t in_size) {
  microaot_window w;
  int32_t end;
  w.origin = out * stride - padding;
  /* Both divisions round up; a numerator <= 0 (no tap inside) gives end <= 0. */
  w.begin = w.origin < 0 ? (dilation - 1 - w.origin) / dilation : 0;
  end = (in_size - w.origin + dilation - 1) / dilation;
  w.end = end < filter ? end : filter;
  return w;
}

/* The inputs that reach one output position of a transposed convolution along one axis: input i reaches
 * output `out` through tap origin - i * stride, so [begin, end) are the inputs whose tap lies in
 * [0, filter) (end <= begin when none does). */
static inline microaot_window microaot_transposed_window_of(int32_t out, int32_t stride, int32_t padding,
                                                            int32_t filter, int32_t in_size) {
  microaot_window w;
  const int32_t lowest = out + padding - filter + 1; /* lowest input position * stride whose tap fits */
  int32_t end;
  w.origin = out + padding;
  w.begin = lowest > 0 ? (lowest - 1) / stride + 1 : 0; /* rounds up */
  end = w.origin / stride + 1;
  w.end = end < in_size ? end : in_size;
  return w;
}

#endif /* MICROAOT_WINDOW_H */
