/* The int8 k x k CONV_2D over packed weights (microaot/kernels/packed.h): a matrix product over the pixels'
 * windows. Output pixels three at a time (the last two or four of a row in pairs), each one's window gathered
 * whole (microaot/internal/conv_window.h, padding taps as the input zero point, which the folded bias makes exact)
 * and widened in one call; then multiplied by every output channel pair (microaot_packed_rows3: each weight word
 * loaded once for three pixels). Windows past one chunk go three pixels at a time too, their sums kept between
 * chunks (convolve_chunked). (Widening rows straight from the image saved a copy but cost KWS and VWW
 * instructions and 380 bytes.) A 1x1 filter without padding (the compiler sends 1x1 layers here when the model
 * links this kernel: compiler/kernels/share_kernels.cpp) reads its pixels in place, with the 1x1 kernel's params
 * (no gathered window) and a scratch of three rows. The including file
 * defines MICROAOT_PACKED_WIDE_WEIGHTS (0: int8 weight words, 1: int16, microaot/internal/packed_dot.h) and the two
 * function names MICROAOT_FN and MICROAOT_FN_OVERLAP. */
#include <stddef.h>
#include <string.h>

#include "microaot/internal/templates/packed_kxk_windows.h"
#include "microaot/internal/templates/packed_rows3.h"

static window_scratch split_scratch(const conv_params* p, void* scratch) {
  window_scratch s;
  s.rows = (uint32_t*)scratch;
  s.gathered = (int8_t*)scratch + MICROAOT_PACKED_CHUNK_ROWS3_BYTES(microaot_conv_window_size(p));
  s.gathered_bytes = 4 * microaot_packed_groups(microaot_conv_window_size(p));
  return s;
}

/* How many output pixels of a row's `left` go next: three at a time; four left go as two pairs rather than a
 * triple and a row alone. */
static int32_t pixels_at_a_time(int32_t left) { return left < 3 ? left : left == 4 ? 2 : 3; }

/* Windows longer than MICROAOT_PACKED_CHUNK, reduced in chunks: the output pixels (oy, ox), (oy, ox + 1), ...
 * whose windows' parts are read in place (pixel windows: `pixel` the first one's input pixel, the next
 * pixel_step bytes on) or gathered into `gathered` (pixel NULL). */
typedef struct {
  const conv_params* p;
  const int8_t* image;
  int32_t oy, ox;
  int8_t* gathered;
  const int8_t* pixel;
  size_t pixel_step;
} window_part_source;

/* From a window_part_source: pixel ox + row's window elements [begin, begin + n), tap
 * by tap (a chunk's taps are long: at least MICROAOT_PACKED_CHUNK / 25 channels for up to 5x5 taps), the input
 * zero point outside the image. Its own copy loop, so that the whole windows' helpers stay inlined where they are. */
static const int8_t* gather_window_part(const window_part_source* w, int32_t row, int32_t begin, int32_t n) {
  const conv_params* const p = w->p;
  const int32_t depth = p->input_depth;
  int8_t* dst = w->gathered;
  while (n > 0) {
    const int32_t tap = begin / depth, channel = begin % depth, take = n < depth - channel ? n : depth - channel;
    const int32_t in_y = w->oy * p->stride_height - p->pad_height + tap / p->filter_width * p->dilation_height;
    const int32_t in_x = (w->ox + row) * p->stride_width - p->pad_width + tap % p->filter_width * p->dilation_width;
    if (in_y < 0 || in_y >= p->input_height || in_x < 0 || in_x >= p->input_width) {
      memset(dst, (int8_t)-p->input_offset, (size_t)take);
    } else {
      memcpy(dst, w->image + ((size_t)in_y * (size_t)p->input_width + (size_t)in_x) * (size_t)depth + (size_t)channel,
             (size_t)take);
    }
    begin += take, n -= take, dst += take;
  }
  return w->gathered;
}

/* The windows of `count` output pixels from (oy, ox) on gathered and widened. A layer whose windows are all
 * gathered (`slots` 3: not MICROAOT_PACKED_DIRECT_RUNS) has three gathered windows, widened at once
 * (microaot_packed_widen3) when they are three; else each is widened once gathered. One gather call site: two
 * inlined copies cost 250 bytes. */
