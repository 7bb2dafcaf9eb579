/* int8 DEPTHWISE_CONV_2D with the DSP extension, bit-exact with the portable kernel, for depth multiplier 1
 * (input channel c feeds output channel c only) or a multiple of 4 (four output channels read one input
 * channel: micro_speech's layer, multiplier 8). Each output row is done four channels at a time over all its
 * pixels: each tap's four inputs (or one, replicated) and four weights widened to 16-bit lanes with
 * SXTAB16/SXTB16 (the input offset added on the way) and accumulated per channel with SMLABB/SMLATT from the
 * bias on. 3x3 windows without dilation (depth multiplier 1): at stride 1 through the widened ring (each input
 * row widened once, output rows in pairs: see dw_ring; KWS), else a group's rows counted on in one function, a
 * window wholly inside the image unrolled, one at an edge by its in-image taps only, as the reference does, in
 * a function of its own so that its sums stay in registers. The output step is one SMMLAR per value with the
 * group's constants computed once (see dw_group), four values (eight in the ring's pairs) in one asm statement.
 * Other depth multipliers and requantizations outside the fast path's bounds (dw_fits) take the portable
 * code. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "microaot/dsp_dot.h"
#include "microaot/kernels/conv.h"
#include "microaot/window.h"

/* The portable kernels, for the shapes handled below, under their own names. */
void microaot_depthwise_conv_2d_s8_portable(const microaot_depthwise_conv_2d_params_q* params, const int8_t* input,
                                            const int8_t* filter, const int32_t* bias, int8_t* output);
void microaot_depthwise_conv_2d_s8_overlap_portable(const microaot_depthwise_conv_2d_params_q* params,
                                                    const int8_t* input, const int8_t* filter, const int32_t* bias,
                                                    int8_t* output, void* scratch);
#define MICROAOT_DTYPE s8
#define MICROAOT_CONV depthwise_conv_2d
#define MICROAOT_FN microaot_depthwise_conv_2d_s8_portable
#define MICROAOT_FN_OVERLAP microaot_depthwise_conv_2d_s8_overlap_portable
#include "microaot/templates/conv.h"

typedef microaot_depthwise_conv_2d_params_q dw_params;

/* The fast path's bounds: |input + offset| <= 256 and |weight| <= 128, so fewer than 2^14 taps and a bias
 * below 2^29 in magnitude keep every sum below 2^30, and twice it fits in int32 for SMMLAR; per channel a
 * right shift e in [1, 31], a multiplier >= 0 and the rounding term of dw_group below 2^30. */
static int dw_fits(const dw_params* p, const int32_t* bias) {
  int32_t c, rounding_factor;
  if ((p->depth_multiplier != 1 && p->depth_multiplier % 4 != 0) || p->input_offset < -128 || p->input_offset > 128 ||
      p->filter_height * p->filter_width >= (1 << 14) || p->output_offset < -128 || p->output_offset > 128) {
    return 0;
  }
  /* the rounding term 2^(e-1) + |offset| * 2^e = (2 |offset| + 1) * 2^(e-1) < 2^30: 2 |offset| + 1 < 2^(31-e) */
  rounding_factor = 2 * (p->output_offset < 0 ? -p->output_offset : p->output_offset) + 1;
  for (c = 0; c < p->output_depth; ++c) {
    const int32_t shift = p->output_shift[c];
    if (shift > -1 || shift < -31 || p->output_multiplier[c] < 0) return 0;
    if (bias != NULL && (bias[c] > (1 << 29) || bias[c] < -(1 << 29))) return 0;
    if (rounding_factor >= (int32_t)1 << (31 + shift)) return 0;
  }
  return 1;
}

/* The output step of four channels: with y = 2 * sum (the kernel accumulates doubled sums), (y * m + 2^31) >> 32
 * is TFLM's rounding doubling high multiply of sum and m; SMMLAR's accumulator adds `rounding` = 2^(e-1) +
 * output offset * 2^e, less one for a negative sum, so that >> e gives the rounding right shift (ties away from
 * zero) plus the output offset. */
typedef struct {
  /* words 0-3 the four channels' bias, doubled as the sums; for 3x3 filters words 4-21 each tap's four weights
   * widened (lanes 0, 2 and 1, 3) and doubled, so that the sums come out doubled as the output step takes
   * them (|2w| <= 256 fits a lane): side by side for microaot_dsp_mac4_widened_3x3_x2 */
  int32_t bias_weights[4 + 9 * 2];
  int32_t step[4][3]; /* per channel multiplier, rounding, exponent: side by side for microaot_dsp_step_store8x4 */
  uint32_t activation_min4, activation_max4; /* the clamp's bounds in each byte */
  int32_t full_range;                         /* the clamp is [-128, 127]: the SSAT alone */
} dw_group;

