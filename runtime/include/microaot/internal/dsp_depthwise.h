/* The DSP int8 DEPTHWISE_CONV_2D's shared part, for dsp/depthwise_conv_2d_s8.c (every path) and
 * dsp/depthwise_conv_2d_s8_ring.c (the widened ring alone: 3x3, stride 1, depth multiplier 1, so that a model
 * whose layers all take the ring links only it): a channel group's constants, small inline tests, and the
 * out-of-line functions both link (the fast path's bounds, a group's constants and the ring's loop over
 * groups and tiles in dsp/depthwise_conv_2d_s8_setup.c, the ring's rows in dsp/depthwise_conv_2d_s8_ring_rows.c,
 * the portable fallback in dsp/depthwise_conv_2d_s8_portable.c). */
#ifndef MICROAOT_DSP_DEPTHWISE_H
#define MICROAOT_DSP_DEPTHWISE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "microaot/internal/depthwise_group_words.h"
#include "microaot/internal/dsp_depthwise_blocks.h"
#include "microaot/internal/dsp_depthwise_pairs.h"
#include "microaot/internal/dsp_dot.h"
#include "microaot/fit/depthwise_conv_2d.h"
#include "microaot/kernels/conv.h"

typedef microaot_depthwise_conv_2d_params_q dw_params;

/* A layer's per-channel constants as the shared code reads them (microaot/fit/depthwise_conv_2d.h): from the
 * params' arrays in the full kernel (dw_channels_of), from their own argument in the ring's kernels. */
typedef microaot_depthwise_channels dw_channels;

static inline dw_channels dw_channels_of(const dw_params* p, const int32_t* bias) {
  dw_channels ch;
  ch.bias = bias;
  ch.multiplier = p->output_multiplier;
  ch.shift = p->output_shift;
  return ch;
}

/* The portable kernels under their own names (dsp/depthwise_conv_2d_s8_portable.c, one copy for both DSP
 * kernels), for the layers the DSP code does not take. */
void microaot_depthwise_conv_2d_s8_portable(const dw_params* params, const int8_t* input, const int8_t* filter,
                                            const int32_t* bias, int8_t* output);
void microaot_depthwise_conv_2d_s8_overlap_portable(const dw_params* params, const int8_t* input,
                                                    const int8_t* filter, const int32_t* bias, int8_t* output,
                                                    void* scratch);

/* The runtime's guard of both DSP kernels: microaot_fit_depthwise_dsp (microaot/fit/depthwise_conv_2d.h), the
 * bounds the compiler proves before it calls the ring's own kernel. */
int microaot_dsp_depthwise_fits(const dw_params* p, const dw_channels* ch);

/* The output step of four channels: with y = 2 * sum (the kernel accumulates doubled sums), (y * m + 2^31) >> 32
 * is TFLM's rounding doubling high multiply of sum and m; SMMLAR's accumulator adds `rounding` = 2^(e-1) +
 * output offset * 2^e, less one for a negative sum, so that >> e gives the rounding right shift (ties away from
 * zero) plus the output offset. */
typedef struct {
  /* words 0-3 the four channels' bias, doubled as the sums; for 3x3 filters words 4-21 each tap's four weights
   * widened (lanes 0, 2 and 1, 3) and doubled, so that the sums come out doubled as the output step takes
   * them (|2w| <= 256 fits a lane): side by side for microaot_dsp_mac4_widened_3x3_x2 */
  int32_t bias_weights[4 + 9 * 2];
  int32_t output_step[4][3]; /* per channel multiplier, rounding, exponent, side by side (one LDRD, one LDR) */
  uint32_t activation_min4, activation_max4; /* the clamp's bounds in each byte */
  int32_t full_range;                         /* the clamp is [-128, 127]: the SSAT alone */
} dw_group;

/* Group c's constants (channels c to c + 3): bias, widened weights of a 3x3 filter, output steps, clamp; `taps`
 * at the group's first weight, tap k's four weights at taps + k * tap_stride (the layer's filter, or a block of
 * decoded weights: dsp/depthwise_conv_2d_s8_widened_palette.c). */
void microaot_dsp_depthwise_group_at(const dw_params* p, const int8_t* taps, size_t tap_stride,
                                     const dw_channels* ch, int32_t c, dw_group* g);