static void widen_gathered(const conv_params* p, const int8_t* image, int32_t oy, int32_t ox, int32_t count,
                           int32_t slots, const window_scratch* s, const padded_rows* padded) {
  const int at_once = count == 3 && slots == 3;
  const size_t slot_bytes = slots == 3 ? (size_t)s->gathered_bytes : 0;
  int32_t r;
  for (r = 0; r < count; ++r) {
    int8_t* const window = s->gathered + (size_t)r * slot_bytes;
    gather_window(p, image, padded, oy, ox + r, window);
    if (!at_once) microaot_packed_widen(window, s->gathered_bytes, s->rows + 2 * r, 2 * count);
  }
  if (at_once) microaot_packed_widen3(s->gathered, (size_t)s->gathered_bytes, s->gathered_bytes / 4, s->rows);
}

/* Output row `oy` of one image into `dst` (output_width pixels), its windows gathered from `padded` where the
 * layer takes padded rows (not NULL: filled here). */
static void window_row(const conv_params* p, const int8_t* image, int32_t oy, int pixels, const int32_t* filter,
                       const microaot_dsp_output_stage* stage, const int32_t* requant, const window_scratch* s,
                       const padded_rows* padded, int8_t* dst) {
  const int32_t groups = s->gathered_bytes / 4;
  const size_t pixel_bytes = (size_t)p->output_depth;
  /* Pixel windows: the row's input pixels, widened straight from the image (NULL: the windows). */
  const size_t pixel_step = (size_t)p->stride_width * (size_t)p->input_depth;
  const int8_t* pixel =
      pixels ? image + (size_t)(oy * p->stride_height) * (size_t)p->input_width * (size_t)p->input_depth
                         : NULL;
  const int runs = widens_direct(p);
  int32_t ox, count;
  if (padded != NULL) pad_rows(p, image, oy, padded);
  for (ox = 0; ox < p->output_width; ox += count, dst += (size_t)count * pixel_bytes) {
    count = pixels_at_a_time(p->output_width - ox);
    if (pixel != NULL) {
      widen_pixels(pixel, pixel_step, p->input_depth, count, s->rows);
      pixel += (size_t)count * pixel_step;
    } else if (!runs || count != 3 || !widen_direct(p, image, oy, ox, s->rows)) {
      widen_gathered(p, image, oy, ox, count, runs ? 1 : 3, s, padded); /* read straight where it can: one slot */
    }
    if (count == 3) {
      microaot_packed_rows3(s->rows, filter, groups, p->output_depth, stage, requant, dst, pixel_bytes);
    } else {
      MICROAOT_PACKED_FORM(microaot_packed_rows)(s->rows, filter, groups, p->output_depth, stage, requant, dst,
                                                 count == 2 ? dst + pixel_bytes : NULL);
    }
  }
}

/* Every output row (over all batches) into place, or (`overlap`) through an output row in the scratch after the
 * plain flavor's part, copied to its place once the row's windows are read. Both entries' one body for windows of
 * one chunk (up to MICROAOT_PACKED_CHUNK elements). */
