/* The DSP int8 DEPTHWISE_CONV_2D's small-map patch (microaot/internal/dsp_depthwise.h): on a map whose padded
 * input fits one ring's lanes (microaot_fit_depthwise_patched: VWW's 6x6 and 3x3 maps), each channel group's
 * inputs are widened once into it and every window, at an edge or not, runs unrolled over the nine taps (a
 * padding tap reads a zero, which adds 0, as the reference's skipped tap). On a 3x3 map five windows of nine
 * are clipped and the ring re-widens five padded rows per group; here nine pixels are widened and no window
 * clipped. Linked through dsp/depthwise_conv_2d_s8_setup.c by both DSP depthwise kernels. */
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

/* Two pixels `depth` bytes apart from `in` widened (plus the offset) into `at` and one column (8 slots) on: in
 * one statement where MICROAOT_DSP_ASM (left to the compiler, four STR instead of two STRD). */
static inline void dw_patch_widen2(const int8_t* in, size_t depth, uint32_t offset, uint32_t (*at)[2]) {
#if MICROAOT_DSP_ASM
  uint32_t x, y, x02, y02;
  __asm__("ldr %[x], [%[in]]\n\t"
          "ldr %[y], [%[in], %[depth]]\n\t"
          "sxtab16 %[x02], %[off], %[x]\n\t"
          "sxtab16 %[x], %[off], %[x], ror #8\n\t"
          "sxtab16 %[y02], %[off], %[y]\n\t"
          "sxtab16 %[y], %[off], %[y], ror #8\n\t"
          "strd %[x02], %[x], [%[at]]\n\t"
          "strd %[y02], %[y], [%[at], #64]"
          : [x] "=&r"(x), [y] "=&r"(y), [x02] "=&r"(x02), [y02] "=&r"(y02), "=m"(*(uint32_t(*)[18])at)
          : [in] "r"(in), [depth] "r"(depth), [off] "r"(offset), [at] "r"(at), "m"(*(const int8_t(*)[depth + 4])in));
#else
  const uint32_t x = microaot_dsp_load4(in), y = microaot_dsp_load4(in + depth);
  at[0][0] = microaot_dsp_sxtab16(offset, x);
  at[0][1] = microaot_dsp_sxtab16_ror8(offset, x);
  at[8][0] = microaot_dsp_sxtab16(offset, y);
  at[8][1] = microaot_dsp_sxtab16_ror8(offset, y);
#endif
}

/* The group's in-image inputs (`image` at its channel) plus the offset into the patch, lanes[column][row]: the
 * same cells for every group, so the padding cells stay as zeroed once. */
static __attribute__((noinline)) void dw_patch_widen(const dw_params* p, const dw_patch_span* s, const int8_t* image,
                                                     uint32_t (*lanes)[8][2]) {
  const size_t depth = (size_t)p->input_depth, row_bytes = (size_t)p->input_width * depth;
  const uint32_t offset = microaot_dsp_pack16(p->input_offset, p->input_offset);
  const int32_t n = s->col_end - s->col_begin;
  const int8_t* in_row;
  uint32_t(*at_row)[2];
  int32_t r;
  if (n <= 0 || s->row_end <= s->row_begin) return; /* nothing in the image: no address left of or above it */
  /* each row's pointers stepped on, not recomputed (6 pixels a row on VWW's 6x6 maps) */
  in_row = image + (size_t)(s->top + s->row_begin) * row_bytes + (size_t)(s->left + s->col_begin) * depth;
  at_row = &lanes[s->col_begin][s->row_begin];
  for (r = s->row_begin; r < s->row_end; ++r, in_row += row_bytes, ++at_row) {
    const int8_t* in = in_row;
    uint32_t(*at)[2] = at_row;
    uint32_t(*const end2)[2] = at + 8 * (n & ~1);
    for (; at != end2; in += 2 * depth, at += 16) dw_patch_widen2(in, depth, offset, at);
    if (n & 1) {
      const uint32_t x = microaot_dsp_load4(in);
      at[0][0] = microaot_dsp_sxtab16(offset, x);
      at[0][1] = microaot_dsp_sxtab16_ror8(offset, x);
    }
  }
}

