/* The DSP int8 DEPTHWISE_CONV_2D's small-map patch (microaot/internal/dsp_depthwise.h): on a map whose padded
 * input fits one ring's lanes (microaot_fit_depthwise_patched: VWW's 6x6 and 3x3 maps), each channel group's
 * inputs are widened once into it and every window, at an edge or not, runs unrolled over the nine taps (a
 * padding tap reads a zero, which adds 0, as the reference's skipped tap). On a 3x3 map five windows of nine
 * are clipped and the ring re-widens five padded rows per group; here nine pixels are widened and no window
 * clipped. Its rows over the channel groups, dw_rows_patched_from, take each group's constants from one of
 * dw_group_get_any's sources, constant arguments in each entry point: dsp/depthwise_conv_2d_s8_patch.c (the filter's,
 * the precomputed ones) and dsp/depthwise_conv_2d_s8_patch_w8.c (the compact words') include this. */
/* microaot-links: kernels/dsp/depthwise_conv_2d_s8_pairs_s1.c */
/* microaot-links: kernels/dsp/depthwise_conv_2d_s8_pairs_s2.c */
#ifndef MICROAOT_DSP_DEPTHWISE_PATCH_H
#define MICROAOT_DSP_DEPTHWISE_PATCH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "microaot/internal/dsp_depthwise.h"

/* An image's part of the call: its output rows [oy, oy + rows), the patch's rows [0, in_rows) and columns
 * [0, cols) from input row `top` and column `left` on, of which [row_begin, row_end) x [col_begin, col_end) lie
 * inside the image. */
typedef struct {
  int32_t oy, rows, top, left, in_rows, cols;
  int32_t row_begin, row_end, col_begin, col_end;
} dw_patch_span;

static int32_t dw_clip(int32_t v, int32_t lo, int32_t hi) { return v < lo ? lo : (v > hi ? hi : v); }

static dw_patch_span dw_patch_span_of(const dw_params* p, int32_t oy, int32_t rows) {
  dw_patch_span s;
  s.oy = oy;
  s.rows = rows;
  s.top = oy * p->stride_height - p->pad_height;
  s.left = -p->pad_width;
  s.in_rows = (rows - 1) * p->stride_height + 3;
  s.cols = (p->output_width - 1) * p->stride_width + 3;
  s.row_begin = dw_clip(-s.top, 0, s.in_rows);
  s.row_end = dw_clip(p->input_height - s.top, s.row_begin, s.in_rows);
  s.col_begin = dw_clip(-s.left, 0, s.cols);
  s.col_end = dw_clip(p->input_width - s.left, s.col_begin, s.cols);
  return s;
}

/* How a span's in-image inputs are widened, the same for every group but for the channel: `rows` rows of `n`
 * pixels `depth` bytes apart from image + in_at (the group's channel added), rows row_bytes apart, into the lanes
 * from `at` on (a pixel a column on: 64 bytes; a row a slot on: 8). Computed once a span, not per group. */
typedef struct {
  size_t in_at, depth, row_bytes;
  uint32_t (*at)[2];
  int32_t rows, n;
  uint32_t offset;
} dw_patch_widening;

static dw_patch_widening dw_patch_widening_of(const dw_params* p, const dw_patch_span* s, uint32_t (*lanes)[8][2]) {
  dw_patch_widening w;
  w.depth = (size_t)p->input_depth;
  w.row_bytes = (size_t)p->input_width * w.depth;
  w.n = s->col_end - s->col_begin;
  w.rows = w.n > 0 ? s->row_end - s->row_begin : 0; /* nothing in the image: no address left of or above it */
  w.in_at = w.rows > 0 ? (size_t)(s->top + s->row_begin) * w.row_bytes + (size_t)(s->left + s->col_begin) * w.depth : 0;
  w.at = &lanes[s->col_begin][s->row_begin];
  w.offset = microaot_dsp_pack16(p->input_offset, p->input_offset);
  return w;
}

/* `n` cells of the patch set to zero, `step` words apart from `cell` on (16: along a row; 2: down a column). */
static void dw_zero_cells(uint32_t* cell, int32_t n, size_t step) {
  for (; n > 0; --n, cell += step) cell[0] = cell[1] = 0;
}

/* Zeroes the span's padding cells, once a span: the widening overwrites every other cell of [0, cols) x
 * [0, in_rows) for each group. Padding rows go along the patch's rows, padding columns down the image's rows:
 * a memset of the whole patch took about 220 instructions a call on a 7x7 patch, this about 60. */