static const int32_t* dw_bias(const dw_group* g) { return g->bias_weights; }

static const uint32_t (*dw_weights(const dw_group* g))[2] {
  return (const uint32_t(*)[2])(const void*)(g->bias_weights + 4);
}

/* Both 16-bit lanes times 2 (no lane overflows). */
static inline uint32_t dw_double_lanes(uint32_t lanes) { return microaot_dsp_sadd16(lanes, lanes); }

static __attribute__((noinline)) void dw_group_of(const dw_params* p, const int8_t* filter, const int32_t* bias,
                                                 int32_t c, dw_group* g) {
  int32_t k;
  for (k = 0; k < 4; ++k) {
    const int32_t e = -p->output_shift[c + k];
    g->bias_weights[k] = bias != NULL ? 2 * bias[c + k] : 0;
    g->step[k][0] = p->output_multiplier[c + k];
    g->step[k][2] = e;
    g->step[k][1] = (2 * p->output_offset + 1) * ((int32_t)1 << (e - 1)); /* |.| < 2^30: dw_fits */
  }
  g->activation_min4 = 0x01010101u * (uint8_t)p->activation_min;
  g->activation_max4 = 0x01010101u * (uint8_t)p->activation_max;
  g->full_range = p->activation_min == -128 && p->activation_max == 127;
  if (p->filter_height == 3 && p->filter_width == 3) {
    for (k = 0; k < 9; ++k) {
      const uint32_t w = microaot_dsp_load4(filter + (size_t)k * (size_t)p->output_depth + (size_t)c);
      g->bias_weights[4 + 2 * k] = (int32_t)dw_double_lanes(microaot_dsp_sxtb16(w));
      g->bias_weights[5 + 2 * k] = (int32_t)dw_double_lanes(microaot_dsp_sxtb16_ror8(w));
    }
  }
}

/* A 3x3 filter without dilation: the group's widened weights and the unrolled taps. */
static int dw_widened(const dw_params* p) {
  return p->depth_multiplier == 1 && p->filter_height == 3 && p->filter_width == 3 && p->dilation_height == 1 &&
         p->dilation_width == 1;
}

/* Four channels from their doubled sums (bias included), clamped by SIMD (for [-128, 127] as well: one copy
 * of the code where dw_store4_tested inlines two). */
static inline void dw_store4(const dw_group* g, const int32_t s[4], int8_t* out) {
  microaot_dsp_step_store8x4_clamped(g->step, s, out, g->activation_min4, g->activation_max4);
}

/* The same in the hot loops: the clamp [-128, 127] is the steps' SSAT alone (byte stores). */
static inline void dw_store4_tested(const dw_group* g, const int32_t s[4], int8_t* out) {
  if (g->full_range) {
    microaot_dsp_step_store8x4(g->step, s, out);
  } else {
    dw_store4(g, s, out);
  }
}

static inline void dw_tap4(const int8_t* in, const int8_t* w, uint32_t offset, int32_t s[4]) {
  const uint32_t weights = microaot_dsp_load4(w);
  microaot_dsp_mac4_lanes(microaot_dsp_load4(in), microaot_dsp_sxtb16(weights), microaot_dsp_sxtb16_ror8(weights),
                          offset, s);
}

/* Four channels over the in-image taps of window (y, x): `image` and `filter` start at the group's channel. */
/* Four output channels of one input channel (a depth multiplier that is a multiple of 4) over the in-image
 * taps of window (y, x), added to sums: each tap's input byte (plus offset) in both 16-bit lanes. `image` starts at the
 * input channel, `filter` at the first output channel. Not inlined: the sums stay in registers. */
static __attribute__((noinline)) void dw_taps_replicated(const dw_params* p, const int8_t* image,
                                                         const int8_t* filter, const microaot_window* y,
                                                         const microaot_window* x, int32_t sums[4]) {
  const size_t depth = (size_t)p->output_depth, in_depth = (size_t)p->input_depth;
  const size_t in_step = (size_t)p->dilation_width * in_depth, w_row_step = (size_t)p->filter_width * depth;
  const size_t in_row_step = (size_t)p->dilation_height * (size_t)p->input_width * in_depth;
  const uint32_t offset = microaot_dsp_pack16(p->input_offset, p->input_offset);
  const int32_t n = x->end - x->begin;
  const int8_t *in_row, *w_row;
  int32_t fy, t, s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  if (n <= 0 || y->end <= y->begin) return; /* no tap inside: the pointers below would leave the arrays */
  in_row = image + ((size_t)(y->origin + y->begin * p->dilation_height) * (size_t)p->input_width +
                    (size_t)(x->origin + x->begin * p->dilation_width)) * in_depth;
  w_row = filter + ((size_t)y->begin * (size_t)p->filter_width + (size_t)x->begin) * depth;
  for (fy = y->begin; fy < y->end; ++fy, in_row += in_row_step, w_row += w_row_step) {
    const int8_t* in = in_row;
    const int8_t* w = w_row;
    for (t = 0; t < n; ++t, in += in_step, w += depth) {
      /* the byte in bytes 0 and 2: both lanes of v hold input + offset */
      const uint32_t v = microaot_dsp_sxtab16(offset, 0x00010001u * (uint8_t)*in), weights = microaot_dsp_load4(w);
      const uint32_t w02 = microaot_dsp_sxtb16(weights), w13 = microaot_dsp_sxtb16_ror8(weights);
      s0 = microaot_dsp_smlabb(v, w02, s0);
      s2 = microaot_dsp_smlatt(v, w02, s2);
      s1 = microaot_dsp_smlabb(v, w13, s1);
      s3 = microaot_dsp_smlatt(v, w13, s3);
    }
  }
  sums[0] += s0;
  sums[1] += s1;
  sums[2] += s2;
  sums[3] += s3;
}

