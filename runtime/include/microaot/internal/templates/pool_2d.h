/* The pooling template: AVERAGE_POOL_2D or MAX_POOL_2D for one element type, plain and overlap variant.
 * The including file defines MICROAOT_DTYPE (s8, s16, f32), MICROAOT_POOL (average, max, or l2 for f32 only)
 * and the two function names MICROAOT_FN and MICROAOT_FN_OVERLAP (declared in microaot/kernels/pooling.h).
 * MICROAOT_POOL_LINKAGE (say static) makes the two functions internal, for a source that wraps them.
 * MICROAOT_POOL_MEANS_ONLY leaves out the rows and both functions: the helpers alone (pool_mean_ties, the clamp),
 * for a source that walks its layer on its own (dsp/average_pool_2d_s8_global.c). */
#include <stddef.h>
#include <string.h>

#include "microaot/internal/kernel_dtype.h"
#include "microaot/kernels/pooling.h"
#include "microaot/internal/window.h"

/* The type a window's reduction runs in: TFLM sums int16 windows in int32 (the compiler proves the sum fits). */
#define MICROAOT_POOL_ACC_s8 int32_t
#define MICROAOT_POOL_ACC_s16 int32_t
#define MICROAOT_POOL_ACC_f32 float
#define MICROAOT_POOL_ACC MICROAOT_CAT(MICROAOT_POOL_ACC_, MICROAOT_DTYPE)

/* sum / count: integers round to nearest, ties away from zero (TFLite Micro's reference); C division
 * truncates. */
static inline int32_t pool_mean_int(int32_t sum, int32_t count) {
  if (count <= 0) return 0; /* unreachable: the compiler proves every window is non-empty */
  return sum > 0 ? (sum + count / 2) / count : (sum - count / 2) / count;
}
/* The same with ties to even (the params' ties_to_even: ONNX's rounding): the truncated quotient moves one step
 * away from zero when the remainder passes half the count, or equals it and the quotient is odd. */
static inline int32_t pool_mean_even(int32_t sum, int32_t count) {
  int32_t quotient, twice_remainder;
  if (count <= 0) return 0; /* unreachable, as above */
  quotient = sum / count;
  twice_remainder = 2 * (sum % count < 0 ? -(sum % count) : sum % count);
  if (twice_remainder < count || (twice_remainder == count && (quotient & 1) == 0)) return quotient;
  return sum < 0 ? quotient - 1 : quotient + 1;
}
/* The mean as the params' rounding asks: `even` is ties_to_even, read once per row (an int8 store may alias
 * the params, so a field read per element would be reloaded after every store). */
static inline int32_t pool_mean_ties(int32_t even, int32_t sum, int32_t count) {
  return even ? pool_mean_even(sum, count) : pool_mean_int(sum, count);
}
static inline float pool_mean_f32(int32_t even, float sum, int32_t count) {
  (void)even;
  return sum / (float)count;
}
#define pool_mean_s8 pool_mean_ties
#define pool_mean_s16 pool_mean_ties
/* The rounding field of the params (ties_to_even), or 0 for float. */
#define MICROAOT_POOL_TIES_s8(p) ((p)->ties_to_even)
#define MICROAOT_POOL_TIES_s16(p) ((p)->ties_to_even)
#define MICROAOT_POOL_TIES_f32(p) 0
#define MICROAOT_POOL_TIES(p) MICROAOT_CAT(MICROAOT_POOL_TIES_, MICROAOT_DTYPE)(p)

/* What the two operators differ in: the value a window's reduction starts from, the step that takes in one
 * element, and the result from the reduced value and the window's element count. */
