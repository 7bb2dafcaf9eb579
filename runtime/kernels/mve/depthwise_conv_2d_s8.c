/* int8 DEPTHWISE_CONV_2D with Helium (MVE), bit-exact with the portable kernel, any depth multiplier.
 * Eight channels per vector, the operands widened to int16 as they load (a depth multiplier other than 1: each
 * output channel's input channel by a gather load), the even and odd channels' products (VMULLB / VMULLT)
 * summed in int32, the last channels predicated.
 * Two pixels with the same taps at a time, each weight load shared: the pixels of two output rows whose
 * windows have the same rows of taps, or two interior pixels of a row left alone; the taps' loop in assembly.
 * Interior pixels (every tap inside the image) take no input offset per tap: it is folded once per call into
 * each channel's bias (bias + input_offset * sum of the channel's taps, mod 2^32 as the reference's int32
 * sums); the others add it to each of their in-image taps (the reference's skipped taps skipped).
 * The sums never leave the registers for the output step, which stores by byte scatter
 * (microaot/internal/mve_lanes.h). More channels than the stack's folded biases and shifts outside VRSHL's
 * range take the portable code; so does a build without MVE. */
#include <stddef.h>
#include <string.h>

#include "microaot/internal/mve_depthwise_planar.h"
#include "microaot/internal/mve_dot.h"
#include "microaot/internal/mve_lanes.h"
#include "microaot/internal/window.h"
#include "microaot/kernels/conv.h"

#if MICROAOT_MVE
#define MICROAOT_CONV_LINKAGE static
#define MICROAOT_FN dw_portable
#define MICROAOT_FN_OVERLAP dw_overlap_portable
#else
#define MICROAOT_FN microaot_depthwise_conv_2d_s8
#define MICROAOT_FN_OVERLAP microaot_depthwise_conv_2d_s8_overlap
#endif
#define MICROAOT_DTYPE s8
#define MICROAOT_CONV depthwise_conv_2d
#include "microaot/internal/templates/conv.h"

#if MICROAOT_MVE
/* The channels whose folded biases the stack holds (plus one vector's overrun). */
#define MVE_DW_CHANNELS_MAX 1024
/* The overlap variant's output rows computed two at a time: up to this many bytes a row. */
#define MVE_DW_PAIR_ROW_MAX 1024

typedef microaot_depthwise_conv_2d_params_q dw_params;

static int mve_handles(const dw_params* p) {
  return p->depth_multiplier >= 1 && p->output_depth <= MVE_DW_CHANNELS_MAX &&
         microaot_mve_shifts_fit(p->output_shift, p->output_depth);
}

/* What every pixel of a call shares: the requantization, the folded biases (eight channels a block, even
 * lanes then odd), each output channel's input channel (depth multiplier other than 1), the interior columns. */
typedef struct {
  const dw_params* p;
  microaot_mve_lanes_stage stage;
  const int32_t* folded;
  const uint16_t* chan;
  int32_t x_begin, x_end; /* output columns whose taps are all inside the image's width */
} dw_call;

/* One pixel's taps from its first in-image one: the input and weight at channel 0, taps per row and rows, the
 * steps between them (bytes: in_row and w_row from past a row's last tap to the next row's first). */
typedef struct {
  const int8_t* in;
  const int8_t* w;
  int32_t rows, cols;
  size_t in_col, in_row, w_col, w_row;
} dw_taps;

static dw_taps taps_of(const dw_params* p, const int8_t* image, const int8_t* filter, const microaot_window* y,
                       const microaot_window* x) {
  const size_t depth = (size_t)p->input_depth, w_col = (size_t)p->output_depth;
  dw_taps t;
  t.rows = y->end > y->begin ? y->end - y->begin : 0;
  t.cols = x->end > x->begin ? x->end - x->begin : 0;
  t.in = image + (size_t)((y->origin + y->begin * p->dilation_height) * p->input_width + x->origin +
                          x->begin * p->dilation_width) * depth;
  t.w = filter + (size_t)(y->begin * p->filter_width + x->begin) * w_col;
  t.in_col = (size_t)p->dilation_width * depth;
  t.in_row = (size_t)p->dilation_height * (size_t)p->input_width * depth - (size_t)t.cols * t.in_col;
  t.w_col = w_col;
  t.w_row = (size_t)(p->filter_width - t.cols) * w_col;
  return t;
}

