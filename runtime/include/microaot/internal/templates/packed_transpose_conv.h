/* The int8 TRANSPOSE_CONV over packed weights (microaot/kernels/packed.h): each stride phase
 * (microaot/fit/transpose_conv.h) is a convolution of unit stride over the original input with the phase's taps,
 * computed as the packed k x k CONV_2D computes its windows (microaot/internal/templates/packed_kxk_windows.h: two
 * output pixels' windows gathered, padding taps as the input zero point, widened, then multiplied by every output
 * channel pair through microaot_packed_rows). A phase's two pixels lie stride apart in the output: stored from
 * the scratch unless the stride is 1. No product outside the phases' taps, so the MACs are the reference's but
 * for the edge windows' padding taps. A filter that is a multiple of the stride runs all phases as one
 * convolution (microaot_tconv_unified): each window gathered once for every phase's channels, its outputs an s x s
 * block. The including file defines MICROAOT_PACKED_WIDE_WEIGHTS or MICROAOT_PACKED_RAW_WEIGHTS (the weight form)
 * and MICROAOT_FN. */
#include <stddef.h>
#include <string.h>

#include "microaot/fit/transpose_conv.h"
#include "microaot/internal/templates/packed_kxk_windows.h"

typedef microaot_transpose_conv_params_q tconv_params;

/* Phase (ry, rx) as the convolution that computes it over one image (packed_kxk_windows.h reads its geometry and
 * the padding's value). */
static conv_params phase_conv(const tconv_params* p, int32_t ry, int32_t rx) {
  conv_params c;
  memset(&c, 0, sizeof c);
  c.batches = 1;
  c.input_height = p->input_height, c.input_width = p->input_width;
  c.input_depth = c.filter_depth = p->input_depth;
  c.filter_height = microaot_tconv_phase_taps(p->filter_height, p->stride_height, ry);
  c.filter_width = microaot_tconv_phase_taps(p->filter_width, p->stride_width, rx);
  c.output_height = microaot_tconv_phase_outputs(p->output_height, p->pad_height, p->stride_height, ry);
  c.output_width = microaot_tconv_phase_outputs(p->output_width, p->pad_width, p->stride_width, rx);
  c.output_depth = p->output_depth;
  c.stride_height = c.stride_width = c.dilation_height = c.dilation_width = 1;
  c.pad_height = microaot_tconv_phase_pad(p->filter_height, p->pad_height, p->stride_height, ry);
  c.pad_width = microaot_tconv_phase_pad(p->filter_width, p->pad_width, p->stride_width, rx);
  c.input_offset = p->input_offset;
  return c;
}

/* Where a phase's outputs go: its first pixel in the output image, and the steps between its pixels. */
typedef struct {
  int8_t* first;
  size_t row_step, pixel_step;
} phase_output;

/* Every output pixel of one phase over one image, two at a time; `pair`: two pixels' outputs when they are not
 * adjacent in the output (else NULL). */
static void phase_rows(const conv_params* c, const int8_t* image, const int32_t* words, const int32_t* table,
                       const microaot_dsp_output_stage* stage, const window_scratch* s, const phase_output* o,
                       int8_t* pair) {
  const int32_t groups = s->gathered_bytes / 4, units = c->output_depth;
  int32_t my, mx;
  for (my = 0; my < c->output_height; ++my) {
    int8_t* out = o->first + (size_t)my * o->row_step;
    for (mx = 0; mx < c->output_width; mx += 2, out += 2 * o->pixel_step) {
      const int two = mx + 1 < c->output_width;
      int8_t* const dst = pair != NULL ? pair : out;
      widen_window(c, image, my, mx, s, s->rows, two ? 4 : 2);
      if (two) widen_window(c, image, my, mx + 1, s, s->rows + 2, 4);
      MICROAOT_PACKED_FORM(microaot_packed_rows)(s->rows, words, groups, units, stage, table, dst,
                                                 two ? dst + units : NULL);
      if (pair != NULL) {
        copy_run(out, pair, units);
        if (two) copy_run(out + o->pixel_step, pair + units, units);
      }
    }
  }
}

/* The unified phases (microaot_tconv_unified) as the convolution that computes them over one image: every anchor
 * q between the first and last whose block holds an output, its window the taps before it. */
static conv_params unified_conv(const tconv_params* p) {
  conv_params c = phase_conv(p, 0, 0);
  const int32_t first_y = microaot_tconv_first_anchor(p->pad_height, p->stride_height);
  const int32_t first_x = microaot_tconv_first_anchor(p->pad_width, p->stride_width);
  c.output_height = microaot_tconv_last_anchor(p->output_height, p->pad_height, p->stride_height) - first_y + 1;
  c.output_width = microaot_tconv_last_anchor(p->output_width, p->pad_width, p->stride_width) - first_x + 1;
  c.output_depth = microaot_tconv_units(p);
  c.pad_height = c.filter_height - 1 - first_y;
  c.pad_width = c.filter_width - 1 - first_x;
  return c;
}

/* The block of anchor (qy, qx) from `block` (phases ry, rx, channels) into the output image `out`, its rows and
 * columns inside the output: a phase row's channels lie side by side there too. */