/* Four channels over the in-image taps of window (y, x): `image` starts at the group's input channel, `filter`
 * at its first output channel; each channel reads its own input byte (depth multiplier 1), or see
 * dw_taps_replicated. */
static void dw_taps(const dw_params* p, const int8_t* image, const int8_t* filter, const microaot_window* y,
                    const microaot_window* x, int32_t s[4]) {
  const size_t depth = (size_t)p->output_depth, in_depth = (size_t)p->input_depth;
  const uint32_t offset = microaot_dsp_pack16(p->input_offset, p->input_offset);
  int32_t fy, fx;
  if (p->depth_multiplier != 1) {
    dw_taps_replicated(p, image, filter, y, x, s);
    return;
  }
  for (fy = y->begin; fy < y->end; ++fy) {
    const int32_t in_y = y->origin + fy * p->dilation_height;
    const int8_t* in_row = image + (size_t)in_y * (size_t)p->input_width * in_depth;
    const int8_t* w_row = filter + (size_t)fy * (size_t)p->filter_width * depth;
    for (fx = x->begin; fx < x->end; ++fx) {
      dw_tap4(in_row + (size_t)(x->origin + fx * p->dilation_width) * in_depth, w_row + (size_t)fx * depth, offset,
              s);
    }
  }
}

/* Four channels of a 3x3 window wholly inside the image without dilation, unrolled: `in` is its top-left
 * tap at the group's channel, `row` the input row's length in bytes; the group's widened weights. */
static inline void dw_taps_3x3(const int8_t* in, const dw_group* g, size_t depth, size_t row, uint32_t offset,
                               int32_t s[4]) {
  microaot_dsp_mac4_lanes_x3(in, depth, dw_weights(g), offset, s);
  microaot_dsp_mac4_lanes_x3(in + row, depth, dw_weights(g) + 3, offset, s);
  microaot_dsp_mac4_lanes_x3(in + 2 * row, depth, dw_weights(g) + 6, offset, s);
}

/* What the pixels of one output row of a channel group need, for a 3x3 filter without dilation. */
typedef struct {
  const dw_group* g;
  const int8_t* in;        /* the window's first in-image input row, at the group's channel */
  const uint32_t (*w)[2];  /* the widened weights of that row's taps */
  size_t depth, row;       /* bytes from one input pixel (row) to the next */
  int32_t rows;            /* input rows inside the window (0 to 3) */
  int32_t input_width;
  uint32_t offset;         /* the input offset in both 16-bit lanes */
} dw_row_3x3;

/* One output pixel whose window starts at input column `origin` and is clipped by the image's edges: its
 * in-image taps only (the reference skips the others); no tap inside leaves the bias. Not inlined, with the
 * row's constants in one struct: the sums stay in registers and the call is cheap. */
static __attribute__((noinline)) void dw_pixel_clipped(const dw_row_3x3* r, int32_t origin, int8_t* out) {
  const int32_t begin = origin < 0 ? -origin : 0;
  const int32_t n = (r->input_width - origin < 3 ? r->input_width - origin : 3) - begin;
  const size_t depth = r->depth, row = r->row;
  int32_t k, s[4];
  memcpy(s, dw_bias(r->g), sizeof s);
  if (n > 0) {
    const int8_t* in = r->in + (size_t)(origin + begin) * depth;
    const uint32_t(*w)[2] = r->w + begin;
    for (k = 0; k < r->rows; ++k, in += row, w += 3) {
      if (n == 3) {
        microaot_dsp_mac4_lanes_x3(in, depth, w, r->offset, s);
      } else if (n == 2) {
        microaot_dsp_mac4_lanes_x2(in, depth, w, r->offset, s);
      } else {
        microaot_dsp_mac4_lanes(microaot_dsp_load4(in), w[0][0], w[0][1], r->offset, s);
      }
    }
  }
  dw_store4(r->g, s, out);
}