/* Eight input channels of the taps' input `in` for output channels c .. c + 7 (`chan`: their input channels,
 * for a depth multiplier other than 1), widened; `full` (a constant where inlined): unpredicated. */
static inline __attribute__((always_inline)) int16x8_t dw_load(const int8_t* in, uint16x8_t chan, int gather,
                                                               int full, mve_pred16_t p16) {
  if (gather) return full ? vldrbq_gather_offset_s16(in, chan) : vldrbq_gather_offset_z_s16(in, chan, p16);
  return full ? vldrbq_s16(in) : vldrbq_z_s16(in, p16);
}

/* folded[8 b .. 8 b + 7] for the block of channels c = 8 b ..: the even channels' biases plus input offset x the
 * sum of their taps, then the odd channels'. Once per call. */
static void dw_fold(const dw_params* p, const int8_t* filter, const int32_t* bias, int32_t* folded) {
  const int32_t depth = p->output_depth, taps = p->filter_height * p->filter_width;
  const uint32x4_t lanes = microaot_mve_even_lanes();
  int32_t c, t;
  for (c = 0; c < depth; c += 8) {
    const int32_t left = depth - c;
    const mve_pred16_t p16 = vctp16q((uint32_t)left);
    int32x4_t even = vdupq_n_s32(0), odd = vdupq_n_s32(0);
    for (t = 0; t < taps; ++t) {
      const int16x8_t w = vldrbq_z_s16(filter + (size_t)t * (size_t)depth + c, p16);
      even = vaddq_s32(even, vmovlbq_s16(w));
      odd = vaddq_s32(odd, vmovltq_s16(w));
    }
    even = vmulq_n_s32(even, p->input_offset);
    odd = vmulq_n_s32(odd, p->input_offset);
    if (bias != NULL) {
      even = vaddq_s32(even, vldrwq_gather_shifted_offset_z_s32(bias + c, lanes, vctp32q((uint32_t)(left + 1) / 2)));
      odd = vaddq_s32(odd, vldrwq_gather_shifted_offset_z_s32(bias + c + 1, lanes, vctp32q((uint32_t)left / 2)));
    }
    vst1q_s32(folded + c, even);
    vst1q_s32(folded + c + 4, odd);
  }
}

/* The taps of two pixels (the second's input `step` bytes after the first's) for eight whole channels, added to
 * the even and odd channels' sums of each. Assembly: GCC 12 spills the four accumulators of the intrinsics'
 * form inside the loop. Per tap: one weight load, two input loads, four VMULL and four VADD, two pointer steps
 * and the LE (15 instructions for 16 products); OFF adds the input offset to every input (two more), GATHER
 * reads each output channel's input channel (`chan`, a depth multiplier other than 1). The loop's steps are
 * read from `t` (dw_taps' layout: rows at 8, cols at 12, in_col, in_row, w_col, w_row from 16). */