/* The same from the layer's filter (its OHWI order: a tap's channels side by side). */
static inline void microaot_dsp_depthwise_group_of(const dw_params* p, const int8_t* filter, const dw_channels* ch,
                                                   int32_t c, dw_group* g) {
  microaot_dsp_depthwise_group_at(p, filter + c, (size_t)p->output_depth, ch, c, g);
}

/* The words the compiler writes for depthwise_conv_2d_s8_w16 (microaot/internal/depthwise_group_words.h) are a
 * dw_group's, field for field. */
typedef char dw_group_is_its_words[sizeof(dw_group) == 4 * MICROAOT_DW_GROUP_WORDS &&
                                           offsetof(dw_group, output_step) == 4 * MICROAOT_DW_GROUP_STEP &&
                                           offsetof(dw_group, output_step) == 88 /* the naked pair loops */ &&
                                           offsetof(dw_group, activation_min4) == 4 * MICROAOT_DW_GROUP_CLAMP &&
                                           offsetof(dw_group, full_range) == 4 * MICROAOT_DW_GROUP_FULL_RANGE
                                       ? 1
                                       : -1];

/* Group c's constants but the clamp from its compact words (microaot/internal/depthwise_group_words.h: `words` at
 * the layer's first group), which the compiler checked within the bounds (no run-time test):
 * depthwise_conv_2d_s8_w8's. The clamp is the same for every group: microaot_dsp_depthwise_group_clamp sets it
 * once a call in the group the loop reuses. Both in dsp/depthwise_conv_2d_s8_compact.c. */
void microaot_dsp_depthwise_group_compact(const dw_params* p, const int32_t* words, int32_t c, dw_group* g);
void microaot_dsp_depthwise_group_clamp(const dw_params* p, dw_group* g);

/* Group c's constants: the precomputed ones (`pre` not NULL: depthwise_conv_2d_s8_w16's), or computed into `own`.
 * The loops over groups inline it twice, `pre` NULL in one copy and not in the other, so that neither tests it. */
static inline __attribute__((always_inline)) const dw_group* dw_group_get(const dw_group* pre, const dw_params* p,
                                                                          const int8_t* filter, const dw_channels* ch,
                                                                          int32_t c, dw_group* own) {
  if (pre != NULL) return pre + (uint32_t)c / 4u;
  microaot_dsp_depthwise_group_of(p, filter, ch, c, own);
  return own;
}

/* The same with a third source, the compact words (`compact` true: `words`, depthwise_conv_2d_s8_w8's), built
 * into `own`, whose clamp the loop set before its first group (microaot_dsp_depthwise_group_clamp). `compact` is a
 * constant where a loop inlines it, so that the loop tests no source. */
static inline __attribute__((always_inline)) const dw_group* dw_group_get_any(int compact, const int32_t* words,
                                                                              const dw_group* pre, const dw_params* p,
                                                                              const int8_t* filter,
                                                                              const dw_channels* ch, int32_t c,
                                                                              dw_group* own) {
  if (!compact) return dw_group_get(pre, p, filter, ch, c, own);
  microaot_dsp_depthwise_group_compact(p, words, c, own);
  return own;
}

/* Four channels from their doubled sums (bias included), clamped by SIMD (for [-128, 127] as well: one copy
 * of the code where dw_store4_tested inlines two). */
static inline void dw_store4(const dw_group* g, const int32_t s[4], int8_t* out) {
  microaot_dsp_output_step_store8x4_clamped(g->output_step, s, out, g->activation_min4, g->activation_max4);
}

/* The same in the hot loops: the clamp [-128, 127] is the steps' SSAT alone (byte stores). */
static inline void dw_store4_tested(const dw_group* g, const int32_t s[4], int8_t* out) {
  if (g->full_range) {
    microaot_dsp_output_step_store8x4(g->output_step, s, out);
  } else {
    dw_store4(g, s, out);
  }
}

/* A pair of rows' outputs, a at `out` and b (the lower row) `lower` bytes further. The clamp [-128, 127] is the
 * steps' SSAT, a narrower one a SIMD clamp: a test per pair instead of a second copy of the loop. The lower row
 * goes first: with `lower` 0 (an odd last row) the upper row's store overwrites it, so one loop serves both. */
