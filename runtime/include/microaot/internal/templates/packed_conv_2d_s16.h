/* The 16x8 CONV_2D (int16 activations, int8 weights, int64 bias) over packed weights (microaot/kernels/packed.h):
 * output pixels three at a time, each one's window put in SMLAD's lane order (no widening: the activations are
 * int16 already) straight from the image, or gathered first at the edges (taps outside the image 0, the symmetric
 * input's padding), against every output channel pair through microaot_packed_pairs3's sums mode (each weight word
 * loaded once for the three pixels), then the bias and TFLite's 16x8 requantization per output as the unpacked DSP
 * kernel's (microaot/internal/dsp_dot_s16.h; one SMLAL an output for the shifts
 * microaot_fit_depthwise_s16_dsp_shift takes). Windows of at most MICROAOT_PACKED_S16_MAX_WINDOW elements: their
 * int32 sums cannot overflow (a product is at most 2^22 in magnitude). The including file defines
 * MICROAOT_PACKED_WIDE_WEIGHTS (0: int8 weight words, 1: int16) and the function names MICROAOT_FN and
 * MICROAOT_FN_OVERLAP. */
#include <stddef.h>
#include <string.h>

#include "microaot/fit/dsp_s16.h"
#include "microaot/internal/conv_window.h"
#include "microaot/internal/dsp_dot_s16.h"
#include "microaot/internal/templates/packed_pairs3.h"
#include "microaot/kernels/packed.h"

typedef microaot_conv_2d_params_q conv_params;
typedef char microaot_packed_s16_window_bound[MICROAOT_PACKED_S16_MAX_WINDOW <= MICROAOT_DSP_S16_CHUNK ? 1 : -1];

/* Where the scratch's parts start (MICROAOT_PACKED_S16_BYTES): the three rows in lane order, interleaved a group
 * at a time; one gathered window; the pairs' sums. */
typedef struct {
  uint32_t* rows;
  int16_t* window;
  int32_t* sums;
} s16_scratch;

/* Output pixel (oy, ox)'s window into row r of the three interleaved rows (per group row 0's two lane words, row
 * 1's, row 2's): straight from the image, filter row by filter row, where it lies inside and its filter rows are
 * whole groups (no gather: a memcpy per filter row of a few channels costs more than its products), else gathered
 * first. */
static void window_into_row(const conv_params* p, const int16_t* image, int32_t oy, int32_t ox, int32_t r,
                            const s16_scratch* s) {
  const int32_t run = p->filter_width * p->input_depth;
  const int32_t in_y = oy * p->stride_height - p->pad_height, in_x = ox * p->stride_width - p->pad_width;
  const int32_t last_y = in_y + (p->filter_height - 1) * p->dilation_height;
  int32_t fy;
  if (run % 4 != 0 || p->dilation_width != 1 || in_y < 0 || last_y >= p->input_height || in_x < 0 ||
      in_x + p->filter_width > p->input_width) {
    microaot_conv_window_elems(p, image, oy, ox, s->window, sizeof(int16_t), 0);
    microaot_dsp_lanes_s16_strided(s->window, microaot_conv_window_size(p), s->rows + 2 * r, 6);
    return;
  }
  for (fy = 0; fy < p->filter_height; ++fy) {
    const size_t pixel = (size_t)(in_y + fy * p->dilation_height) * (size_t)p->input_width + (size_t)in_x;
    uint32_t* const group = s->rows + 6 * (fy * run / 4); /* the filter row's first group */
    microaot_dsp_lanes_s16_strided(image + pixel * (size_t)p->input_depth, run, group + 2 * r, 6);
  }
}

/* `count` (1 to 3) output pixels of row oy from ox on (of one image) into dst, `depth` apart: their windows in the
 * rows (a short group repeats its last pixel, not stored), every channel pair's sums, then the outputs. */