#define DW_LOAD_CONTIGUOUS(base) "vldrb.s16 %q[x], [" base "]\n\t"
#define DW_LOAD_GATHER(base) "vldrb.s16 %q[x], [" base ", %q[chan]]\n\t"
#define DW_OFF "vadd.i16 %q[x], %q[x], %[off]\n\t"
#define DW_NO_OFF ""
#define DW_PAIR_ASM(LOAD, OFF)                                                                                   \
  "ldr r8, [%[t], #8]\n\t"                                                                                       \
  "ldrd r9, r11, [%[t], #16]\n\t"                                                                                \
  "ldrd r10, r12, [%[t], #24]\n"                                                                                 \
  "1:\n\t"                                                                                                       \
  "ldr lr, [%[t], #12]\n\t"                                                                                      \
  "dls lr, lr\n"                                                                                                 \
  "2:\n\t"                                                                                                       \
  "vldrb.s16 %q[b], [%[w]]\n\t" LOAD("%[in]") OFF                                                                \
  "vmullb.s16 %q[p], %q[x], %q[b]\n\t"                                                                           \
  "vadd.i32 %q[e0], %q[e0], %q[p]\n\t"                                                                           \
  "vmullt.s16 %q[p], %q[x], %q[b]\n\t"                                                                           \
  "vadd.i32 %q[o0], %q[o0], %q[p]\n\t"                                                                           \
  "add %[second], %[in], %[step]\n\t" LOAD("%[second]") OFF                                                      \
  "vmullb.s16 %q[p], %q[x], %q[b]\n\t"                                                                           \
  "vadd.i32 %q[e1], %q[e1], %q[p]\n\t"                                                                           \
  "vmullt.s16 %q[p], %q[x], %q[b]\n\t"                                                                           \
  "vadd.i32 %q[o1], %q[o1], %q[p]\n\t"                                                                           \
  "add %[in], %[in], r9\n\t"                                                                                     \
  "add %[w], %[w], r10\n\t"                                                                                      \
  "le lr, 2b\n\t"                                                                                                \
  "add %[in], %[in], r11\n\t"                                                                                    \
  "add %[w], %[w], r12\n\t"                                                                                      \
  "subs r8, r8, #1\n\t"                                                                                          \
  "bne 1b\n"
#define DW_PAIR_OUTPUTS                                                                                          \
  [in] "+l"(in), [w] "+l"(w), [second] "=&l"(second), [e0] "+w"(*e0), [o0] "+w"(*o0), [e1] "+w"(*e1),          \
      [o1] "+w"(*o1), [b] "=&w"(b), [x] "=&w"(x), [p] "=&w"(prod)
#define DW_PAIR_CLOBBERS "r8", "r9", "r10", "r11", "r12", "lr", "memory", "cc"

static inline __attribute__((always_inline)) void dw_pair_taps(const dw_taps* t, const int8_t* in, const int8_t* w,
                                                               size_t step, int32_t offset, int gather,
                                                               uint16x8_t chan, int32x4_t* e0, int32x4_t* o0,
                                                               int32x4_t* e1, int32x4_t* o1) {
  const int8_t* second;
  int16x8_t b, x;
  int32x4_t prod;
  if (t->rows <= 0 || t->cols <= 0) return;
  if (gather) {
    if (offset != 0) {
      __asm__ volatile(DW_PAIR_ASM(DW_LOAD_GATHER, DW_OFF)
                       : DW_PAIR_OUTPUTS
                       : [t] "r"(t), [step] "r"(step), [chan] "w"(chan), [off] "r"(offset)
                       : DW_PAIR_CLOBBERS);
    } else {
      __asm__ volatile(DW_PAIR_ASM(DW_LOAD_GATHER, DW_NO_OFF)
                       : DW_PAIR_OUTPUTS
                       : [t] "r"(t), [step] "r"(step), [chan] "w"(chan)
                       : DW_PAIR_CLOBBERS);
    }
  } else if (offset != 0) {
    __asm__ volatile(DW_PAIR_ASM(DW_LOAD_CONTIGUOUS, DW_OFF)
                     : DW_PAIR_OUTPUTS
                     : [t] "r"(t), [step] "r"(step), [off] "r"(offset)
                     : DW_PAIR_CLOBBERS);
  } else {
    __asm__ volatile(DW_PAIR_ASM(DW_LOAD_CONTIGUOUS, DW_NO_OFF)
                     : DW_PAIR_OUTPUTS
                     : [t] "r"(t), [step] "r"(step)
                     : DW_PAIR_CLOBBERS);
  }
}