/* The window of one output position of a 3x3 filter without dilation along one axis: comparisons instead
 * of microaot_window_of's divisions. */
static inline microaot_window dw_window_3(int32_t origin, int32_t in_size) {
  microaot_window w;
  w.origin = origin;
  w.begin = origin < 0 ? -origin : 0;
  w.end = in_size - origin < 3 ? in_size - origin : 3;
  return w;
}

/* The output columns whose window lies wholly inside the image: [*first, *end). */
static void dw_interior_columns(const dw_params* p, int32_t* first, int32_t* end) {
  const int32_t last_origin = p->input_width - 1 - (p->filter_width - 1) * p->dilation_width;
  *first = (p->pad_width + p->stride_width - 1) / p->stride_width;
  *end = last_origin + p->pad_width < 0 ? 0 : (last_origin + p->pad_width) / p->stride_width + 1;
  if (*end > p->output_width) *end = p->output_width;
  if (*first > *end) *first = *end;
}

/* One output row of a 3x3 filter without dilation for the group, its window's rows `y`: the columns
 * [first, end) whose window lies inside the image unrolled, the others clipped. `image` and `out` start at the
 * group's channel. Not inlined: its loops keep their own registers (inlined, the interior loop spilled). */
static __attribute__((noinline)) void dw_group_row_3x3(const dw_params* p, const dw_group* g, const int8_t* image,
                                                       const microaot_window* y, int32_t first, int32_t end,
                                                       int8_t* out) {
  const size_t depth = (size_t)p->output_depth, row = (size_t)p->input_width * depth;
  const int32_t rows = y->end > y->begin ? y->end - y->begin : 0, stride = p->stride_width;
  const dw_row_3x3 r = {g,   image + (size_t)(rows > 0 ? y->origin + y->begin : 0) * row,
                        dw_weights(g) + (rows > 0 ? 3 * y->begin : 0),
                        depth, row, rows, p->input_width, microaot_dsp_pack16(p->input_offset, p->input_offset)};
  int32_t ox, s[4];
  if (rows != 3) first = end = 0; /* a top or bottom row (or none inside): every column clipped */
  for (ox = 0; ox < first; ++ox) dw_pixel_clipped(&r, ox * stride - p->pad_width, out + (size_t)ox * depth);
  {
    const int8_t* in = first < end ? r.in + (size_t)(first * stride - p->pad_width) * depth : r.in;
    const size_t step = (size_t)stride * depth;
    int8_t* o = out + (size_t)first * depth;
    for (ox = first; ox < end; ++ox, in += step, o += depth) {
      memcpy(s, dw_bias(g), sizeof s);
      dw_taps_3x3(in, g, depth, row, r.offset, s);
      dw_store4_tested(g, s, o);
    }
  }
  for (ox = end; ox < p->output_width; ++ox) {
    dw_pixel_clipped(&r, ox * stride - p->pad_width, out + (size_t)ox * depth); /* none inside: the bias */
  }
}

/* Channels [c, c + n) of every pixel of a row, from the scratch row to the output row. */
static void dw_copy_channels(const dw_params* p, const int8_t* from, int8_t* to, size_t n) {
  const size_t depth = (size_t)p->output_depth;
  const int8_t* const end = from + (size_t)p->output_width * depth;
  if (n == 4) { /* a word per pixel, no call */
    for (; from != end; from += depth, to += depth) memcpy(to, from, 4);
    return;
  }
  for (; from != end; from += depth, to += depth) memcpy(to, from, n);
}

/* The widened ring (3x3, no dilation, depth multiplier 1, stride 1): each input row a group's windows read is
 * widened once, its four channels plus the input offset as two words of 16-bit lanes (as the taps above
 * widen them), into slot (row mod 4) of each of its columns and again into slot + 4. Output rows go in
 * pairs: the pair whose top window starts at input row t reads slots t mod 4 to t mod 4 + 3 in their own
 * row order, the lower window one slot down (microaot_dsp_mac4_widened_3x3_x2). A padding row or column holds
 * zero, which is what the raw zero point widens to, so every window, at an edge or not, takes the same nine
 * taps (the reference skips padding taps: each would add 0). The ring holds input columns [origin, origin +
 * cols) of a tile of output columns. */
#define DW_RING_COLS 14
typedef struct {
  uint32_t lanes[DW_RING_COLS][8][2]; /* slot 7 (slot 3 again) is never read: a store instead of a test */
  int32_t origin, cols;
  int32_t inside_begin, inside_end; /* the ring's columns inside the image: the others stay zero */
  int32_t first_row;                /* the image's first window's top row: slot 0 */
  size_t depth, row_bytes;          /* bytes from one input pixel (row) to the next */
  uint32_t offset;                  /* the input offset in both 16-bit lanes */
} dw_ring;