static void store_block(const tconv_params* p, int32_t qy, int32_t qx, const int8_t* block, int8_t* out) {
  const int32_t oy = qy * p->stride_height - p->pad_height, ox = qx * p->stride_width - p->pad_width;
  const int32_t rx_lo = ox < 0 ? -ox : 0;
  const int32_t rx_hi = p->output_width - ox < p->stride_width ? p->output_width - ox : p->stride_width;
  const int32_t depth = p->output_depth, run = (rx_hi - rx_lo) * depth;
  int32_t ry;
  for (ry = oy < 0 ? -oy : 0; ry < p->stride_height && oy + ry < p->output_height; ++ry) {
    copy_run(out + ((size_t)(oy + ry) * (size_t)p->output_width + (size_t)(ox + rx_lo)) * (size_t)depth,
             block + (size_t)(ry * p->stride_width + rx_lo) * (size_t)depth, run);
  }
}

/* Every anchor of the unified phases over one image, two at a time, their blocks stored from `pair`. */
static void unified_rows(const tconv_params* p, const conv_params* c, const int8_t* image, const int32_t* words,
                         const int32_t* table, const microaot_dsp_output_stage* stage, const window_scratch* s,
                         int8_t* pair, int8_t* out) {
  const int32_t groups = s->gathered_bytes / 4, units = c->output_depth;
  const int32_t first_y = microaot_tconv_first_anchor(p->pad_height, p->stride_height);
  const int32_t first_x = microaot_tconv_first_anchor(p->pad_width, p->stride_width);
  int32_t my, mx;
  for (my = 0; my < c->output_height; ++my) {
    for (mx = 0; mx < c->output_width; mx += 2) {
      const int two = mx + 1 < c->output_width;
      widen_window(c, image, my, mx, s, s->rows, two ? 4 : 2);
      if (two) widen_window(c, image, my, mx + 1, s, s->rows + 2, 4);
      MICROAOT_PACKED_FORM(microaot_packed_rows)(s->rows, words, groups, units, stage, table, pair,
                                                 two ? pair + units : NULL);
      store_block(p, first_y + my, first_x + mx, pair, out);
      if (two) store_block(p, first_y + my, first_x + mx + 1, pair + units, out);
    }
  }
}

microaot_status MICROAOT_FN(const microaot_transpose_conv_params_q* params, const int8_t* input,
                            const int32_t* filter, const int32_t* requant, int8_t* output, void* scratch) {
  const tconv_params* const p = params;
  const microaot_dsp_output_stage stage = MICROAOT_DSP_OUTPUT_STAGE(p, NULL);
  const size_t image_bytes = (size_t)p->input_height * (size_t)p->input_width * (size_t)p->input_depth;
  const size_t pixel_bytes = (size_t)p->output_depth;
  const size_t out_row_bytes = (size_t)p->output_width * pixel_bytes;
  const size_t out_image_bytes = (size_t)p->output_height * out_row_bytes;
  const int32_t max_window = microaot_tconv_max_window(p);
  int8_t* const pair = (int8_t*)scratch + MICROAOT_PACKED_CHUNK_WINDOWS_BYTES(max_window);
  window_scratch s;
  int32_t b, ry, rx;
  if (requant == NULL) return MICROAOT_STATUS_NULL_POINTER;
  if (!microaot_fit_transpose_conv_packed(p)) return MICROAOT_STATUS_VALUE_OUT_OF_RANGE;
  s.rows = (uint32_t*)scratch;
  s.gathered = (int8_t*)scratch + MICROAOT_PACKED_CHUNK_ROWS_BYTES(max_window);
  if (microaot_tconv_unified(p)) {
    const conv_params c = unified_conv(p);
    s.gathered_bytes = 4 * microaot_packed_groups(max_window);
    memset(s.gathered + max_window, 0, (size_t)(s.gathered_bytes - max_window));
    for (b = 0; b < p->batches; ++b) {
      unified_rows(p, &c, input + (size_t)b * image_bytes, filter, requant, &stage, &s, pair,
                   output + (size_t)b * out_image_bytes);
    }
    return MICROAOT_STATUS_OK;
  }
  for (ry = 0; ry < p->stride_height; ++ry) {
    for (rx = 0; rx < p->stride_width; ++rx) {
      const conv_params c = phase_conv(p, ry, rx);
      const int32_t window = microaot_conv_window_size(&c);
      phase_output o;
      o.row_step = (size_t)p->stride_height * out_row_bytes;
      o.pixel_step = (size_t)p->stride_width * pixel_bytes;
      s.gathered_bytes = 4 * microaot_packed_groups(window);
      /* The gathered window's bytes past its end, up to a whole group, are never gathered into. */
      memset(s.gathered + window, 0, (size_t)(s.gathered_bytes - window));
      for (b = 0; b < p->batches && c.output_height > 0 && c.output_width > 0; ++b) { /* a phase may have none */
        o.first = output + (size_t)b * out_image_bytes +
                  (size_t)microaot_tconv_phase_first(p->pad_height, p->stride_height, ry) * out_row_bytes +
                  (size_t)microaot_tconv_phase_first(p->pad_width, p->stride_width, rx) * pixel_bytes;
        phase_rows(&c, input + (size_t)b * image_bytes, filter, requant, &stage, &s, &o,
                   p->stride_width == 1 ? NULL : pair);
      }
      filter += MICROAOT_TRANSPOSE_CONV_PHASE_WORDS(window, p->output_depth, MICROAOT_PACKED_PAIR_WORDS);
      requant += (size_t)((p->output_depth + 1) / 2) * MICROAOT_PACKED_STEP_WORDS;
    }
  }
  return MICROAOT_STATUS_OK;
}
