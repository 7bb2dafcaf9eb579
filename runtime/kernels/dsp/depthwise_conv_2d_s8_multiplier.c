/* int8 DEPTHWISE_CONV_2D with the DSP extension for a depth multiplier of 2 or more (output channel oc reads
 * input channel oc / multiplier), bit-exact with the portable kernel: the layers the full DSP kernel leaves to the
 * portable code (multipliers 2, 3, 5, ..., and any multiplier whose requantization shifts left or not at all:
 * micro_speech's layer, multiplier 8, microaot_fit_depthwise_dsp_requantization_left). The compiler picks this stem for them (compiler/ops/depthwise_conv_2d.cpp);
 * any other layer (a graph blob is untrusted, a user may call it) is refused with a status before a byte of the
 * output is written (microaot_fit_depthwise_multiplier and the DSP bounds, microaot/fit/depthwise_conv_2d.h).
 * Four output channels at a time, as the full kernel's groups: channels c to c + 3 read input channel a (the
 * first `split` of them) and a + 1 (the others), so each tap loads the two input bytes as one halfword h, and
 * the lanes of channels (c, c + 2) and (c + 1, c + 3) are SXTAB16 of h | h << 8 (bytes a, a + 1) or of
 * h | h << 16 (bytes a, a or, rotated, a + 1, a + 1), the input offset added on the way, as the split picks them;
 * SMLABB/SMLATT add the four products. Any filter, stride, dilation
 * and padding: each window's in-image taps, as the reference. The sums doubled for the group's output step (one
 * SMMLAR per value, microaot/dsp_depthwise.h); the last depth % 4 channels by a group ending at the last channel
 * (a few channels computed twice, the same bytes stored twice). */
/* microaot-links: kernels/dsp/depthwise_conv_2d_s8_setup.c */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "microaot/internal/dsp_depthwise.h"
#include "microaot/internal/window.h"
#include "microaot/kernels/conv.h"

/* How the group of output channels [c, c + 4) walks a window: it reads input channel a for its first `split`
 * channels (1 to 4) and a + 1 for the others; bytes from one tap to the next along a window row (input, filter)
 * and from one window row to the next; the input offset in both 16-bit lanes. Set once per group. */
typedef struct {
  int32_t channel, split;
  size_t in_stride, w_stride, in_row_stride, w_row_stride;
  uint32_t offset;
  int32_t left[4]; /* each channel's left shift (0 for a right shift) */
  int32_t shifted; /* a channel rounds no right shift (shift >= 0): the output step in C, dwm_store_shifted */
} dwm_walk;

static dwm_walk dwm_walk_of(const dw_params* p, int32_t c) {
  dwm_walk k;
  k.channel = c / p->depth_multiplier;
  k.split = (k.channel + 1) * p->depth_multiplier - c;
  if (k.split > 4) k.split = 4;
  k.in_stride = (size_t)p->dilation_width * (size_t)p->input_depth;
  k.w_stride = (size_t)p->output_depth;
  k.in_row_stride = (size_t)p->dilation_height * (size_t)p->input_width * (size_t)p->input_depth;
  k.w_row_stride = (size_t)p->filter_width * (size_t)p->output_depth;
  k.offset = microaot_dsp_pack16(p->input_offset, p->input_offset);
  return k;
}

/* The constants of the group of channels [c, c + 4) (microaot_dsp_depthwise_group_of) and its left shifts
 * (microaot_fit_depthwise_dsp_requantization_left): a channel that shifts left or not at all goes to the shared
 * set-up as a right shift of 1, then rounds no right shift, its output offset the whole rounding term, so that
 * the set-up stays the ring's. */