/* The ring slot of input row `row` (negative for padding rows above the image): rows widened in pairs
 * start at an even slot. */
static uint32_t dw_slot(const dw_ring* ring, int32_t row) { return (uint32_t)(row - ring->first_row) & 3u; }

static inline void dw_ring_set(dw_ring* ring, int32_t col, uint32_t slot, uint32_t even, uint32_t odd) {
  ring->lanes[col][slot][0] = even;
  ring->lanes[col][slot][1] = odd;
  ring->lanes[col][slot + 4][0] = even;
  ring->lanes[col][slot + 4][1] = odd;
}

/* The ring for input columns [origin, origin + cols): its columns outside the image zero in every slot, once
 * for all channel groups (the widening never writes them). */
static __attribute__((noinline)) void dw_ring_init(const dw_params* p, int32_t origin, int32_t cols, dw_ring* ring) {
  int32_t k;
  if (ring->cols == cols && ring->origin == origin) return; /* the previous group's tile */
  ring->depth = (size_t)p->input_depth;
  ring->row_bytes = (size_t)p->input_width * ring->depth;
  ring->offset = microaot_dsp_pack16(p->input_offset, p->input_offset);
  ring->origin = origin;
  ring->cols = cols;
  ring->inside_begin = origin < 0 ? -origin : 0;
  ring->inside_end = p->input_width - origin < cols ? p->input_width - origin : cols;
  if (ring->inside_end < ring->inside_begin) ring->inside_end = ring->inside_begin;
  for (k = 0; k < cols; ++k) {
    uint32_t slot;
    for (slot = 0; slot < 4 && (k < ring->inside_begin || k >= ring->inside_end); ++slot) {
      dw_ring_set(ring, k, slot, 0, 0);
    }
  }
}

/* Widens the ring's in-image columns of input row `row` (at the group's channel of `image`) into its slot:
 * zero for a padding row. */
static void dw_ring_fill(const dw_params* p, const int8_t* image, int32_t row, dw_ring* ring) {
  const size_t depth = ring->depth;
  const uint32_t slot = dw_slot(ring, row), offset = ring->offset;
  int32_t k = ring->inside_begin;
  if (row < 0 || row >= p->input_height) {
    for (; k < ring->inside_end; ++k) dw_ring_set(ring, k, slot, 0, 0);
    return;
  }
  {
    const int8_t* in = image + ((size_t)row * (size_t)p->input_width + (size_t)(ring->origin + k)) * depth;
    for (; k < ring->inside_end; ++k, in += depth) {
      const uint32_t word = microaot_dsp_load4(in);
      dw_ring_set(ring, k, slot, microaot_dsp_sxtab16(offset, word), microaot_dsp_sxtab16_ror8(offset, word));
    }
  }
}

/* Widens the in-image columns of two input rows, the upper from `in` on (its first in-image pixel), into
 * `slot` (even) and slot + 1 in one pass: the pass's overhead once for both, the stores at fixed offsets. */
static __attribute__((noinline)) void dw_ring_widen2(dw_ring* ring, const int8_t* in, uint32_t slot) {
  const size_t depth = ring->depth, row_bytes = ring->row_bytes;
  const uint32_t offset = ring->offset;
  const int32_t end = ring->inside_end;
  int32_t k;
  for (k = ring->inside_begin; k < end; ++k, in += depth) {
    const uint32_t upper = microaot_dsp_load4(in), lower = microaot_dsp_load4(in + row_bytes);
    const uint32_t upper02 = microaot_dsp_sxtab16(offset, upper), upper13 = microaot_dsp_sxtab16_ror8(offset, upper);
    const uint32_t lower02 = microaot_dsp_sxtab16(offset, lower), lower13 = microaot_dsp_sxtab16_ror8(offset, lower);
    uint32_t(*const at)[2] = &ring->lanes[k][slot]; /* slots slot, slot + 1 and again 4 further */
    at[0][0] = upper02;
    at[0][1] = upper13;
    at[1][0] = lower02;
    at[1][1] = lower13;
    at[4][0] = upper02;
    at[4][1] = upper13;
    at[5][0] = lower02;
    at[5][1] = lower13;
  }
}

/* Input rows `row` and `row` + 1 (`row` at an even slot) into the ring as dw_ring_fill does, both at once when
 * both are inside the image. */
static inline void dw_ring_fill2(const dw_params* p, const int8_t* image, int32_t row, dw_ring* ring) {
  if (row < 0 || row + 1 >= p->input_height) {
    dw_ring_fill(p, image, row, ring);
    dw_ring_fill(p, image, row + 1, ring);
    return;
  }
  image += (size_t)row * ring->row_bytes + (size_t)(ring->origin + ring->inside_begin) * ring->depth;
  dw_ring_widen2(ring, image, dw_slot(ring, row));
}