/* Two pixels with the same taps (the second's input `step` bytes after the first's), channels c .. c + 7, then
 * the output step. `folded` (interior pixels): the sums start from the folded biases and take no offset per
 * tap; else from the bias, the offset added to every input. `gather`, `full`, `folded`: constants where
 * inlined. */
static inline __attribute__((always_inline)) void dw_pair_block(const dw_call* k, const microaot_mve_lanes_stage* s,
                                                                const dw_taps* t, size_t step, const int32_t* bias,
                                                                int32_t c, int gather, int full, int folded,
                                                                int8_t* out0, int8_t* out1) {
  const int32_t left = k->p->output_depth - c;
  const mve_pred16_t p16 = full ? 0 : vctp16q((uint32_t)left);
  const uint16x8_t chan = gather ? vldrhq_u16(k->chan + c) : vdupq_n_u16(0);
  const int16_t offset = (int16_t)k->p->input_offset;
  const int8_t* in = gather ? t->in : t->in + c;
  const int8_t* w = t->w + c;
  int32x4_t e0, o0, e1, o1;
  int32_t r, j;
  if (folded) {
    e0 = vld1q_s32(k->folded + c);
    o0 = vld1q_s32(k->folded + c + 4);
  } else if (bias != NULL) {
    const uint32x4_t lanes = microaot_mve_even_lanes();
    e0 = vldrwq_gather_shifted_offset_z_s32(bias + c, lanes, vctp32q((uint32_t)(left + 1) / 2));
    o0 = vldrwq_gather_shifted_offset_z_s32(bias + c + 1, lanes, vctp32q((uint32_t)left / 2));
  } else {
    e0 = o0 = vdupq_n_s32(0);
  }
  e1 = e0;
  o1 = o0;
  if (full) {
    dw_pair_taps(t, in, w, step, folded ? 0 : offset, gather, chan, &e0, &o0, &e1, &o1);
  } else {
    for (r = t->rows; r > 0; --r, in += t->in_row, w += t->w_row) {
      for (j = t->cols; j > 0; --j, in += t->in_col, w += t->w_col) {
        const int16x8_t b = full ? vldrbq_s16(w) : vldrbq_z_s16(w, p16);
        int16x8_t a = dw_load(in, chan, gather, full, p16);
        if (!folded) a = vaddq_n_s16(a, offset);
        e0 = vaddq_s32(e0, vmullbq_int_s16(a, b));
        o0 = vaddq_s32(o0, vmulltq_int_s16(a, b));
        a = dw_load(in + step, chan, gather, full, p16);
        if (!folded) a = vaddq_n_s16(a, offset);
        e1 = vaddq_s32(e1, vmullbq_int_s16(a, b));
        o1 = vaddq_s32(o1, vmulltq_int_s16(a, b));
      }
    }
  }
  microaot_mve_lanes_out8x2(s, e0, o0, e1, o1, c, left, full, out0 + c, out1 + c);
}