static inline MICROAOT_POOL_ACC average_start(void) { return 0; }
static inline MICROAOT_POOL_ACC average_step(MICROAOT_POOL_ACC sum, MICROAOT_POOL_ACC value) { return sum + value; }
static inline MICROAOT_POOL_ACC average_result(int32_t even, MICROAOT_POOL_ACC sum, int32_t count) {
  return MICROAOT_CAT(pool_mean_, MICROAOT_DTYPE)(even, sum, count);
}
/* max starts from the lowest (finite) value, as TFLite; NaN never replaces the running maximum. */
static inline MICROAOT_POOL_ACC max_start(void) { return MICROAOT_MIN; }
static inline MICROAOT_POOL_ACC max_step(MICROAOT_POOL_ACC max, MICROAOT_POOL_ACC value) { return value > max ? value : max; }
static inline MICROAOT_POOL_ACC max_result(int32_t even, MICROAOT_POOL_ACC max, int32_t count) {
  (void)even;
  (void)count;
  return max;
}
#ifdef MICROAOT_POOL_L2
/* L2_POOL_2D (float only): the square root of the mean square over the in-bounds elements, as TFLM. */
#include <math.h>
static inline float l2_start(void) { return 0.0f; }
static inline float l2_step(float sum, float value) { return sum + value * value; }
static inline float l2_result(int32_t even, float sum, int32_t count) {
  (void)even;
  return sqrtf(sum / (float)count);
}
#endif
#define MICROAOT_POOL_OP(step) MICROAOT_CAT(MICROAOT_POOL, _##step)

#define MICROAOT_POOL_PARAMS MICROAOT_PARAMS_Q(pool_2d)

/* Output row oy (all x and channels) of the image at in_image, written to out. Left out when the including
 * file's own row (MICROAOT_POOL_ROW, below) computes every row its layers have (MICROAOT_POOL_ROW_ALONE). */
#ifndef MICROAOT_POOL_MEANS_ONLY
#ifndef MICROAOT_POOL_ROW_ALONE
/* Four channels at a time, the window's taps outer and the four reductions in locals (each channel's elements in
 * the reference's order, rows then columns), then the channels left one at a time. The params are copied into a
 * local: a store through `out` may alias them, and every clamp would reload its bounds. */
#define MICROAOT_POOL_TAPS(first, rows, cols, row_stride, channels, body)     \
  do {                                                                       \
    const MICROAOT_T* in_row = (first);                                      \
    int32_t fy, fx;                                                          \
    for (fy = 0; fy < (rows); ++fy, in_row += (row_stride)) {                \
      const MICROAOT_T* in = in_row;                                         \
      for (fx = 0; fx < (cols); ++fx, in += (channels)) body                 \
    }                                                                        \
  } while (0)

/* Out of line (GCC, clang): the four-channel loop's registers stay its own. */
#if defined(__GNUC__)
#define MICROAOT_POOL_APART __attribute__((noinline))
#else
#define MICROAOT_POOL_APART
#endif

/* One pixel's channels [c, channels), one at a time, into out. */
static MICROAOT_POOL_APART void pool_channels(const MICROAOT_POOL_PARAMS* p, const MICROAOT_T* corner, int32_t rows,
                                              int32_t cols, int32_t count, size_t c, MICROAOT_T* out) {
  const size_t channels = (size_t)p->channels, row_stride = (size_t)p->input_width * channels;
  const int32_t even = MICROAOT_POOL_TIES(p);
  for (; c < channels; ++c, ++out) {
    MICROAOT_POOL_ACC acc = MICROAOT_POOL_OP(start)();
    MICROAOT_POOL_TAPS(corner + c, rows, cols, row_stride, channels, { acc = MICROAOT_POOL_OP(step)(acc, in[0]); });
    *out = MICROAOT_CLAMP(p, MICROAOT_POOL_OP(result)(even, acc, count));
  }
}