/* Output columns per tile: a tile's windows span at most DW_RING_COLS input columns. */
static int32_t dw_tile_width(void) { return DW_RING_COLS - 2; }

/* Whether the ring takes the layer: a 3x3 window without dilation, depth multiplier 1, stride 1 (at stride
 * 2 each input pixel serves fewer windows than its widening costs), rows of 3 pixels or more (on smaller
 * maps the ring's set-up costs more than the clipped windows). */
static int dw_ringed(const dw_params* p) {
  return dw_widened(p) && p->stride_width == 1 && p->stride_height == 1 && p->output_width >= 3;
}

/* `n` output columns of a pair of rows from the windows at `in` on (16 words apart in the ring), `depth`
 * bytes apart from `out`, the lower row `lower` bytes further. The clamp [-128, 127] is the steps' SSAT, a
 * narrower one a SIMD clamp: a test per pair instead of a second copy of the loop. */
static inline void dw_pixels_ringed(const dw_group* g, const uint32_t* in, int32_t n, size_t depth, int8_t* out,
                                    size_t lower) {
  const uint32_t* const end = in + 16 * n;
  int32_t a[4], b[4];
  for (; in != end; in += 16, out += depth) {
    microaot_dsp_mac4_widened_3x3_x2(in, g->bias_weights, a, b);
    microaot_dsp_steps4x2(g->step, a, b);
    if (g->full_range) {
      microaot_dsp_store4(b, out + lower);
      microaot_dsp_store4(a, out);
    } else {
      microaot_dsp_clamp_store4(b, out + lower, g->activation_min4, g->activation_max4);
      microaot_dsp_clamp_store4(a, out, g->activation_min4, g->activation_max4);
    }
  }
}

/* The same for one row (an odd last one), window by window. */
static __attribute__((noinline)) void dw_pixels_ringed_row(const dw_group* g, const uint32_t* in, int32_t n,
                                                           size_t depth, int8_t* out) {
  int32_t s[4];
  for (; n > 0; --n, in += 16, out += depth) {
    microaot_dsp_mac4_widened_3x3(in, g->bias_weights, s);
    dw_store4(g, s, out);
  }
}

/* Output rows [oy, oy + rows) of one image through the ring, two at a time (an odd last row alone): `output`
 * at row oy and the tile's first column. */
static void dw_image_rows_ringed(const dw_params* p, const dw_group* g, const int8_t* image, dw_ring* ring,
                                 int32_t oy, int32_t rows, int8_t* output, size_t row_stride) {
  const size_t depth = (size_t)p->output_depth;
  const int32_t n = ring->cols - 2;
  int32_t k;
  ring->first_row = oy - p->pad_height;
  /* k = -2 widens the first pair's top two rows only (one call site: less code) */
  for (k = -2; k < rows; k += 2) {
    const int32_t top = ring->first_row + k; /* the upper window's top row */
    int8_t* const out = output + (size_t)(k < 0 ? 0 : k) * row_stride;
    dw_ring_fill2(p, image, top + 2, ring);
    if (k < 0) continue;
    if (k + 1 < rows) {
      dw_pixels_ringed(g, ring->lanes[0][dw_slot(ring, top)], n, depth, out, row_stride);
    } else {
      dw_pixels_ringed_row(g, ring->lanes[0][dw_slot(ring, top)], n, depth, out);
    }
  }
}

/* Output columns [ox_begin, ox_end) of rows [row_begin, row_end) (counted over all batches) of the group
 * through the ring, image by image: `input` and `output` at the group's channel. */
static __attribute__((noinline)) void dw_group_tile_ringed(const dw_params* p, const dw_group* g,
                                                           const int8_t* input, int8_t* output, size_t row_stride,
                                                           int32_t row_begin, int32_t row_end, int32_t ox_begin,
                                                           int32_t ox_end, dw_ring* ring) {
  const size_t image_size = (size_t)p->input_height * (size_t)p->input_width * (size_t)p->input_depth;
  int32_t row = row_begin;
  dw_ring_init(p, ox_begin - p->pad_width, ox_end - ox_begin + 2, ring);
  output += (size_t)ox_begin * (size_t)p->output_depth;
  while (row < row_end) {
    const int32_t oy = row % p->output_height;
    const int32_t rows = row_end - row < p->output_height - oy ? row_end - row : p->output_height - oy;
    dw_image_rows_ringed(p, g, input + (size_t)(row / p->output_height) * image_size, ring, oy, rows, output,
                         row_stride);
    row += rows;
    output += (size_t)rows * row_stride;
  }
}

/* Rows [row_begin, row_end) of the channel groups [0, groups_end) through the ring, group by group, each
 * tile by tile: one ring for all (the padding columns zeroed once). */