/* One pixel's in-image taps for channels c .. c + 7 with the input offset added per tap, the bias gathered. */
static inline __attribute__((always_inline)) void dw_single_block(const dw_call* k, const microaot_mve_lanes_stage* s,
                                                                  const dw_taps* t, const int32_t* bias, int32_t c,
                                                                  int gather, int full, int8_t* out) {
  const int32_t left = k->p->output_depth - c;
  const mve_pred16_t p16 = full ? 0 : vctp16q((uint32_t)left);
  const uint16x8_t chan = gather ? vldrhq_u16(k->chan + c) : vdupq_n_u16(0);
  const int16_t offset = (int16_t)k->p->input_offset;
  const int8_t* in = gather ? t->in : t->in + c;
  const int8_t* w = t->w + c;
  int32x4_t e = vdupq_n_s32(0), o = vdupq_n_s32(0);
  int32_t r, j;
  for (r = t->rows; r > 0; --r, in += t->in_row, w += t->w_row) {
    for (j = t->cols; j > 0; --j, in += t->in_col, w += t->w_col) {
      const int16x8_t a = vaddq_n_s16(dw_load(in, chan, gather, full, p16), offset);
      const int16x8_t b = full ? vldrbq_s16(w) : vldrbq_z_s16(w, p16);
      e = vaddq_s32(e, vmullbq_int_s16(a, b));
      o = vaddq_s32(o, vmulltq_int_s16(a, b));
    }
  }
  if (bias != NULL) {
    const uint32x4_t lanes = microaot_mve_even_lanes();
    e = vaddq_s32(e, vldrwq_gather_shifted_offset_z_s32(bias + c, lanes, vctp32q((uint32_t)(left + 1) / 2)));
    o = vaddq_s32(o, vldrwq_gather_shifted_offset_z_s32(bias + c + 1, lanes, vctp32q((uint32_t)left / 2)));
  }
  microaot_mve_lanes_out8(s, e, o, c, left, full, out + c);
}

/* Every channel of a pair of pixels with the same taps: whole blocks, then the last channels predicated. */
/* The last one to seven channels of a pair, predicated: one copy out of line (code size), in the form with the
 * bias and the offset per tap, which computes interior pixels too. */
static void __attribute__((noinline)) dw_pair_tail(const dw_call* k, const microaot_mve_lanes_stage* s,
                                                   const dw_taps* t, size_t step, const int32_t* bias, int32_t c,
                                                   int8_t* out0, int8_t* out1) {
  if (k->chan != NULL) {
    dw_pair_block(k, s, t, step, bias, c, 1, 0, 0, out0, out1);
  } else {
    dw_pair_block(k, s, t, step, bias, c, 0, 0, 0, out0, out1);
  }
}

#define DW_PAIR_BLOCKS(gather, folded)                                                                            \
  do {                                                                                                            \
    for (c = 0; c < whole; c += 8) dw_pair_block(k, s, t, step, bias, c, gather, 1, folded, out0, out1);         \
    if (c < depth) dw_pair_tail(k, s, t, step, bias, c, out0, out1);                                             \
  } while (0)

/* Every channel of two pixels whose taps are both `t`'s, the second's input `step` bytes on (`folded`: both
 * interior, so the folded biases). One copy for both rows' loops: inlined into both, KWS's depthwise layers
 * took 3% fewer instructions for 4.3 KB more code. */
static void __attribute__((noinline)) dw_pair_pixels(const dw_call* k, const microaot_mve_lanes_stage* s,
                                                      const dw_taps* t, size_t step, int folded, const int32_t* bias,
                                                      int8_t* out0, int8_t* out1) {
  const int32_t depth = k->p->output_depth, whole = depth & ~7;
  int32_t c;
  if (k->chan != NULL) {
    if (folded) {
      DW_PAIR_BLOCKS(1, 1);
    } else {
      DW_PAIR_BLOCKS(1, 0);
    }
  } else if (folded) {
    DW_PAIR_BLOCKS(0, 1);
  } else {
    DW_PAIR_BLOCKS(0, 0);
  }
}

/* Every channel of one pixel (its in-image taps, the offset per tap). */
static void dw_single_pixel(const dw_call* k, const microaot_mve_lanes_stage* s, const dw_taps* t,
                            const int32_t* bias, int8_t* out) {
  const int32_t depth = k->p->output_depth, whole = depth & ~7;
  const int gather = k->chan != NULL;
  int32_t c;
  for (c = 0; c < whole; c += 8) {
    if (gather) {
      dw_single_block(k, s, t, bias, c, 1, 1, out);
    } else {
      dw_single_block(k, s, t, bias, c, 0, 1, out);
    }
  }
  if (c < depth) dw_single_block(k, s, t, bias, c, gather, 0, out);
}