static inline void dw_store4x2_tested(const dw_group* g, const int32_t a[4], const int32_t b[4], int8_t* out,
                                      size_t lower) {
  if (g->full_range) {
    microaot_dsp_store4(b, out + lower);
    microaot_dsp_store4(a, out);
  } else {
    microaot_dsp_clamp_store4(b, out + lower, g->activation_min4, g->activation_max4);
    microaot_dsp_clamp_store4(a, out, g->activation_min4, g->activation_max4);
  }
}

/* `n` output columns of a pair of rows from the windows at `in` on (`step` words apart: 16 in the ring, 16 times
 * the stride in the patch), `depth` bytes apart from `out`: in assembly where MICROAOT_DSP_ASM. */
static inline void dw_pixel_pairs(const dw_group* g, const uint32_t* in, int32_t n, size_t step, size_t depth,
                                  int8_t* out, size_t lower) {
  const uint32_t* const end = in + step * (size_t)n;
#if MICROAOT_DSP_ASM
  const microaot_dsp_pairs_job job = {in, g, out, lower, depth, end, 4 * step};
  if (n > 0) microaot_dsp_pair_row_s1(&job);
#else
  int32_t a[4], b[4];
  for (; in != end; in += step, out += depth) {
    microaot_dsp_mac4_widened_3x3_x2(in, g->bias_weights, a, b);
    microaot_dsp_output_steps4x2(g->output_step, a, b);
    dw_store4x2_tested(g, a, b, out, lower);
  }
#endif
}

/* Channels [c, c + n) of every pixel of a row, from the scratch row to the output row (both at channel c). */
static inline void dw_copy_channels(const dw_params* p, const int8_t* from, int8_t* to, size_t n) {
  const size_t depth = (size_t)p->output_depth;
  const int8_t* const end = from + (size_t)p->output_width * depth;
  if (n == 4) { /* a word per pixel, no call; two pixels a pass (a pass's step and test for both) */
    if ((size_t)(end - from) / depth % 2 != 0) {
      memcpy(to, from, 4);
      from += depth, to += depth;
    }
    for (; from != end; from += 2 * depth, to += 2 * depth) {
      memcpy(to, from, 4);
      memcpy(to + depth, from + depth, 4);
    }
    return;
  }
  for (; from != end; from += depth, to += depth) memcpy(to, from, n);
}

/* Output rows [row_begin, row_end) (counted over all batches) of group `g` of a 3x3 filter without dilation
 * (microaot_fit_depthwise_widened), windows inside the image unrolled, edge windows by their in-image taps:
 * `input`, `output` and `scratch` at the group's channel; with `scratch` (a row) each row built there first, then
 * copied to its place (the overlap variants). dsp/depthwise_conv_2d_s8_rows_3x3.c. */
void microaot_dsp_depthwise_group_rows_3x3(const dw_params* p, const dw_group* g, const int8_t* input,
                                           int8_t* output, size_t row_stride, int32_t row_begin, int32_t row_end,
                                           int8_t* scratch);

/* Whether an overlapping output lies a whole number of pixels from the input: then every output byte
 * overwrites an input byte of its own channel (depth multiplier 1) and channel groups may go outermost. */
static inline int dw_whole_pixels_apart(const int8_t* input, const int8_t* output, int32_t depth) {
  const uintptr_t in_at = (uintptr_t)input, out_at = (uintptr_t)output;
  return (in_at > out_at ? in_at - out_at : out_at - in_at) % (uintptr_t)depth == 0;
}

/* The widened ring (3x3, no dilation, depth multiplier 1, stride 1): each input row a group's windows read is
 * widened once, its four channels plus the input offset as two words of 16-bit lanes (as the unrolled taps
 * widen them), into slot (row mod 4) of each of its columns and again into slot + 4. Output rows go in
 * pairs: the pair whose top window starts at input row t reads slots t mod 4 to t mod 4 + 3 in their own
 * row order, the lower window one slot down (microaot_dsp_mac4_widened_3x3_x2). A padding row or column holds
 * zero, which is what the raw zero point widens to, so every window, at an edge or not, takes the same nine
 * taps (the reference skips padding taps: each would add 0). The ring holds input columns [origin, origin +
 * cols) of a tile of output columns. */
typedef struct {
  uint32_t lanes[MICROAOT_DEPTHWISE_RING_COLUMNS][8][2]; /* slot 7 (slot 3 again) is never read: a store instead of a test */
  int32_t origin, cols;
  int32_t inside_begin, inside_end; /* the ring's columns inside the image: the others stay zero */
  int32_t first_row;                /* the image's first window's top row: slot 0 */
  size_t depth, row_bytes;          /* bytes from one input pixel (row) to the next */
  uint32_t offset;                  /* the input offset in both 16-bit lanes */
} dw_ring;