static void dw_patch_zero_padding(const dw_patch_span* s, uint32_t (*lanes)[8][2]) {
  const int32_t image_rows = s->row_end - s->row_begin;
  int32_t k;
  for (k = 0; k < s->row_begin; ++k) dw_zero_cells(lanes[0][k], s->cols, 16);
  for (k = s->row_end; k < s->in_rows; ++k) dw_zero_cells(lanes[0][k], s->cols, 16);
  for (k = 0; k < s->col_begin; ++k) dw_zero_cells(lanes[k][s->row_begin], image_rows, 2);
  for (k = s->col_end; k < s->cols; ++k) dw_zero_cells(lanes[k][s->row_begin], image_rows, 2);
}

/* The group's inputs (`image` at its channel) plus the offset into the patch, lanes[column][row]: the same cells
 * for every group, so the padding cells stay as zeroed once. Where MICROAOT_DSP_ASM one statement for the whole
 * span, two pixels a pass (two LDR, four SXTAB16, two STRD), an odd row's last pixel after them: as a C loop per
 * row around a statement per pair, the compiler recomputed each row's pointers and tail (about 20 instructions
 * a row, 6x6 maps widening 6 rows a group). */
static __attribute__((noinline)) void dw_patch_widen(const dw_patch_widening* w, const int8_t* image) {
#if MICROAOT_DSP_ASM
  const int8_t* in = image + w->in_at;
  uint32_t(*at)[2] = w->at;
  const size_t in_skip = w->row_bytes - (size_t)w->n * w->depth; /* a row's end to the next row's start */
  const uint32_t at_skip = 8u - 64u * (uint32_t)w->n;             /* (mod 2^32) the same in the lanes */
  const int32_t pairs = w->n / 2;
  int32_t rows = w->rows, k;
  uint32_t x, x02;
  if (rows <= 0) return;
#define DW_WIDEN_ROWS(first, last)                                                                                   \
  __asm__ volatile( /* its outputs are scratch: the stores are its effect */                                    \
      "0:\n\t"                                                                                                  \
      "movs %[k], %[pairs]\n\t" first                                                                           \
      "1:\n\t" /* the second pixel first: the first's STRD then steps `at` on */                                \
      "ldr %[x], [%[in], %[depth]]\n\t"                                                                         \
      "sxtab16 %[x02], %[off], %[x]\n\t"                                                                        \
      "sxtab16 %[x], %[off], %[x], ror #8\n\t"                                                                  \
      "strd %[x02], %[x], [%[at], #64]\n\t"                                                                     \
      "ldr %[x], [%[in]]\n\t"                                                                                   \
      "add %[in], %[in], %[depth], lsl #1\n\t"                                                                  \
      "sxtab16 %[x02], %[off], %[x]\n\t"                                                                        \
      "sxtab16 %[x], %[off], %[x], ror #8\n\t"                                                                  \
      "strd %[x02], %[x], [%[at]], #128\n\t"                                                                    \
      "subs %[k], %[k], #1\n\t"                                                                                 \
      "bne 1b\n"                                                                                                 \
      "2:\n\t" last                                                                                             \
      "add %[in], %[in], %[in_skip]\n\t"                                                                        \
      "add %[at], %[at], %[at_skip]\n\t"                                                                        \
      "subs %[rows], %[rows], #1\n\t"                                                                           \
      "bne 0b"                                                                                                    \
      : [x] "=&r"(x), [x02] "=&r"(x02), [k] "=&r"(k), [in] "+&r"(in), [at] "+&r"(at), [rows] "+&r"(rows)       \
      : [pairs] "r"(pairs), [depth] "r"(w->depth), [off] "r"(w->offset), [in_skip] "r"(in_skip),               \
        [at_skip] "r"(at_skip)                                                                                   \
      : "cc", "memory")
  if (w->n % 2 == 0) {
    DW_WIDEN_ROWS("", ""); /* at least a pair a row */
  } else { /* each row's last pixel */
    DW_WIDEN_ROWS("beq 2f\n\t", /* no pair (n = 1) */
                  "ldr %[x], [%[in]]\n\t"
                  "add %[in], %[in], %[depth]\n\t"
                  "sxtab16 %[x02], %[off], %[x]\n\t"
                  "sxtab16 %[x], %[off], %[x], ror #8\n\t"
                  "strd %[x02], %[x], [%[at]], #64\n\t");
  }
#undef DW_WIDEN_ROWS
#else
  const int8_t* in = image + w->in_at;
  uint32_t(*at)[2] = w->at;
  int32_t r, k;
  for (r = 0; r < w->rows; ++r, in += w->row_bytes, at += 1) {
    for (k = 0; k < w->n; ++k) {
      const uint32_t x = microaot_dsp_load4(in + (size_t)k * w->depth);
      at[8 * k][0] = microaot_dsp_sxtab16(w->offset, x);
      at[8 * k][1] = microaot_dsp_sxtab16_ror8(w->offset, x);
    }
  }
#endif
}