/* The output columns [x_begin, x_end) whose taps are all inside the input's width. */
static void interior_columns(const dw_params* p, int32_t* x_begin, int32_t* x_end) {
  int32_t ox;
  *x_begin = *x_end = 0;
  for (ox = 0; ox < p->output_width; ++ox) {
    const microaot_window x =
        microaot_window_of(ox, p->stride_width, p->pad_width, p->filter_width, p->dilation_width, p->input_width);
    if (x.begin != 0 || x.end != p->filter_width) continue;
    if (*x_end != ox) *x_begin = ox;
    *x_end = ox + 1;
  }
}

static microaot_window dw_window_y(const dw_params* p, int32_t oy) {
  return microaot_window_of(oy, p->stride_height, p->pad_height, p->filter_height, p->dilation_height,
                            p->input_height);
}

static microaot_window dw_window_x(const dw_params* p, int32_t ox) {
  return microaot_window_of(ox, p->stride_width, p->pad_width, p->filter_width, p->dilation_width, p->input_width);
}

/* Output rows oy and oy + 1, whose windows have the same rows of taps, into dst0 and dst1: each column's two
 * pixels as a pair (the folded form where the column is interior and so are the rows). */
static void dw_row_pair(const dw_call* k, const int8_t* image, const int8_t* filter, const int32_t* bias,
                        int32_t oy, int8_t* dst0, int8_t* dst1) {
  const dw_params* p = k->p;
  const size_t depth = (size_t)p->output_depth;
  const size_t step = (size_t)p->stride_height * (size_t)p->input_width * (size_t)p->input_depth;
  const microaot_window y = dw_window_y(p, oy);
  const int full_rows = y.begin == 0 && y.end == p->filter_height;
  const microaot_mve_lanes_stage s = k->stage; /* a local: the byte stores would reload its fields */
  int32_t ox;
  for (ox = 0; ox < p->output_width; ++ox) {
    const microaot_window x = dw_window_x(p, ox);
    const dw_taps t = taps_of(p, image, filter, &y, &x);
    const int folded = full_rows && ox >= k->x_begin && ox < k->x_end;
    dw_pair_pixels(k, &s, &t, step, folded, bias, dst0 + (size_t)ox * depth, dst1 + (size_t)ox * depth);
  }
}

/* One output row into dst: interior pixels two at a time (the folded form), the others one at a time. */
static void dw_row(const dw_call* k, const int8_t* image, const int8_t* filter, const int32_t* bias, int32_t oy,
                   int8_t* dst) {
  const dw_params* p = k->p;
  const size_t depth = (size_t)p->output_depth, pixel_step = (size_t)p->stride_width * (size_t)p->input_depth;
  const microaot_window y = dw_window_y(p, oy);
  const int full_rows = y.begin == 0 && y.end == p->filter_height;
  const microaot_mve_lanes_stage s = k->stage;
  int32_t ox = 0;
  while (ox < p->output_width) {
    const microaot_window x = dw_window_x(p, ox);
    const dw_taps t = taps_of(p, image, filter, &y, &x);
    if (full_rows && ox >= k->x_begin && ox + 1 < k->x_end) {
      dw_pair_pixels(k, &s, &t, pixel_step, 1, bias, dst + (size_t)ox * depth, dst + (size_t)(ox + 1) * depth);
      ox += 2;
    } else {
      dw_single_pixel(k, &s, &t, bias, dst + (size_t)ox * depth);
      ox += 1;
    }
  }
}

/* Whether output rows oy and oy + 1 of one image have windows of the same rows of taps. */
static int same_tap_rows(const dw_params* p, int32_t oy) {
  microaot_window a, b;
  if (oy + 1 >= p->output_height) return 0;
  a = dw_window_y(p, oy);
  b = dw_window_y(p, oy + 1);
  return a.begin == b.begin && a.end == b.end;
}