static void dwm_group_of(const dw_params* p, const int8_t* filter, const dw_channels* ch, int32_t c, dwm_walk* k,
                         dw_group* g) {
  int32_t shifts[4], j;
  dw_channels group;
  for (j = 0; j < 4; ++j) shifts[j] = ch->shift[c + j] < 0 ? ch->shift[c + j] : -1;
  group.bias = ch->bias != NULL ? ch->bias + c : NULL;
  group.multiplier = ch->multiplier + c;
  group.shift = shifts;
  microaot_dsp_depthwise_group_of(p, filter + c, &group, 0, g);
  k->shifted = 0;
  for (j = 0; j < 4; ++j) {
    k->left[j] = ch->shift[c + j] > 0 ? ch->shift[c + j] : 0;
    if (ch->shift[c + j] < 0) continue;
    k->shifted = 1;
    g->output_step[j][1] = p->output_offset;
    g->output_step[j][2] = 0;
  }
}

/* Four channels' outputs from their doubled sums (bias included) where a channel shifts left or not at all: its
 * sum times 2^L, then the group's output step (a right shift's rounding less one for a negative sum, as the asm
 * steps do; none without a right shift), the SSAT and the clamp. Per pixel, not per tap: in C. */
static __attribute__((noinline)) void dwm_store_shifted(const dw_group* g, const dwm_walk* k, const int32_t s[4],
                                                        int8_t* out) {
  const int32_t lo = (int8_t)(uint8_t)(g->activation_min4 & 0xFFu), hi = (int8_t)(uint8_t)(g->activation_max4 & 0xFFu);
  int32_t c;
  for (c = 0; c < 4; ++c) {
    const int32_t e = g->output_step[c][2];
    const int32_t y = (int32_t)((uint32_t)s[c] << k->left[c]); /* within int32: the fit's bound */
    const int32_t rounding = g->output_step[c][1] + (e > 0 ? (y < 0 ? -1 : 0) : 0);
    out[c] = (int8_t)microaot_clamp_s32(microaot_dsp_ssat8(microaot_dsp_smmlar(y, g->output_step[c][0], rounding) >> e),
                                        lo, hi);
  }
}

/* The group's sums (s[0..3]) over the taps of one window row: `n` taps, the input `in_stride` bytes apart, the
 * weights `depth` apart. Inlined with a constant `split`, one loop per split: its lanes without a test per tap. */
static inline __attribute__((always_inline)) void dwm_row_taps(const int8_t* in, const int8_t* w, int32_t n,
                                                               size_t in_stride, size_t depth, uint32_t offset,
                                                               int32_t split, int32_t s[4]) {
  int32_t t, s0 = s[0], s1 = s[1], s2 = s[2], s3 = s[3];
  for (t = 0; t < n; ++t, in += in_stride, w += depth) {
    const uint32_t weights = microaot_dsp_load4(w);
    const uint32_t w02 = microaot_dsp_sxtb16(weights), w13 = microaot_dsp_sxtb16_ror8(weights);
    uint32_t x02, x13;
    if (split == 4) { /* no channel reads a + 1: its byte (maybe past the input) is not loaded */
      x02 = x13 = microaot_dsp_sxtab16(offset, 0x00010001u * (uint8_t)*in);
    } else {
      uint16_t pair; /* bytes a, a + 1 */
      uint32_t h;
      memcpy(&pair, in, sizeof pair);
      h = pair;
      x02 = microaot_dsp_sxtab16(offset, split == 3 ? h | h << 16 : h | h << 8);
      x13 = split == 1 ? microaot_dsp_sxtab16_ror8(offset, h | h << 16)
                       : microaot_dsp_sxtab16(offset, h | h << 8);
    }
    s0 = microaot_dsp_smlabb(x02, w02, s0);
    s2 = microaot_dsp_smlatt(x02, w02, s2);
    s1 = microaot_dsp_smlabb(x13, w13, s1);
    s3 = microaot_dsp_smlatt(x13, w13, s3);
  }
  s[0] = s0, s[1] = s1, s[2] = s2, s[3] = s3;
}

/* The group's four sums over `rows` window rows of `n` taps from input `in_row` and weights `w_row` on, added to
 * sums. Not inlined: the sums stay in registers. */