/* One window over the patch (microaot_dsp_mac4_widened_3x3) and its output step for the clamp [-128, 127] (SSAT,
 * byte stores), in one statement where MICROAOT_DSP_ASM: apart, the compiler kept the loop's pointers and the
 * sums around the two statements on the stack (the stride-2 rows, an odd last row at stride 1). */
static inline void dw_patch_window_store8x4(const uint32_t* in, const dw_group* g, int8_t* out) {
#if MICROAOT_DSP_ASM
  uint32_t x02, x13, w02, w13;
  int32_t s0, s1, s2, s3;
  __asm__ volatile( /* its outputs are scratch: the stores are its effect */
      "ldrd %[s0], %[s1], [%[g]]\n\t"
      "ldrd %[s2], %[s3], [%[g], #8]\n\t"
/* input (row r, column c) at 64c + 8r, its weights at 16 + 24r + 8c */
#define DW_TAP(in_at, w_at)                      \
  "ldrd %[w02], %[w13], [%[g], #" w_at "]\n\t"  \
  "ldrd %[x02], %[x13], [%[in], #" in_at "]\n\t" \
  "smlabb %[s0], %[x02], %[w02], %[s0]\n\t"      \
  "smlatt %[s2], %[x02], %[w02], %[s2]\n\t"      \
  "smlabb %[s1], %[x13], %[w13], %[s1]\n\t"      \
  "smlatt %[s3], %[x13], %[w13], %[s3]\n\t"
      DW_TAP("0", "16") DW_TAP("8", "40") DW_TAP("16", "64") DW_TAP("64", "24") DW_TAP("72", "48")
      DW_TAP("80", "72") DW_TAP("128", "32") DW_TAP("136", "56") DW_TAP("144", "80")
#undef DW_TAP
/* channel y's step, its multiplier, rounding and exponent at g + offset (dw_group's output_step) */
#define DW_STEP(y, offset, next)                   \
  "ldrd %[x02], %[x13], [%[g], #" offset "]\n\t"  \
  "ldr %[w02], [%[g], #" next "]\n\t"             \
  "add %[x13], %[x13], %[" y "], asr #31\n\t"     \
  "smmlar %[" y "], %[" y "], %[x02], %[x13]\n\t" \
  "asr %[" y "], %[" y "], %[w02]\n\t"            \
  "ssat %[" y "], #8, %[" y "]\n\t"
      DW_STEP("s0", "88", "96") DW_STEP("s1", "100", "108") DW_STEP("s2", "112", "120") DW_STEP("s3", "124", "132")
#undef DW_STEP
      "strb %[s0], [%[out]]\n\t"
      "strb %[s1], [%[out], #1]\n\t"
      "strb %[s2], [%[out], #2]\n\t"
      "strb %[s3], [%[out], #3]"
      : [x02] "=&r"(x02), [x13] "=&r"(x13), [w02] "=&r"(w02), [w13] "=&r"(w13), [s0] "=&r"(s0), [s1] "=&r"(s1),
        [s2] "=&r"(s2), [s3] "=&r"(s3)
      : [in] "r"(in), [g] "r"(g), [out] "r"(out)
      : "memory");
#else
  int32_t s[4];
  microaot_dsp_mac4_widened_3x3(in, g->bias_weights, s);
  microaot_dsp_output_step_store8x4(g->output_step, s, out);
#endif
}