/* Every output row, each written to `dst` and, when dst is a scratch row, copied to its place after its last
 * input read. */
static void dw_rows(const dw_params* p, const int8_t* input, const int8_t* filter, const int32_t* bias,
                    int8_t* output, int8_t* row_scratch) {
  const size_t image_size = (size_t)p->input_height * (size_t)p->input_width * (size_t)p->input_depth;
  const size_t row_size = (size_t)p->output_width * (size_t)p->output_depth;
  /* the overlap variant's second row of a pair, held until both rows' inputs are read; rows of more bytes run
   * one at a time */
  int8_t second[MVE_DW_PAIR_ROW_MAX];
  int32_t folded[MVE_DW_CHANNELS_MAX + 8];
  uint16_t chan[MVE_DW_CHANNELS_MAX + 8]; /* output channel c reads input channel c / depth_multiplier */
  const int pairs = row_scratch == NULL || row_size <= MVE_DW_PAIR_ROW_MAX;
  dw_call k;
  int32_t b, oy, c;
  k.p = p;
  k.stage = microaot_mve_lanes_stage_of(p->output_multiplier, p->output_shift, p->output_offset,
                                        p->activation_min, p->activation_max, p->output_depth);
  k.folded = folded;
  k.chan = NULL;
  if (p->depth_multiplier != 1) {
    for (c = 0; c < p->output_depth + 8; ++c) chan[c] = (uint16_t)(c < p->output_depth ? c / p->depth_multiplier : 0);
    k.chan = chan;
  }
  dw_fold(p, filter, bias, folded);
  interior_columns(p, &k.x_begin, &k.x_end);
  for (b = 0; b < p->batches; ++b) {
    const int8_t* image = input + (size_t)b * image_size;
    for (oy = 0; oy < p->output_height; ++oy) {
      int8_t* out = output + (size_t)(b * p->output_height + oy) * row_size;
      int8_t* dst = row_scratch != NULL ? row_scratch : out;
      if (pairs && same_tap_rows(p, oy)) {
        int8_t* dst1 = row_scratch != NULL ? second : out + row_size;
        dw_row_pair(&k, image, filter, bias, oy, dst, dst1);
        if (row_scratch != NULL) {
          microaot_mve_copy(out, row_scratch, (int32_t)row_size);
          microaot_mve_copy(out + row_size, second, (int32_t)row_size);
        }
        ++oy;
        continue;
      }
      dw_row(&k, image, filter, bias, oy, dst);
      if (row_scratch != NULL) microaot_mve_copy(out, row_scratch, (int32_t)row_size);
    }
  }
}

/* One channel of a band of `rows` output rows from oy0 on: its weights, its sums from the plane, the output step. */
static void dw_planar_channel(const dw_planar_plan* plan, const dw_params* p, const int8_t* plane,
                              const int8_t* filter, const int32_t* bias, int32_t c, int32_t rows, int32_t* sums,
                              int8_t* out) {
  int8x16_t w[4];
  const int32_t sum_w = dw_planar_weights(plan, filter + c, p->output_depth, w);
  const int32_t blocked = dw_planar_ceil(rows, plan->by) * plan->by;
  dw_planar_out o;
  if (plan->by == 2) {
    if (plan->bx == 2) {
      dw_planar_sums_2x2(plan, p, plane, w, blocked, sums);
    } else {
      dw_planar_sums(plan, p, plane, w, blocked, sums, 2, 1);
    }
  } else if (plan->bx == 2) {
    dw_planar_sums_1x2(plan, p, plane, w, blocked, sums);
  } else {
    dw_planar_sums(plan, p, plane, w, blocked, sums, 1, 1);
  }
  o.bias = (int32_t)((uint32_t)(bias != NULL ? bias[c] : 0) + (uint32_t)p->input_offset * (uint32_t)sum_w);
  o.multiplier = p->output_multiplier[c];
  o.shift = p->output_shift[c];
  o.offset = p->output_offset;
  o.lo = vdupq_n_s32(p->activation_min);
  o.hi = vdupq_n_s32(p->activation_max);
  o.lanes = vmulq_n_u32(vidupq_n_u32(0, 1), (uint32_t)p->output_depth);
  o.step = 4 * p->output_depth;
  dw_planar_output(&o, sums, out + c, rows * p->output_width);
}