static __attribute__((noinline)) void dwm_taps(const dwm_walk* k, const int8_t* in_row, const int8_t* w_row,
                                               int32_t rows, int32_t n, int32_t sums[4]) {
  int32_t r, s[4] = {0, 0, 0, 0};
  for (r = 0; r < rows; ++r, in_row += k->in_row_stride, w_row += k->w_row_stride) {
    switch (k->split) {
      case 1: dwm_row_taps(in_row, w_row, n, k->in_stride, k->w_stride, k->offset, 1, s); break;
      case 2: dwm_row_taps(in_row, w_row, n, k->in_stride, k->w_stride, k->offset, 2, s); break;
      case 3: dwm_row_taps(in_row, w_row, n, k->in_stride, k->w_stride, k->offset, 3, s); break;
      default: dwm_row_taps(in_row, w_row, n, k->in_stride, k->w_stride, k->offset, 4, s); break;
    }
  }
  sums[0] += s[0];
  sums[1] += s[1];
  sums[2] += s[2];
  sums[3] += s[3];
}

/* The pair path of a group whose four channels read one input channel (split 4; micro_speech's layer, one input
 * channel, depth multiplier 8, a 10x8 filter): a window row's taps in pairs along x, the two input bytes plus the
 * offset in the 16-bit lanes of one word against each channel's two weights (paired once per group, an odd row's
 * last tap with 0), one SMLAD per channel and pair. Where the taps are adjacent bytes (one input channel, no
 * dilation) four taps come in one word first, SXTAB16 pairing taps (0, 2) and (1, 3): about 1.2 instructions per
 * MAC against 3.5 tap by tap. For windows whole along x (clipped rows are whole rows less); the others tap by tap.
 * A filter row's words: per quad the channels' (0, 2) pairs then their (1, 3) pairs, per pair the channels' pairs,
 * then the odd tap's. */
#define DWM_PAIR_WORDS 160 /* filter rows * ceil(width / 2) * 4 channels at most: micro_speech's 10 * 4 * 4 */
typedef struct {
  uint32_t w[DWM_PAIR_WORDS];
  int32_t half;  /* words per filter row / 4; 0: no pair path for the group */
  int32_t quads; /* quads of taps per filter row (adjacent input bytes), before the pairs */
} dwm_pairs;

/* Channel c's weights of taps t and u (u past the row: 0) in the 16-bit lanes of a word. */
static uint32_t dwm_pair_weights(const dw_params* p, const int8_t* row, size_t depth, int32_t t, int32_t u, int32_t c) {
  return microaot_dsp_pack16(row[(size_t)t * depth + (size_t)c], u < p->filter_width ? row[(size_t)u * depth + (size_t)c] : 0);
}

/* The group's paired weights from `filter` (at its first channel) on, or half 0 where the path does not apply. */
static void dwm_pairs_of(const dw_params* p, const dwm_walk* k, const int8_t* filter, dwm_pairs* q) {
  const int32_t half = (p->filter_width + 1) / 2;
  int32_t fy, t, c;
  uint32_t* out = q->w;
  q->half = 0;
  q->quads = k->in_stride == 1 ? p->filter_width / 4 : 0;
  if (k->split != 4 || p->filter_width < 2 || (int64_t)p->filter_height * half * 4 > DWM_PAIR_WORDS) return;
  for (fy = 0; fy < p->filter_height; ++fy) {
    const int8_t* row = filter + (size_t)fy * (size_t)p->filter_width * k->w_stride;
    for (t = 0; t < 4 * q->quads; t += 4) {
      for (c = 0; c < 4; ++c) *out++ = dwm_pair_weights(p, row, k->w_stride, t, t + 2, c);
      for (c = 0; c < 4; ++c) *out++ = dwm_pair_weights(p, row, k->w_stride, t + 1, t + 3, c);
    }
    for (; t < p->filter_width; t += 2) {
      for (c = 0; c < 4; ++c) *out++ = dwm_pair_weights(p, row, k->w_stride, t, t + 1, c);
    }
  }
  q->half = half;
}

/* The group's four sums over `rows` whole window rows from input `in_row` and pair row `w` on, added to sums.
 * Not inlined: the sums stay in registers. */