/* One output row from the patch row `r` on, window by window. */
static void dw_patch_row(const dw_params* p, const dw_group* g, const uint32_t (*lanes)[8][2], int32_t r,
                         int8_t* out) {
  const size_t depth = (size_t)p->output_depth, step = (size_t)p->stride_width;
  int32_t ox, s[4];
  if (g->full_range) {
    const uint32_t* in = lanes[0][r];
    const uint32_t* const end = in + 16 * step * (size_t)p->output_width;
    for (; in != end; in += 16 * step, out += depth) dw_patch_window_store8x4(in, g, out);
    return;
  }
  for (ox = 0; ox < p->output_width; ++ox, out += depth) {
    microaot_dsp_mac4_widened_3x3(lanes[(size_t)ox * step][r], g->bias_weights, s);
    dw_store4(g, s, out);
  }
}

/* A pair of output rows two input rows apart (stride 2), `n` columns from the windows at `in` on (32 words apart),
 * as dw_pixel_pairs at stride 1. */
static void dw_patch_pairs_s2(const dw_group* g, const uint32_t* in, int32_t n, size_t depth, int8_t* out,
                              size_t lower) {
  const uint32_t* const end = in + 32 * (size_t)n;
#if MICROAOT_DSP_ASM
  const microaot_dsp_pairs_job job = {in, g, out, lower, depth, end, 128};
  if (n > 0) microaot_dsp_pair_row_s2(&job);
#else
  int32_t a[4], b[4];
  for (; in != end; in += 32, out += depth) {
    microaot_dsp_mac4_widened_3x3_x2s2(in, g->bias_weights, a, b);
    microaot_dsp_output_steps4x2(g->output_step, a, b);
    dw_store4x2_tested(g, a, b, out, lower);
  }
#endif
}

/* The span's output rows of the group from the patch: in vertical pairs (at stride 1 the lower window one row
 * down shares the loads, at stride 2 the weights and one row), an odd last row (or any other stride) alone. */
static __attribute__((noinline)) void dw_patch_rows(const dw_params* p, const dw_group* g, const dw_patch_span* s,
                                                    const uint32_t (*lanes)[8][2], int8_t* out, size_t row_stride) {
  int32_t k = 0;
  if (p->stride_height == 1) {
    for (; k + 1 < s->rows; k += 2, out += 2 * row_stride) {
      dw_pixel_pairs(g, lanes[0][k], p->output_width, 16 * (size_t)p->stride_width, (size_t)p->output_depth, out,
                     row_stride);
    }
  } else if (p->stride_height == 2 && p->stride_width == 2) {
    for (; k + 1 < s->rows; k += 2, out += 2 * row_stride) {
      dw_patch_pairs_s2(g, lanes[0][2 * k], p->output_width, (size_t)p->output_depth, out, row_stride);
    }
  }
  for (; k < s->rows; ++k, out += row_stride) dw_patch_row(p, g, lanes, k * p->stride_height, out);
}

static inline __attribute__((always_inline)) void dw_rows_patched_from(const dw_params* p, const int8_t* input,
                                                                       const int8_t* filter, const dw_channels* ch,
                                                                       int compact, const int32_t* words,
                                                                       const dw_group* pre,
                                                                       int8_t* output,
                                                                       size_t row_stride, int32_t row_begin,
                                                                       int32_t row_end, int32_t groups_end) {
  const size_t image_size = (size_t)p->input_height * (size_t)p->input_width * (size_t)p->input_depth;
  uint32_t lanes[MICROAOT_DEPTHWISE_RING_COLUMNS][8][2];
  int32_t row = row_begin, c;
  dw_group own;
  if (compact) microaot_dsp_depthwise_group_clamp(p, &own); /* once: every group's */
  while (row < row_end) {
    const int32_t oy = row % p->output_height;
    const int32_t rows = row_end - row < p->output_height - oy ? row_end - row : p->output_height - oy;
    const dw_patch_span s = dw_patch_span_of(p, oy, rows);
    const int8_t* image = input + (size_t)(row / p->output_height) * image_size;
    const dw_patch_widening w = dw_patch_widening_of(p, &s, lanes);
    dw_patch_zero_padding(&s, lanes);
    for (c = 0; c < groups_end; c += 4) {
      const dw_group* g = dw_group_get_any(compact, words, pre, p, filter, ch, c, &own);
      dw_patch_widen(&w, image + c);
      dw_patch_rows(p, g, &s, (const uint32_t(*)[8][2])lanes, output + c, row_stride);
    }
    row += rows;
    output += (size_t)rows * row_stride;
  }
}

#endif /* MICROAOT_DSP_DEPTHWISE_PATCH_H */