#if defined(__GNUC__)
__attribute__((noinline)) /* one copy: the entries tail-call it */
#endif
static microaot_status convolve(const conv_params* p, const int8_t* input, const int32_t* filter,
                                const int32_t* requant, int8_t* output, void* scratch, int overlap) {
  const size_t image_bytes = (size_t)p->input_height * (size_t)p->input_width * (size_t)p->input_depth;
  const size_t row_bytes = (size_t)p->output_width * (size_t)p->output_depth;
  const microaot_dsp_output_stage stage = MICROAOT_DSP_OUTPUT_STAGE(p, NULL);
  const window_scratch s = split_scratch(p, scratch);
  const int32_t window = microaot_conv_window_size(p);
  const int pixels = microaot_packed_pixel_windows(p);
  /* The plain flavor's scratch: a pixel window's the widened rows alone (MICROAOT_PACKED_PIXEL_ROWS_BYTES). */
  const size_t windows_bytes =
      pixels ? (size_t)MICROAOT_PACKED_CHUNK_ROWS3_BYTES(p->input_depth)
             : (size_t)MICROAOT_PACKED_WINDOWS_BYTES(window, p->filter_width * p->input_depth, p->output_depth);
  /* Then the padded rows (microaot_packed_kxk_bytes; a pixel window has none: no per-call cost). */
  const int32_t padded_bytes = pixels ? 0 : microaot_packed_padded_rows_bytes(p);
  int8_t* const row_scratch = overlap ? (int8_t*)scratch + windows_bytes + padded_bytes : NULL;
  padded_rows padded;
  int32_t row;
  padded.rows = (int8_t*)scratch + windows_bytes, padded.bytes = 0;
  if (requant == NULL) return MICROAOT_STATUS_NULL_POINTER;
  if (padded_bytes > 0) {
    padded.bytes = (size_t)microaot_packed_padded_row_bytes(p);
    pad_rows_start(p, &padded);
  }
  /* The gathered windows' bytes past their ends, up to a whole group, are never gathered into: zeros once (a pixel
   * window has no gathered window). */
  for (row = 0; !pixels && window % 4 != 0 && row < (widens_direct(p) ? 1 : 3); ++row) {
    memset(s.gathered + (size_t)row * (size_t)s.gathered_bytes + window, 0, (size_t)(s.gathered_bytes - window));
  }
  for (row = 0; row < p->batches * p->output_height; ++row) {
    const int8_t* image = input + (size_t)(row / p->output_height) * image_bytes;
    int8_t* out = output + (size_t)row * row_bytes;
    window_row(p, image, row % p->output_height, pixels, filter, &stage, requant, &s,
               padded_bytes > 0 ? &padded : NULL, row_scratch != NULL ? row_scratch : out);
    if (row_scratch != NULL) memcpy(out, row_scratch, row_bytes);
  }
  return MICROAOT_STATUS_OK;
}

/* One chunk's products of three interleaved rows added to the sums (microaot_packed_sum_index's three-row
 * order): the unit pairs through microaot_packed_pairs3's sums mode, an odd last unit in C (as
 * microaot_packed_sums_chunk's units left). Returns the next chunk's weights. */
static const int32_t* sums_chunk3(const uint32_t* rows, const int32_t* weights, int32_t groups, int32_t units,
                                  int32_t* sums) {
  const size_t pair_words = (size_t)MICROAOT_PACKED_PAIR_WORDS * (size_t)groups;
  const int32_t pairs = units / 2;
  int32_t r, g;
  if (pairs > 0) {
    microaot_packed3_job job;
    job.weights = weights, job.out = NULL, job.rows = rows, job.pair_bytes = (int32_t)(4 * pair_words);
    job.from.sums = sums, job.end.sums_end = sums + 6 * pairs;
    microaot_packed_pairs3(&job);
    weights += (size_t)pairs * pair_words;
  }
  if (units & 1) {
    for (r = 0; r < 3; ++r) {
      int32_t* const sum = sums + 6 * pairs + 2 * r;
      for (g = 0; g < groups; ++g) {
        *sum = microaot_packed_mac(*sum, rows + 2 * (3 * g + r), weights + MICROAOT_PACKED_PAIR_WORDS * g, 0);
      }
    }
    weights += pair_words;
  }
  return weights;
}

/* The windows of `row_count` (1 to 3) pixels of `parts`, part by part, reduced in chunks: three rows through
 * sums_chunk3, fewer through microaot_packed_sums_chunk. */
static void reduce_window_in_chunks(const window_part_source* parts, int32_t row_count, int32_t window,
                                    const int32_t* weights, int32_t units, const microaot_dsp_output_stage* o,
                                    const int32_t* requant, uint32_t* rows, int32_t* sums, int8_t* out0) {
  const int32_t chunk = MICROAOT_PACKED_CHUNK_LENGTH(window);
  int32_t begin, length, groups, r;
  MICROAOT_PACKED_FORM(microaot_packed_sums_start)(requant, units, row_count, sums);
  for (begin = 0; begin < window; begin += length) {
    length = window - begin < chunk ? window - begin : chunk;
    groups = microaot_packed_groups(length);
    for (r = 0; r < row_count; ++r) { /* one row at a time: a gathered part is overwritten by the next row's */
      const int8_t* part = parts->pixel != NULL ? parts->pixel + (size_t)r * parts->pixel_step + (size_t)begin
                                                : gather_window_part(parts, r, begin, length);
      microaot_packed_widen(part, length, rows + 2 * r, 2 * row_count);
    }
    weights = row_count == 3 ? sums_chunk3(rows, weights, groups, units, sums)
                             : MICROAOT_PACKED_FORM(microaot_packed_sums_chunk)(rows, weights, groups, units,
                                                                                row_count, sums);
  }
  MICROAOT_PACKED_FORM(microaot_packed_sums_finish)(sums, units, row_count, o, requant, out0);
}