static __attribute__((noinline)) void dwm_pair_taps(const dw_params* p, const dwm_walk* k, const int8_t* in_row,
                                                    const uint32_t* w, int32_t half, int32_t q_quads, int32_t rows,
                                                    int32_t sums[4]) {
  const size_t s = k->in_stride;
  const int32_t quads = q_quads, whole = (p->filter_width - 4 * quads) / 2, odd = p->filter_width & 1;
  const uint32_t offset = k->offset;
  int32_t r, j, s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  for (r = 0; r < rows; ++r, in_row += k->in_row_stride, w += 4 * half) {
    const int8_t* in = in_row;
    const uint32_t* pw = w;
    for (j = 0; j < quads; ++j, in += 4, pw += 8) {
      const uint32_t word = microaot_dsp_load4(in);
      const uint32_t x02 = microaot_dsp_sxtab16(offset, word), x13 = microaot_dsp_sxtab16_ror8(offset, word);
      s0 = microaot_dsp_smlad(x02, pw[0], s0);
      s1 = microaot_dsp_smlad(x02, pw[1], s1);
      s2 = microaot_dsp_smlad(x02, pw[2], s2);
      s3 = microaot_dsp_smlad(x02, pw[3], s3);
      s0 = microaot_dsp_smlad(x13, pw[4], s0);
      s1 = microaot_dsp_smlad(x13, pw[5], s1);
      s2 = microaot_dsp_smlad(x13, pw[6], s2);
      s3 = microaot_dsp_smlad(x13, pw[7], s3);
    }
    for (j = 0; j < whole; ++j, in += 2 * s, pw += 4) {
      const uint32_t x = microaot_dsp_sxtab16(offset, (uint32_t)(uint8_t)in[0] | (uint32_t)(uint8_t)in[s] << 16);
      s0 = microaot_dsp_smlad(x, pw[0], s0);
      s1 = microaot_dsp_smlad(x, pw[1], s1);
      s2 = microaot_dsp_smlad(x, pw[2], s2);
      s3 = microaot_dsp_smlad(x, pw[3], s3);
    }
    if (odd) { /* the last tap's byte alone (the next may lie past the input): its pair weight 0 */
      const uint32_t x = microaot_dsp_sxtab16(offset, (uint32_t)(uint8_t)in[0]);
      s0 = microaot_dsp_smlad(x, pw[0], s0);
      s1 = microaot_dsp_smlad(x, pw[1], s1);
      s2 = microaot_dsp_smlad(x, pw[2], s2);
      s3 = microaot_dsp_smlad(x, pw[3], s3);
    }
  }
  sums[0] += s0;
  sums[1] += s1;
  sums[2] += s2;
  sums[3] += s3;
}

/* One output row of the group, its windows' rows `y`: `image` at input channel a, `filter` and `out` at the
 * group's first channel. A window with no tap in the image leaves the bias (its pointers are not formed). */
static void dwm_group_row(const dw_params* p, const dw_group* g, const dwm_walk* k, const dwm_pairs* q,
                          const int8_t* image, const int8_t* filter, const microaot_window* y, int8_t* out) {
  const int32_t rows = y->end - y->begin;
  const int8_t* in_y = NULL;
  const int8_t* w_y = NULL;
  int32_t ox, c, s[4];
  if (rows > 0) {
    in_y = image + (size_t)(y->origin + y->begin * p->dilation_height) * (size_t)p->input_width *
                       (size_t)p->input_depth;
    w_y = filter + (size_t)y->begin * k->w_row_stride;
  }
  for (ox = 0; ox < p->output_width; ++ox) {
    const microaot_window x = microaot_window_of(ox, p->stride_width, p->pad_width, p->filter_width,
                                                 p->dilation_width, p->input_width);
    memset(s, 0, sizeof s);
    if (rows > 0 && q->half > 0 && x.begin == 0 && x.end == p->filter_width) {
      dwm_pair_taps(p, k, in_y + (size_t)x.origin * (size_t)p->input_depth, q->w + y->begin * 4 * q->half, q->half,
                    q->quads, rows, s);
    } else if (rows > 0 && x.end > x.begin) {
      dwm_taps(k, in_y + (size_t)(x.origin + x.begin * p->dilation_width) * (size_t)p->input_depth,
               w_y + (size_t)x.begin * k->w_stride, rows, x.end - x.begin, s);
    }
    for (c = 0; c < 4; ++c) s[c] = 2 * s[c] + g->bias_weights[c];
    if (k->shifted) {
      dwm_store_shifted(g, k, s, out + (size_t)ox * k->w_stride);
    } else if (g->full_range) {
      microaot_dsp_output_step_store8x4(g->output_step, s, out + (size_t)ox * k->w_stride);
    } else {
      dw_store4(g, s, out + (size_t)ox * k->w_stride);
    }
  }
}