static __attribute__((noinline)) void dw_rows_ringed(const dw_params* p, const int8_t* input, const int8_t* filter,
                                                     const int32_t* bias, int8_t* output, size_t row_stride,
                                                     int32_t row_begin, int32_t row_end, int32_t groups_end) {
  const int32_t width = dw_tile_width();
  int32_t c, ox;
  dw_group g;
  dw_ring ring;
  ring.cols = 0; /* no tile yet */
  for (c = 0; c < groups_end; c += 4) {
    dw_group_of(p, filter, bias, c, &g);
    for (ox = 0; ox < p->output_width; ox += width) {
      const int32_t end = ox + width < p->output_width ? ox + width : p->output_width;
      dw_group_tile_ringed(p, &g, input + c, output + c, row_stride, row_begin, row_end, ox, end, &ring);
    }
  }
}

/* Output rows [row_begin, row_end) of the group (3x3 filter, no dilation) as dw_rows lays them out, `input`,
 * `output` and `scratch` at the group's channel: the batch and row counted on instead of divided out, and
 * a row's overhead small (KWS's rows are 5 pixels). */
static __attribute__((noinline)) void dw_group_rows_3x3(const dw_params* p, const dw_group* g, const int8_t* input,
                                                        int8_t* output, size_t row_stride, int32_t row_begin,
                                                        int32_t row_end, int8_t* scratch) {
  const size_t image_size = (size_t)p->input_height * (size_t)p->input_width * (size_t)p->input_depth;
  const int8_t* image = input + (size_t)(row_begin / p->output_height) * image_size;
  int32_t row, oy = row_begin % p->output_height, first, end;
  dw_interior_columns(p, &first, &end);
  for (row = row_begin; row < row_end; ++row, output += row_stride) {
    const microaot_window y = dw_window_3(oy * p->stride_height - p->pad_height, p->input_height);
    dw_group_row_3x3(p, g, image, &y, first, end, scratch != NULL ? scratch : output);
    if (scratch != NULL) dw_copy_channels(p, scratch, output, 4);
    if (++oy == p->output_height) {
      oy = 0;
      image += image_size;
    }
  }
}

/* Output columns [0, output width) of one row for the group at channel c, each window on its own, by the
 * filter's own weights (filters other than 3x3 or dilated): the sums doubled afterwards. */
static void dw_group_row_any(const dw_params* p, const dw_group* g, const int8_t* image, const int8_t* filter,
                             const microaot_window* y, int8_t* out) {
  const size_t depth = (size_t)p->output_depth;
  int32_t ox, k, s[4];
  for (ox = 0; ox < p->output_width; ++ox) {
    const microaot_window x = microaot_window_of(ox, p->stride_width, p->pad_width, p->filter_width,
                                                 p->dilation_width, p->input_width);
    memset(s, 0, sizeof s);
    dw_taps(p, image, filter, y, &x, s);
    for (k = 0; k < 4; ++k) s[k] = 2 * s[k] + dw_bias(g)[k];
    dw_store4_tested(g, s, out + (size_t)ox * depth);
  }
}

/* Channel c (one of the depth % 4 last) of every pixel of one row, by the general output step. */
static void dw_channel_row(const dw_params* p, const int32_t* bias, const int8_t* image, const int8_t* filter,
                           const microaot_window* y, int32_t c, int8_t* out) {
  const size_t depth = (size_t)p->output_depth;
  const microaot_dsp_output_stage stage = MICROAOT_DSP_OUTPUT_STAGE(p, bias);
  int32_t ox, fy, fx;
  for (ox = 0; ox < p->output_width; ++ox) {
    const microaot_window x =
        microaot_window_of(ox, p->stride_width, p->pad_width, p->filter_width, p->dilation_width, p->input_width);
    int32_t sum = 0;
    for (fy = y->begin; fy < y->end; ++fy) {
      const int32_t in_y = y->origin + fy * p->dilation_height;
      for (fx = x.begin; fx < x.end; ++fx) {
        const int32_t in_x = x.origin + fx * p->dilation_width;
        const int32_t value = image[((size_t)in_y * (size_t)p->input_width + (size_t)in_x) * depth + (size_t)c];
        sum += (value + p->input_offset) * filter[(size_t)(fy * p->filter_width + fx) * depth + (size_t)c];
      }
    }
    out[(size_t)ox * depth + (size_t)c] = microaot_dsp_output(&stage, sum, c);
  }
}

/* dw_rows's channels [c, depth) outside the ring: unrolled 3x3 windows, any other filter, the last depth % 4
 * channels one by one. */
