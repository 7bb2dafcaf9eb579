/* SUM and MEAN int8 for a cpu with the DSP extension, bit-exact with the portable kernel (the same int32 sums,
 * which wrap alike in any order, and the same rescale). The template's walk spends about 9 instructions an
 * element; here a word of four elements takes one load and two SXTAB16 into 16-bit lanes, in two layouts:
 * - channels: the kept walk's innermost dimension is contiguous (MEAN over height and width, the global average
 *   pool of Keras models), so four neighbouring outputs are four lanes fed by one load per reduced position;
 * - rows: the reduced walk's innermost dimension is contiguous (a sum over the last axis), whose words the lanes
 *   take four elements at a time.
 * A lane takes at most 256 values (|sum| <= 128 * 256 fits int16) before it is flushed into int32. Other layouts,
 * and the last one to three channels, take the template's walk. */
#include <stdint.h>

#include "microaot/internal/dsp.h"
#include "microaot/kernels/reduce.h"

static int dsp_sum_lanes(const microaot_reduce_sum_params_q* p, const int8_t* input, int8_t* output);
#define MICROAOT_REDUCE_FAST dsp_sum_lanes

#define MICROAOT_DTYPE s8
#define MICROAOT_REDUCE sum
#define MICROAOT_FN microaot_reduce_sum_s8
#include "microaot/internal/templates/reduce.h"

/* Words a lane pair takes before a flush: 256 int8 values per 16-bit lane. */
#define DSP_LANE_ROOM 256

/* Two lane pairs: even holds bytes 0 and 2 of each word, odd bytes 1 and 3. */
typedef struct {
  uint32_t even, odd;
  int32_t room;
} dsp_lanes;

/* Adds the lanes into sum[0..3] (byte order) and empties them. */
static void dsp_lanes_flush(dsp_lanes* l, int32_t* sum) {
  sum[0] = microaot_wrapping_add_s32(sum[0], microaot_dsp_bottom(l->even));
  sum[1] = microaot_wrapping_add_s32(sum[1], microaot_dsp_bottom(l->odd));
  sum[2] = microaot_wrapping_add_s32(sum[2], microaot_dsp_top(l->even));
  sum[3] = microaot_wrapping_add_s32(sum[3], microaot_dsp_top(l->odd));
  l->even = l->odd = 0;
  l->room = DSP_LANE_ROOM;
}

/* Feeds n words, `step` bytes apart from `at`, flushing whenever the lanes are full. The pointer only moves to
 * a word still to be read: a channel's column ends up to `step` bytes before the tensor's end, and a pointer
 * past one beyond an array is undefined even unread. */
static void dsp_lanes_feed(dsp_lanes* l, int32_t* sum, const int8_t* at, ptrdiff_t step, int32_t n) {
  while (n > 0) {
    const int32_t run = n < l->room ? n : l->room;
    uint32_t even = l->even, odd = l->odd;
    int32_t k;
    for (k = 0; k + 4 <= run; k += 4) {
      const int8_t* const q = at + k * step;
      const uint32_t w0 = microaot_dsp_load4(q), w1 = microaot_dsp_load4(q + step);
      const uint32_t w2 = microaot_dsp_load4(q + 2 * step), w3 = microaot_dsp_load4(q + 3 * step);
      even = microaot_dsp_sxtab16(even, w0), odd = microaot_dsp_sxtab16_ror8(odd, w0);
      even = microaot_dsp_sxtab16(even, w1), odd = microaot_dsp_sxtab16_ror8(odd, w1);
      even = microaot_dsp_sxtab16(even, w2), odd = microaot_dsp_sxtab16_ror8(odd, w2);
      even = microaot_dsp_sxtab16(even, w3), odd = microaot_dsp_sxtab16_ror8(odd, w3);
    }
    for (; k < run; ++k) {
      const uint32_t w = microaot_dsp_load4(at + k * step);
      even = microaot_dsp_sxtab16(even, w), odd = microaot_dsp_sxtab16_ror8(odd, w);
    }
    l->even = even, l->odd = odd;
    l->room -= run;
    n -= run;
    if (l->room == 0) dsp_lanes_flush(l, sum);
    if (n > 0) at += run * step;
  }
}