/* Output rows [row_begin, row_end) (counted over all batches) into `output` (row i at output + i * row_stride),
 * group by group, each group's constants once. */
static void dwm_rows(const dw_params* p, const int8_t* input, const int8_t* filter, const dw_channels* ch,
                     int8_t* output, size_t row_stride, int32_t row_begin, int32_t row_end) {
  const size_t image_size = (size_t)p->input_height * (size_t)p->input_width * (size_t)p->input_depth;
  int32_t c, row;
  dw_group g;
  dwm_pairs q;
  for (c = 0; c < p->output_depth; c += 4) {
    const int32_t first = c + 4 <= p->output_depth ? c : p->output_depth - 4; /* the last group ends at the end */
    dwm_walk k = dwm_walk_of(p, first);
    dwm_group_of(p, filter, ch, first, &k, &g);
    dwm_pairs_of(p, &k, filter + first, &q);
    for (row = row_begin; row < row_end; ++row) {
      const int32_t oy = row % p->output_height;
      const microaot_window y = microaot_window_of(oy, p->stride_height, p->pad_height, p->filter_height,
                                                   p->dilation_height, p->input_height);
      const int8_t* image = input + (size_t)(row / p->output_height) * image_size + k.channel;
      dwm_group_row(p, &g, &k, &q, image, filter + first, &y, output + (size_t)(row - row_begin) * row_stride + first);
    }
  }
}

/* All rows at once into `output`, or (`scratch`: output and input may share bytes) row by row through the scratch
 * row, as the portable overlap variant. */
static microaot_status dwm_run(const dw_params* p, const int8_t* input, const int8_t* filter, const int32_t* bias,
                               int8_t* output, int8_t* scratch) {
  const size_t row_size = (size_t)p->output_width * (size_t)p->output_depth;
  const int32_t rows = p->batches * p->output_height;
  const dw_channels ch = dw_channels_of(p, bias);
  int32_t row;
  if (!microaot_fit_depthwise_multiplier(p) || !microaot_fit_depthwise_dsp_requantization_left(p, &ch)) {
    return MICROAOT_STATUS_VALUE_OUT_OF_RANGE;
  }
  if (scratch == NULL) {
    dwm_rows(p, input, filter, &ch, output, row_size, 0, rows);
    return MICROAOT_STATUS_OK;
  }
  for (row = 0; row < rows; ++row) {
    dwm_rows(p, input, filter, &ch, scratch, row_size, row, row + 1);
    memcpy(output + (size_t)row * row_size, scratch, row_size);
  }
  return MICROAOT_STATUS_OK;
}

microaot_status microaot_depthwise_conv_2d_s8_multiplier(const microaot_depthwise_conv_2d_params_q* params,
                                                         const int8_t* input, const int8_t* filter,
                                                         const int32_t* bias, int8_t* output) {
  return dwm_run(params, input, filter, bias, output, NULL);
}

microaot_status microaot_depthwise_conv_2d_s8_multiplier_overlap(const microaot_depthwise_conv_2d_params_q* params,
                                                                 const int8_t* input, const int8_t* filter,
                                                                 const int32_t* bias, int8_t* output,
                                                                 void* scratch) {
  if (scratch == NULL) return MICROAOT_STATUS_NULL_POINTER;
  return dwm_run(params, input, filter, bias, output, (int8_t*)scratch);
}