/* convolve for windows longer than MICROAOT_PACKED_CHUNK: output pixels three at a time as window_row's, their
 * windows (in place for pixel windows, else gathered part by part) reduced chunk by chunk; in the scratch a
 * chunk's three widened rows, the gathered part (not for pixel windows), the sums. Apart from convolve, whose
 * loops keep their registers. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static microaot_status convolve_chunked(const conv_params* p, const int8_t* input, const int32_t* filter,
                                        const int32_t* requant, int8_t* output, void* scratch, int overlap) {
  const int32_t window = microaot_conv_window_size(p), chunk = MICROAOT_PACKED_CHUNK_LENGTH(window);
  const int pixels = microaot_packed_pixel_windows(p);
  const size_t image_bytes = (size_t)p->input_height * (size_t)p->input_width * (size_t)p->input_depth;
  const size_t pixel_bytes = (size_t)p->output_depth, row_bytes = (size_t)p->output_width * pixel_bytes;
  const microaot_dsp_output_stage stage = MICROAOT_DSP_OUTPUT_STAGE(p, NULL);
  int32_t* const sums = (int32_t*)(void*)((int8_t*)scratch + (pixels ? MICROAOT_PACKED_CHUNK_ROWS3_BYTES(chunk)
                                                                     : MICROAOT_PACKED_CHUNK_WINDOWS3_BYTES(chunk)));
  int8_t* const row_scratch =
      overlap ? (int8_t*)scratch +
                    (pixels ? MICROAOT_PACKED_PIXEL_ROWS_BYTES(window, p->output_depth)
                            : MICROAOT_PACKED_WINDOWS_BYTES(window, p->filter_width * p->input_depth, p->output_depth))
              : NULL;
  window_part_source parts;
  int32_t row, ox, count;
  if (requant == NULL) return MICROAOT_STATUS_NULL_POINTER;
  parts.p = p, parts.gathered = (int8_t*)scratch + MICROAOT_PACKED_CHUNK_ROWS3_BYTES(chunk);
  parts.pixel_step = (size_t)p->stride_width * (size_t)p->input_depth;
  for (row = 0; row < p->batches * p->output_height; ++row) {
    int8_t* const out = output + (size_t)row * row_bytes;
    int8_t* dst = row_scratch != NULL ? row_scratch : out;
    parts.image = input + (size_t)(row / p->output_height) * image_bytes, parts.oy = row % p->output_height;
    /* Pixel windows: the row's input pixels, read in place. */
    parts.pixel = pixels ? parts.image + (size_t)(parts.oy * p->stride_height) * (size_t)p->input_width *
                                             (size_t)p->input_depth
                         : NULL;
    for (ox = 0; ox < p->output_width; ox += count, dst += (size_t)count * pixel_bytes) {
      count = pixels_at_a_time(p->output_width - ox);
      parts.ox = ox;
      reduce_window_in_chunks(&parts, count, window, filter, p->output_depth, &stage, requant, (uint32_t*)scratch,
                              sums, dst);
      if (parts.pixel != NULL) parts.pixel += (size_t)count * parts.pixel_step;
    }
    if (row_scratch != NULL) memcpy(out, row_scratch, row_bytes);
  }
  return MICROAOT_STATUS_OK;
}

microaot_status MICROAOT_FN(const microaot_conv_2d_params_q* params, const int8_t* input, const int32_t* filter,
                            const int32_t* requant, int8_t* output, void* scratch) {
  if (microaot_conv_window_size(params) > MICROAOT_PACKED_CHUNK) {
    return convolve_chunked(params, input, filter, requant, output, scratch, 0);
  }
  return convolve(params, input, filter, requant, output, scratch, 0);
}

microaot_status MICROAOT_FN_OVERLAP(const microaot_conv_2d_params_q* params, const int8_t* input,
                                    const int32_t* filter, const int32_t* requant, int8_t* output, void* scratch) {
  if (microaot_conv_window_size(params) > MICROAOT_PACKED_CHUNK) {
    return convolve_chunked(params, input, filter, requant, output, scratch, 1);
  }
  return convolve(params, input, filter, requant, output, scratch, 1);
}