/* One output row from the patch row `r` on, window by window. */
static void dw_patch_row(const dw_params* p, const dw_group* g, const uint32_t (*lanes)[8][2], int32_t r,
                         int8_t* out) {
  const size_t depth = (size_t)p->output_depth, step = (size_t)p->stride_width;
  int32_t ox, s[4];
  for (ox = 0; ox < p->output_width; ++ox, out += depth) {
    microaot_dsp_mac4_widened_3x3(lanes[(size_t)ox * step][r], g->bias_weights, s);
    dw_store4_tested(g, s, out);
  }
}

/* The span's output rows of the group from the patch: at stride 1 in vertical pairs (the lower window one
 * row down shares the loads), an odd last row (or every row at stride 2) alone. */
static __attribute__((noinline)) void dw_patch_rows(const dw_params* p, const dw_group* g, const dw_patch_span* s,
                                                    const uint32_t (*lanes)[8][2], int8_t* out, size_t row_stride) {
  int32_t k = 0;
  if (p->stride_height == 1) {
    for (; k + 1 < s->rows; k += 2, out += 2 * row_stride) {
      dw_pixel_pairs(g, lanes[0][k], p->output_width, 16 * (size_t)p->stride_width, (size_t)p->output_depth, out,
                     row_stride);
    }
  }
  for (; k < s->rows; ++k, out += row_stride) dw_patch_row(p, g, lanes, k * p->stride_height, out);
}

static inline __attribute__((always_inline)) void dw_rows_patched_from(const dw_params* p, const int8_t* input,
                                                                       const int8_t* filter, const dw_channels* ch,
                                                                       const dw_group* pre, int8_t* output,
                                                                       size_t row_stride, int32_t row_begin,
                                                                       int32_t row_end, int32_t groups_end) {
  const size_t image_size = (size_t)p->input_height * (size_t)p->input_width * (size_t)p->input_depth;
  uint32_t lanes[MICROAOT_DEPTHWISE_RING_COLUMNS][8][2];
  int32_t row = row_begin, c;
  dw_group own;
  while (row < row_end) {
    const int32_t oy = row % p->output_height;
    const int32_t rows = row_end - row < p->output_height - oy ? row_end - row : p->output_height - oy;
    const dw_patch_span s = dw_patch_span_of(p, oy, rows);
    const int8_t* image = input + (size_t)(row / p->output_height) * image_size;
    memset(lanes, 0, (size_t)s.cols * sizeof lanes[0]);
    for (c = 0; c < groups_end; c += 4) {
      const dw_group* g = dw_group_get(pre, p, filter, ch, c, &own);
      dw_patch_widen(p, &s, image + c, lanes);
      dw_patch_rows(p, g, &s, (const uint32_t(*)[8][2])lanes, output + c, row_stride);
    }
    row += rows;
    output += (size_t)rows * row_stride;
  }
}

void microaot_dsp_depthwise_rows_patched(const dw_params* p, const int8_t* input, const int8_t* filter,
                                         const dw_channels* ch, int8_t* output, size_t row_stride, int32_t row_begin,
                                         int32_t row_end, int32_t groups_end) {
  dw_rows_patched_from(p, input, filter, ch, NULL, output, row_stride, row_begin, row_end, groups_end);
}

void microaot_dsp_depthwise_rows_patched_pre(const dw_params* p, const int8_t* input, const dw_group* groups,
                                             int8_t* output, size_t row_stride, int32_t row_begin, int32_t row_end,
                                             int32_t groups_end) {
  dw_rows_patched_from(p, input, NULL, NULL, groups, output, row_stride, row_begin, row_end, groups_end);
}