/* Output columns [ox_begin, ox_end) of rows [row_begin, row_end) (counted over all batches) of group `g`
 * through `ring`, image by image: `input` and `output` at the group's channel
 * (dsp/depthwise_conv_2d_s8_ring_rows.c). */
void microaot_dsp_depthwise_tile_ringed(const dw_params* p, const dw_group* g, const int8_t* input, int8_t* output,
                                        size_t row_stride, int32_t row_begin, int32_t row_end, int32_t ox_begin,
                                        int32_t ox_end, dw_ring* ring);

/* Every output column of rows [row_begin, row_end) of group `g` through `ring`, tile by tile: `input` and
 * `output` at the group's channel (dsp/depthwise_conv_2d_s8_setup.c). Set ring->cols to 0 before the first. */
void microaot_dsp_depthwise_group_ringed(const dw_params* p, const dw_group* g, const int8_t* input, int8_t* output,
                                         size_t row_stride, int32_t row_begin, int32_t row_end, dw_ring* ring);

/* Rows [row_begin, row_end) (counted over all batches) of the channel groups [0, groups_end) through the
 * ring, into `output` (row i at output + i * row_stride), group by group and tile by tile:
 * dsp/depthwise_conv_2d_s8_setup.c, which both DSP depthwise kernels link. */
void microaot_dsp_depthwise_rows_ringed(const dw_params* p, const int8_t* input, const int8_t* filter,
                                        const dw_channels* ch, int8_t* output, size_t row_stride, int32_t row_begin,
                                        int32_t row_end, int32_t groups_end);
/* The same with the groups' constants precomputed (`groups`: one dw_group per group, depthwise_conv_2d_s8_w16). */
void microaot_dsp_depthwise_rows_ringed_pre(const dw_params* p, const int8_t* input, const dw_group* groups,
                                            int8_t* output, size_t row_stride, int32_t row_begin, int32_t row_end,
                                            int32_t groups_end);
/* The same from the groups' compact words (depthwise_conv_2d_s8_w8's: dsp/depthwise_conv_2d_s8_compact.c, which the
 * compact kernels alone link, so that the other kernels' code is as it was). */
void microaot_dsp_depthwise_rows_ringed_compact(const dw_params* p, const int8_t* input, const int32_t* words,
                                                int8_t* output, size_t row_stride, int32_t row_begin,
                                                int32_t row_end, int32_t groups_end);

/* The small-map patch (microaot_fit_depthwise_patched): per image and channel group, the whole padded input
 * its windows read widened once into one ring's lanes (column-major, 8 rows a column, padding zero as in the
 * ring), then every window unrolled over it, at any stride, in vertical pairs at stride 1: no window clipped,
 * no slot rotation, no widened row stored twice. For rows [row_begin, row_end) of the channel groups [0,
 * groups_end), as microaot_dsp_depthwise_rows_ringed: dsp/depthwise_conv_2d_s8_patch.c, which the full kernel
 * alone links (the compiler gives these layers to it, not to the ring's own kernel). */
void microaot_dsp_depthwise_rows_patched(const dw_params* p, const int8_t* input, const int8_t* filter,
                                         const dw_channels* ch, int8_t* output, size_t row_stride, int32_t row_begin,
                                         int32_t row_end, int32_t groups_end);
/* The same with the groups' constants precomputed (as microaot_dsp_depthwise_rows_ringed_pre). */
void microaot_dsp_depthwise_rows_patched_pre(const dw_params* p, const int8_t* input, const dw_group* groups,
                                             int8_t* output, size_t row_stride, int32_t row_begin, int32_t row_end,
                                             int32_t groups_end);
/* The same from the groups' compact words: dsp/depthwise_conv_2d_s8_patch_w8.c, the same rows
 * (microaot/internal/templates/dsp_depthwise_patch.h) in a file of their own, as for the ring. */
void microaot_dsp_depthwise_rows_patched_compact(const dw_params* p, const int8_t* input, const int32_t* words,
                                                 int8_t* output, size_t row_stride, int32_t row_begin,
                                                 int32_t row_end, int32_t groups_end);

#endif  /* MICROAOT_DSP_DEPTHWISE_H */