/* The planar path (microaot/internal/mve_depthwise_planar.h) where it takes the layer: 0 when it does not. */
static int dw_planar(const dw_params* p, const int8_t* input, const int8_t* filter, const int32_t* bias,
                     int8_t* output, int overlap) {
  int8_t plane[MVE_DW_PLANE_BYTES];
  int32_t sums[MVE_DW_SUMS];
  const size_t in_row = (size_t)p->input_width * (size_t)p->input_depth;
  const size_t out_row = (size_t)p->output_width * (size_t)p->output_depth;
  const uint16x8_t pixels = vmulq_n_u16(vidupq_n_u16(0, 1), (uint16_t)p->input_depth);
  dw_planar_plan plan;
  int32_t b, oy0, ci, m;
  if (!dw_planar_plan_of(p, &plan) || !dw_planar_order_safe(p, input, output, overlap) ||
      8 * p->input_depth > 65535)
    return 0;
  for (b = 0; b < p->batches; ++b) {
    const int8_t* image = input + (size_t)b * (size_t)p->input_height * in_row;
    for (oy0 = 0; oy0 < p->output_height; oy0 += plan.band) {
      const int32_t rows = p->output_height - oy0 < plan.band ? p->output_height - oy0 : plan.band;
      const int32_t plane_rows = dw_planar_span(dw_planar_ceil(rows, plan.by) * plan.by, p->stride_height,
                                                p->filter_height, p->dilation_height);
      const int32_t iy0 = oy0 * p->stride_height - p->pad_height;
      /* the plane's rows inside the image: [first, last) */
      const int32_t first = iy0 > 0 ? iy0 : 0;
      const int32_t last = iy0 + plane_rows < p->input_height ? iy0 + plane_rows : p->input_height;
      int8_t* out = output + ((size_t)b * (size_t)p->output_height + (size_t)oy0) * out_row;
      microaot_mve_fill(plane, vdupq_n_s8((int8_t)-p->input_offset), plane_rows * plan.wp);
      for (ci = 0; ci < p->input_depth; ++ci) {
        dw_planar_rows(plane + (first - iy0) * plan.wp + p->pad_width, image + (size_t)first * in_row + ci, pixels,
                       p->input_width, last - first, (int32_t)in_row, plan.wp);
        for (m = 0; m < p->depth_multiplier; ++m)
          dw_planar_channel(&plan, p, plane, filter, bias, ci * p->depth_multiplier + m, rows, sums, out);
      }
    }
  }
  return 1;
}

void microaot_depthwise_conv_2d_s8(const microaot_depthwise_conv_2d_params_q* params, const int8_t* input,
                                   const int8_t* filter, const int32_t* bias, int8_t* output) {
  if (!mve_handles(params)) {
    dw_portable(params, input, filter, bias, output);
    return;
  }
  if (dw_planar(params, input, filter, bias, output, 0)) return;
  dw_rows(params, input, filter, bias, output, NULL);
}

void microaot_depthwise_conv_2d_s8_overlap(const microaot_depthwise_conv_2d_params_q* params, const int8_t* input,
                                           const int8_t* filter, const int32_t* bias, int8_t* output, void* scratch) {
  if (!mve_handles(params)) {
    dw_overlap_portable(params, input, filter, bias, output, scratch);
    return;
  }
  if (dw_planar(params, input, filter, bias, output, 1)) return;
  dw_rows(params, input, filter, bias, output, (int8_t*)scratch);
}
#endif /* MICROAOT_MVE */