static void pixels3(const conv_params* p, const int16_t* image, int32_t oy, int32_t ox, int32_t count,
                    const int32_t* filter, const int64_t* bias, const s16_scratch* s, int16_t* dst) {
  const int32_t n = microaot_conv_window_size(p), units = p->output_depth, pairs = (units + 1) / 2;
  microaot_packed3_job job;
  int32_t r, u;
  for (r = 0; r < 3; ++r) window_into_row(p, image, oy, ox + (r < count ? r : count - 1), r, s);
  memset(s->sums, 0, (size_t)(6 * pairs) * sizeof(int32_t));
  job.weights = filter, job.out = NULL, job.rows = s->rows;
  job.pair_bytes = 4 * MICROAOT_PACKED_PAIR_WORDS * microaot_packed_groups(n);
  job.from.sums = s->sums, job.end.sums_end = s->sums + 6 * pairs;
  microaot_packed_pairs3(&job);
  for (u = 0; u < units; ++u) {
    const microaot_dsp_s16_channel step = microaot_dsp_s16_channel_of(
        bias, p->output_multiplier[u], p->output_shift[u], p->output_offset, p->activation_min, p->activation_max, u);
    const int32_t* const sums = s->sums + 6 * (u / 2) + u % 2;
    int16_t* const out = dst + u;
    if (microaot_fit_depthwise_s16_dsp_shift(p->output_shift[u])) { /* one SMLAL an output */
      const microaot_dsp_s16_high high = microaot_dsp_s16_high_of(&step);
      for (r = 0; r < count; ++r) {
        out[(size_t)r * (size_t)units] =
            (int16_t)microaot_clamp_s32(microaot_dsp_s16_high_output(&high, sums[2 * r]), step.min, step.max);
      }
    } else {
      for (r = 0; r < count; ++r) out[(size_t)r * (size_t)units] = microaot_dsp_s16_output(&step, sums[2 * r]);
    }
  }
}

/* Every output row (over all batches) into place, or (row_scratch not NULL) through it, copied to its place once
 * the row's windows are read. */
static microaot_status convolve_s16(const conv_params* p, const int16_t* input, const int32_t* filter,
                                    const int64_t* bias, int16_t* output, void* scratch, int overlap) {
  const int32_t n = microaot_conv_window_size(p);
  const size_t image_bytes = (size_t)p->input_height * (size_t)p->input_width * (size_t)p->input_depth;
  const size_t row_size = (size_t)p->output_width * (size_t)p->output_depth;
  int16_t* const row_scratch =
      overlap ? (int16_t*)(void*)((char*)scratch + MICROAOT_PACKED_S16_BYTES(n, p->output_depth)) : NULL;
  s16_scratch s;
  int32_t row, ox;
  if (filter == NULL) return MICROAOT_STATUS_NULL_POINTER;
  if (n > MICROAOT_PACKED_S16_MAX_WINDOW) return MICROAOT_STATUS_VALUE_OUT_OF_RANGE;
  s.rows = (uint32_t*)scratch;
  s.window = (int16_t*)(void*)((char*)scratch + MICROAOT_PACKED_CHUNK_ROWS3_BYTES(n));
  s.sums = (int32_t*)(void*)((char*)s.window + 4 * ((n + 1) / 2));
  for (row = 0; row < p->batches * p->output_height; ++row) {
    const int16_t* image = input + (size_t)(row / p->output_height) * image_bytes;
    int16_t* const out = output + (size_t)row * row_size;
    int16_t* const dst = row_scratch != NULL ? row_scratch : out;
    for (ox = 0; ox < p->output_width; ox += 3) {
      const int32_t count = p->output_width - ox < 3 ? p->output_width - ox : 3;
      int16_t* const pixel = dst + (size_t)ox * (size_t)p->output_depth;
      pixels3(p, image, row % p->output_height, ox, count, filter, bias, &s, pixel);
    }
    if (row_scratch != NULL) memcpy(out, row_scratch, row_size * sizeof(int16_t));
  }
  return MICROAOT_STATUS_OK;
}

microaot_status MICROAOT_FN(const microaot_conv_2d_params_q* params, const int16_t* input, const int32_t* filter,
                            const int64_t* bias, int16_t* output, void* scratch) {
  return convolve_s16(params, input, filter, bias, output, scratch, 0);
}

microaot_status MICROAOT_FN_OVERLAP(const microaot_conv_2d_params_q* params, const int16_t* input,
                                    const int32_t* filter, const int64_t* bias, int16_t* output, void* scratch) {
  return convolve_s16(params, input, filter, bias, output, scratch, 1);
}