/* Feeds the reduced walk's rows from `group`, each row's elements `step` bytes apart (its stride for the
 * channels, 4 for the words of a contiguous row), `words` of them, then the row's last `tail` bytes one by one.
 * A walk of one dimension (the compiler merges what it can) goes without the odometer. */
static void dsp_lanes_walk(const microaot_reduce_sum_params_q* p, dsp_lanes* l, int32_t* sum, const int8_t* group,
                           ptrdiff_t step, int32_t words, int32_t tail) {
  const int32_t outer = p->reduced_dims - 1;
  int32_t index[MICROAOT_WALK_MAX_DIMS];
  int32_t c;
  for (c = 0; c < outer; ++c) index[c] = 0;
  do {
    const int8_t* const row = outer == 0 ? group : group + microaot_walk_offset(outer, index, p->reduced_strides);
    dsp_lanes_feed(l, sum, row, step, words);
    for (c = 0; c < tail; ++c) sum[0] = microaot_wrapping_add_s32(sum[0], row[4 * words + c]);
  } while (outer > 0 && microaot_walk_next(outer, p->reduced_shape, index));
}

/* Channels: the sums of the four groups that start at first .. first + 3, into out[0..3]. */
static void dsp_sum_channels4(const microaot_reduce_sum_params_q* p, const int8_t* first, int8_t* out) {
  const int32_t inner = p->reduced_dims - 1;
  int32_t sum[4] = {0, 0, 0, 0}, k;
  dsp_lanes l = {0, 0, DSP_LANE_ROOM};
  dsp_lanes_walk(p, &l, sum, first, p->reduced_strides[inner], p->reduced_shape[inner], 0);
  dsp_lanes_flush(&l, sum);
  for (k = 0; k < 4; ++k) out[k] = (int8_t)microaot_reduce_sum_output(p, sum[k], INT8_MIN, INT8_MAX);
}

/* Rows: the sum of one group whose innermost reduced rows are contiguous. */
static int8_t dsp_sum_rows(const microaot_reduce_sum_params_q* p, const int8_t* group) {
  const int32_t row = p->reduced_shape[p->reduced_dims - 1];
  int32_t sum[4] = {0, 0, 0, 0}, total;
  dsp_lanes l = {0, 0, DSP_LANE_ROOM};
  dsp_lanes_walk(p, &l, sum, group, 4, row / 4, row % 4);
  dsp_lanes_flush(&l, sum);
  total = microaot_wrapping_add_s32(microaot_wrapping_add_s32(sum[0], sum[1]),
                                    microaot_wrapping_add_s32(sum[2], sum[3]));
  return (int8_t)microaot_reduce_sum_output(p, total, INT8_MIN, INT8_MAX);
}

/* The layout's form, or 0 for the template's walk. */
static int dsp_sum_lanes(const microaot_reduce_sum_params_q* p, const int8_t* input, int8_t* output) {
  const int32_t kept = p->kept_dims - 1, channels = p->kept_shape[kept];
  int32_t index[MICROAOT_WALK_MAX_DIMS], d;
  for (d = 0; d < p->kept_dims; ++d) index[d] = 0;
  if (p->kept_strides[kept] == 1 && channels >= 4) {
    do {
      const int8_t* base = input + microaot_walk_offset(kept, index, p->kept_strides);
      int32_t c;
      for (c = 0; c + 4 <= channels; c += 4, output += 4) dsp_sum_channels4(p, base + c, output);
      for (; c < channels; ++c) *output++ = reduce_group(p, base + c);
    } while (microaot_walk_next(kept, p->kept_shape, index));
    return 1;
  }
  if (p->reduced_strides[p->reduced_dims - 1] == 1 && p->reduced_shape[p->reduced_dims - 1] >= 8) {
    do {
      *output++ = dsp_sum_rows(p, input + microaot_walk_offset(p->kept_dims, index, p->kept_strides));
    } while (microaot_walk_next(p->kept_dims, p->kept_shape, index));
    return 1;
  }
  return 0;
}