static __attribute__((noinline)) void dw_rows_from(const dw_params* p, const int8_t* input, const int8_t* filter,
                                                   const int32_t* bias, int8_t* output, size_t row_stride,
                                                   int32_t row_begin, int32_t row_end, int8_t* row_scratch,
                                                   int32_t c) {
  const size_t image_size = (size_t)p->input_height * (size_t)p->input_width * (size_t)p->input_depth;
  int32_t row, k;
  dw_group g;
  for (; c < p->output_depth; c += 4) {
    const int whole = c + 4 <= p->output_depth; /* else the last depth % 4 channels */
    if (whole) dw_group_of(p, filter, bias, c, &g);
    if (whole && dw_widened(p)) {
      dw_group_rows_3x3(p, &g, input + c, output + c, row_stride, row_begin, row_end,
                        row_scratch != NULL ? row_scratch + c : NULL);
      continue;
    }
    for (row = row_begin; row < row_end; ++row) {
      const int8_t* image = input + (size_t)(row / p->output_height) * image_size;
      const int32_t oy = row % p->output_height;
      const microaot_window y = microaot_window_of(oy, p->stride_height, p->pad_height, p->filter_height,
                                                   p->dilation_height, p->input_height);
      int8_t* out = output + (size_t)(row - row_begin) * row_stride;
      int8_t* dst = row_scratch != NULL ? row_scratch : out;
      if (whole) {
        dw_group_row_any(p, &g, image + c / p->depth_multiplier, filter + c, &y, dst + c);
      } else {
        for (k = c; k < p->output_depth; ++k) dw_channel_row(p, bias, image, filter, &y, k, dst);
      }
      if (row_scratch != NULL) dw_copy_channels(p, row_scratch + c, out + c, whole ? 4 : (size_t)(p->output_depth - c));
    }
  }
}

/* Output rows [row_begin, row_end) (counted over all batches), channel group by channel group (each group's
 * constants once), into `output` (row i at output + i * row_stride), or with row_scratch each group's part
 * of a row into the scratch row first and then to its place (see the overlap variant). The ring and the other
 * paths in functions of their own: the stack holds either's data, not both. */
static void dw_rows(const dw_params* p, const int8_t* input, const int8_t* filter, const int32_t* bias,
                    int8_t* output, size_t row_stride, int32_t row_begin, int32_t row_end, int8_t* row_scratch) {
  int32_t c = 0;
  /* The ring reads a row's inputs before the row's outputs are written, as the scratch row ensures
   * elsewhere: the ring needs no scratch row, but with one (overlap) the whole row in one tile, else a
   * later tile would read inputs that an earlier tile's later rows overwrote. */
  if (dw_ringed(p) && (row_scratch == NULL || dw_tile_width() >= p->output_width)) {
    c = p->output_depth / 4 * 4; /* the whole groups; the last depth % 4 channels by dw_rows_from */
    dw_rows_ringed(p, input, filter, bias, output, row_stride, row_begin, row_end, c);
  }
  dw_rows_from(p, input, filter, bias, output, row_stride, row_begin, row_end, row_scratch, c);
}

void microaot_depthwise_conv_2d_s8(const microaot_depthwise_conv_2d_params_q* params, const int8_t* input,
                                   const int8_t* filter, const int32_t* bias, int8_t* output) {
  const size_t row_size = (size_t)params->output_width * (size_t)params->output_depth;
  if (!dw_fits(params, bias)) {
    microaot_depthwise_conv_2d_s8_portable(params, input, filter, bias, output);
    return;
  }
  dw_rows(params, input, filter, bias, output, row_size, 0, params->batches * params->output_height, NULL);
}

/* Output channel c reads input channel c only. When output and input lie a whole number of pixels apart,
 * every output byte overwrites an input byte of its own channel, so a channel group done row by row (each
 * row through the scratch row, as the portable kernel does with whole rows) sees the same inputs as in
 * whole-row order: the groups go outermost and each computes its constants once. Otherwise (and with a depth
 * multiplier above 1, where output channel c reads input channel c / multiplier) whole rows. */
void microaot_depthwise_conv_2d_s8_overlap(const microaot_depthwise_conv_2d_params_q* params, const int8_t* input,
                                           const int8_t* filter, const int32_t* bias, int8_t* output,
                                           void* scratch) {
  const size_t row_size = (size_t)params->output_width * (size_t)params->output_depth;
  const uintptr_t in_at = (uintptr_t)input, out_at = (uintptr_t)output;
  const int32_t rows = params->batches * params->output_height;
  int32_t row;
  if (!dw_fits(params, bias)) {
    microaot_depthwise_conv_2d_s8_overlap_portable(params, input, filter, bias, output, scratch);
    return;
  }
  if (params->depth_multiplier == 1 &&
      (in_at > out_at ? in_at - out_at : out_at - in_at) % (uintptr_t)params->output_depth == 0) {
    dw_rows(params, input, filter, bias, output, row_size, 0, rows, (int8_t*)scratch);
    return;
  }
  for (row = 0; row < rows; ++row) {
    dw_rows(params, input, filter, bias, (int8_t*)scratch, row_size, row, row + 1, NULL);
    memcpy(output + (size_t)row * row_size, scratch, row_size);
  }
}