static void pool_row(const MICROAOT_POOL_PARAMS* params, const MICROAOT_T* in_image, int32_t oy, MICROAOT_T* out) {
  const MICROAOT_POOL_PARAMS p = *params;
  const size_t channels = (size_t)p.channels;
  const size_t row_stride = (size_t)p.input_width * channels;
  const microaot_window y =
      microaot_window_of(oy, p.stride_height, p.padding_height, p.filter_height, 1, p.input_height);
  const int32_t even = MICROAOT_POOL_TIES(&p), rows = y.end - y.begin;
  int32_t ox;
  size_t c;
  for (ox = 0; ox < p.output_width; ++ox) {
    const microaot_window x = microaot_window_of(ox, p.stride_width, p.padding_width, p.filter_width, 1, p.input_width);
    const int32_t cols = x.end - x.begin, count = rows * cols;
    const MICROAOT_T* corner =
        in_image + (size_t)(y.origin + y.begin) * row_stride + (size_t)(x.origin + x.begin) * channels;
    for (c = 0; c + 4 <= channels; c += 4, out += 4) {
      MICROAOT_POOL_ACC a0 = MICROAOT_POOL_OP(start)(), a1 = a0, a2 = a0, a3 = a0;
      MICROAOT_POOL_TAPS(corner + c, rows, cols, row_stride, channels, {
        a0 = MICROAOT_POOL_OP(step)(a0, in[0]);
        a1 = MICROAOT_POOL_OP(step)(a1, in[1]);
        a2 = MICROAOT_POOL_OP(step)(a2, in[2]);
        a3 = MICROAOT_POOL_OP(step)(a3, in[3]);
      });
      out[0] = MICROAOT_CLAMP(&p, MICROAOT_POOL_OP(result)(even, a0, count));
      out[1] = MICROAOT_CLAMP(&p, MICROAOT_POOL_OP(result)(even, a1, count));
      out[2] = MICROAOT_CLAMP(&p, MICROAOT_POOL_OP(result)(even, a2, count));
      out[3] = MICROAOT_CLAMP(&p, MICROAOT_POOL_OP(result)(even, a3, count));
    }
    if (c < channels) pool_channels(&p, corner, rows, cols, count, c, out);
    out += channels - c;
  }
}
#undef MICROAOT_POOL_TAPS
#undef MICROAOT_POOL_APART
#endif

/* The function that computes one output row: pool_row, or an including file's faster one (declared before the
 * include, with pool_row's signature; it may call pool_row for the rows it does not specialise). */
#ifndef MICROAOT_POOL_ROW
#define MICROAOT_POOL_ROW pool_row
#endif

/* Every output row in order, straight into the output, or (overlap variant) into row_scratch and then copied
 * to its place, so that no output byte is stored before the last input read of its row. */
static void pool_rows(const MICROAOT_POOL_PARAMS* p, const MICROAOT_T* input, MICROAOT_T* output,
                      MICROAOT_T* row_scratch) {
  const size_t image_size = (size_t)p->input_height * (size_t)p->input_width * (size_t)p->channels;
  const size_t row_size = (size_t)p->output_width * (size_t)p->channels;
  int32_t row; /* over all batches */
  for (row = 0; row < p->batches * p->output_height; ++row) {
    MICROAOT_T* out = output + (size_t)row * row_size;
    const int32_t batch = row / p->output_height;
    MICROAOT_POOL_ROW(p, input + (size_t)batch * image_size, row - batch * p->output_height,
                      row_scratch != NULL ? row_scratch : out);
    if (row_scratch != NULL) memcpy(out, row_scratch, row_size * sizeof(MICROAOT_T));
  }
}

#ifndef MICROAOT_POOL_LINKAGE
#define MICROAOT_POOL_LINKAGE
#endif

MICROAOT_POOL_LINKAGE void MICROAOT_FN(const MICROAOT_POOL_PARAMS* params, const MICROAOT_T* input,
                                       MICROAOT_T* output) {
  pool_rows(params, input, output, NULL);
}

MICROAOT_POOL_LINKAGE void MICROAOT_FN_OVERLAP(const MICROAOT_POOL_PARAMS* params, const MICROAOT_T* input,
                                               MICROAOT_T* output, void* scratch) {
  pool_rows(params, input, output, (MICROAOT_T*)scratch);
}
#endif /* MICROAOT_POOL_MEANS_ONLY */
