/* The planar path of the Helium int8 DEPTHWISE_CONV_2D (runtime/kernels/mve/depthwise_conv_2d_s8.c): one
 * channel at a time, its input copied once into a plane (rows of the padded image, one byte a pixel, the
 * padding holding the input zero point), then each block of up to four output pixels (2 x 2, 1 x 2, 2 x 1 or
 * 1 x 1) from one 16-lane byte gather of the pixels' input patch and one VMLADAV per output against the
 * channel's taps laid at the output's place in the patch (16 products a instruction, the lanes outside its
 * window zero). The padding's zero point turns each padded tap's (x + input_offset) into 0, so every output
 * takes the same folded bias (bias + input_offset * sum of the channel's taps, mod 2^32 as the reference's
 * int32 sums). The channel's sums then leave through a tail-predicated output step four pixels a vector with
 * the channel's multiplier and shift as scalars (VQRDMULH, the ties' fix-up, VRSHL: microaot/internal/
 * mve_dot.h's arithmetic), stored by byte scatter one channel apart. Bit-exact with the portable kernel.
 *
 * Channel by channel is safe where the output is apart from the input or overlaps it whole pixels apart with
 * one input channel per output channel (the in-place layers the memory planner makes): an output byte then
 * lands on an input byte of its own channel, whose plane is already read, and the row order within a channel
 * keeps the planner's bound (compiler/ops/in_place_bounds.h). Other layers take the kernel's other path. */
#ifndef MICROAOT_MVE_DEPTHWISE_PLANAR_H
#define MICROAOT_MVE_DEPTHWISE_PLANAR_H

#include <stddef.h>
#include <stdint.h>

#include "microaot/internal/mve_dot.h"
#include "microaot/kernels/conv.h"

#if MICROAOT_MVE

/* The plane's bytes and the sums a band of output rows holds on the stack. */
#define MVE_DW_PLANE_BYTES 3072
#define MVE_DW_SUMS 640
#define MVE_DW_TAPS 16
/* Output pixels a channel below which the channel vectors of the kernel's other path are faster. */
#define MVE_DW_MIN_PIXELS 16

typedef struct {
  int32_t by, bx;   /* output block: rows, columns */
  int32_t wp;       /* plane row bytes */
  int32_t band;     /* output rows a band (a multiple of by) */
  int32_t taps;     /* filter taps (<= 16) */
  uint8x16_t offs;  /* the patch's plane offsets */
  uint8_t map[4][16]; /* per block output: lane -> tap index (taps: a zero) */
} dw_planar_plan;

/* Patch rows or columns of a block of n outputs along one axis. */
static inline int32_t dw_planar_span(int32_t n, int32_t stride, int32_t filter, int32_t dilation) {
  return (n - 1) * stride + (filter - 1) * dilation + 1;
}

static inline int32_t dw_planar_ceil(int32_t a, int32_t b) { return (a + b - 1) / b; }

/* The plane's width for blocks of bx columns. */
static inline int32_t dw_planar_width(const microaot_depthwise_conv_2d_params_q* p, int32_t bx) {
  const int32_t cols = (dw_planar_ceil(p->output_width, bx) * bx - 1) * p->stride_width +
                       (p->filter_width - 1) * p->dilation_width + 1;
  const int32_t image = p->pad_width + p->input_width;
  return cols > image ? cols : image;
}

/* Output rows a band of blocks by rows high holds (0: not even one block). */
static inline int32_t dw_planar_band(const microaot_depthwise_conv_2d_params_q* p, int32_t by, int32_t wp) {
  int32_t band = dw_planar_ceil(p->output_height, by) * by;
  while (band > 0 && (dw_planar_span(band, p->stride_height, p->filter_height, p->dilation_height) * wp >
                          MVE_DW_PLANE_BYTES ||
                      band * p->output_width + 4 > MVE_DW_SUMS))
    band -= by;
  return band;
}

/* The cheapest block that fits one gather (16 lanes, offsets below 256) and the stack: 0 when none does. */
static inline int dw_planar_choose(const microaot_depthwise_conv_2d_params_q* p, dw_planar_plan* plan) {
  int32_t best = 0, by, bx;
  for (by = 1; by <= 2; ++by) {
    for (bx = 1; bx <= 2; ++bx) {
      const int32_t rows = dw_planar_span(by, p->stride_height, p->filter_height, p->dilation_height);
      const int32_t cols = dw_planar_span(bx, p->stride_width, p->filter_width, p->dilation_width);
      const int32_t wp = dw_planar_width(p, bx), k = by * bx;
      int32_t band, cost;
      if (rows * cols > 16 || (rows - 1) * wp + cols > 256 || bx > p->output_width) continue;
      band = dw_planar_band(p, by, wp);
      if (band == 0) continue;
      /* per block: the gather, a product and a store per output, the pointer step */
      cost = dw_planar_ceil(p->output_height, by) * dw_planar_ceil(p->output_width, bx) * (3 + 2 * k);
      if (best != 0 && cost >= best) continue;
      best = cost;
      plan->by = by;
      plan->bx = bx;
      plan->wp = wp;
      plan->band = band;
    }
  }
  return best != 0;
}

/* The plan of a layer the planar path computes, or 0. */
static inline int dw_planar_plan_of(const microaot_depthwise_conv_2d_params_q* p, dw_planar_plan* plan) {
  uint8_t offs[16];
  int32_t k, ty, tx, l;
  if (p->input_offset < -127 || p->input_offset > 128) return 0; /* the padding's value -input_offset: int8 */
  /* a channel's set-up (plane, weights, output step) pays only over enough pixels: VWW's 3x3 images of 128 and
   * 256 channels took 4.3-4.6 instructions per MAC here against 2.5-2.8 on the channel vectors */
  if (p->output_height * p->output_width < MVE_DW_MIN_PIXELS) return 0;
  if (p->filter_height * p->filter_width > MVE_DW_TAPS || !dw_planar_choose(p, plan)) return 0;
  plan->taps = p->filter_height * p->filter_width;
  memset(offs, 0, sizeof offs);
  memset(plan->map, plan->taps, sizeof plan->map);
  {
    const int32_t cols = dw_planar_span(plan->bx, p->stride_width, p->filter_width, p->dilation_width);
    const int32_t rows = dw_planar_span(plan->by, p->stride_height, p->filter_height, p->dilation_height);
    for (l = 0; l < rows * cols; ++l) offs[l] = (uint8_t)((l / cols) * plan->wp + l % cols);
    for (k = 0; k < plan->by * plan->bx; ++k) {
      const int32_t ky = k / plan->bx, kx = k % plan->bx;
      for (ty = 0; ty < p->filter_height; ++ty) {
        for (tx = 0; tx < p->filter_width; ++tx) {
          const int32_t r = ky * p->stride_height + ty * p->dilation_height;
          const int32_t c = kx * p->stride_width + tx * p->dilation_width;
          plan->map[k][r * cols + c] = (uint8_t)(ty * p->filter_width + tx);
        }
      }
    }
  }
  plan->offs = vld1q_u8(offs);
  return 1;
}

/* `rows` image rows of one channel (n pixels each, `step` bytes apart in src, rows `in_row` bytes apart) into the
 * plane's rows (`wp` bytes apart) as bytes: a gather of eight pixels and a narrowing store, the row's end
 * predicated. A row of at most eight pixels is one predicated gather and store (the predicate set once). */
static inline void dw_planar_rows(int8_t* dst, const int8_t* src, uint16x8_t offsets, int32_t n, int32_t rows,
                                  int32_t in_row, int32_t wp) {
  if (rows <= 0) return;
  if (n <= 8) {
    uint32_t saved; /* VPR.P0, which the compiler may hold a predicate in (asm cannot name it as clobbered) */
    __asm__ volatile(
        "vmrs %[saved], p0\n\t"
        "vctp.16 %[n]\n\t"
        "dls lr, %[rows]\n"
        "1:\n\t"
        "vpstt\n\t"
        "vldrbt.u16 q0, [%[src], %q[offs]]\n\t"
        "vstrbt.16 q0, [%[dst]]\n\t"
        "add %[src], %[src], %[in_row]\n\t"
        "add %[dst], %[dst], %[wp]\n\t"
        "le lr, 1b\n\t"
        "vmsr p0, %[saved]\n"
        : [dst] "+l"(dst), [src] "+r"(src), [saved] "=&r"(saved) /* the narrowing store's base: r0-r7 */
        : [n] "r"(n), [rows] "r"(rows), [offs] "w"(offsets), [in_row] "r"(in_row), [wp] "r"(wp)
        : "q0", "lr", "memory");
  } else {
    const int32_t step8 = 8 * (in_row / n);
    int32_t i;
    for (i = 0; i < rows; ++i, src += in_row, dst += wp) {
      const int8_t* s = src;
      int8_t* d = dst;
      __asm__ volatile(
          "dlstp.16 lr, %[n]\n"
          "1:\n\t"
          "vldrb.u16 q0, [%[s], %q[offs]]\n\t"
          "add %[s], %[s], %[step]\n\t"
          "vstrb.16 q0, [%[d]], #8\n\t"
          "letp lr, 1b\n"
          : [d] "+l"(d), [s] "+r"(s) /* the narrowing store's base: r0-r7 */
          : [n] "r"(n), [offs] "w"(offsets), [step] "r"(step8)
          : "q0", "lr", "memory");
    }
  }
}

/* The output step of one channel's n sums (tail-predicated, four a vector) to out, `depth` bytes apart: sum +
 * bias, times the multiplier and shift (right: shift < 0, the ties' fix-up; else the wrapping left shift), +
 * output offset, clamp. */
typedef struct {
  int32_t bias, multiplier, shift, offset;
  int32x4_t lo, hi;
  uint32x4_t lanes; /* {0, 1, 2, 3} * depth */
  int32_t step;     /* 4 * depth */
} dw_planar_out;

#if MICROAOT_MVE_WIDE_ASM
/* The output loop with `scale` between the bias and the output offset: the asm that takes q0's biased sums to
 * the scaled ones, clobbering the vector registers listed after it. */
#define DW_PLANAR_OUTPUT_LOOP(scale, ...)                                                                              \
  __asm__ volatile(                                                                                                    \
      "dlstp.32 lr, %[n]\n"                                                                                            \
      "1:\n\t"                                                                                                         \
      "vldrw.u32 q0, [%[s]], #16\n\t"                                                                                  \
      "vadd.i32 q0, q0, %[bias]\n\t" scale                                                                             \
      "vadd.i32 q0, q0, %[off]\n\t"                                                                                    \
      "vmax.s32 q0, q0, %q[lo]\n\t"                                                                                    \
      "vmin.s32 q0, q0, %q[hi]\n\t"                                                                                    \
      "vstrb.32 q0, [%[out], %q[lanes]]\n\t"                                                                           \
      "add %[out], %[out], %[step]\n\t"                                                                                \
      "letp lr, 1b\n"                                                                                                  \
      : [s] "+r"(sums), [out] "+r"(out)                                                                                \
      : [n] "r"(n), [bias] "r"(o->bias), [m] "r"(o->multiplier), [sh] "r"(o->shift), [off] "r"(o->offset),             \
        [lo] "w"(o->lo), [hi] "w"(o->hi), [lanes] "w"(o->lanes), [step] "r"(o->step)                                   \
      : __VA_ARGS__, "lr", "memory")

static inline void dw_planar_output(const dw_planar_out* o, const int32_t* sums, int8_t* out, int32_t n) {
  if (o->shift < 0) { /* VQRDMULH, the ties' fix-up (minus one on a negative value), the rounding right shift */
    DW_PLANAR_OUTPUT_LOOP("vqrdmulh.s32 q0, q0, %[m]\n\t"
                          "vshr.s32 q1, q0, #31\n\t"
                          "vadd.i32 q0, q0, q1\n\t"
                          "vrshl.s32 q0, %[sh]\n\t",
                          "q0", "q1");
  } else { /* the wrapping left shift, then VQRDMULH */
    DW_PLANAR_OUTPUT_LOOP("vshl.u32 q0, %[sh]\n\t"
                          "vqrdmulh.s32 q0, q0, %[m]\n\t",
                          "q0");
  }
}
#undef DW_PLANAR_OUTPUT_LOOP
#else
/* -O0: the same step in C. */
static inline void dw_planar_output(const dw_planar_out* o, const int32_t* sums, int8_t* out, int32_t n) {
  for (; n > 0; n -= 4, sums += 4, out += o->step) {
    const mve_pred16_t lanes = vctp32q((uint32_t)n);
    int32x4_t v = vaddq_n_s32(vldrwq_z_s32(sums, lanes), o->bias);
    if (o->shift < 0) {
      v = vqrdmulhq_n_s32(v, o->multiplier);
      v = vrshlq_n_s32(vaddq_s32(v, vshrq_n_s32(v, 31)), o->shift);
    } else {
      v = vqrdmulhq_n_s32(vreinterpretq_s32_u32(vshlq_r_u32(vreinterpretq_u32_s32(v), o->shift)), o->multiplier);
    }
    v = vminq_s32(vmaxq_s32(vaddq_n_s32(v, o->offset), o->lo), o->hi);
    vstrbq_scatter_offset_p_s32(out, o->lanes, v, lanes);
  }
}
#endif

/* The sums of `rows` output rows (a multiple of by) of one channel from its plane: blocks right to left in
 * each row of blocks (a last block past the row's end writes its extra columns over the next row's first
 * sums, which the row's first block then writes again; sums has room for a block past the end). */
static inline __attribute__((always_inline)) void dw_planar_sums(const dw_planar_plan* plan,
                                                                 const microaot_depthwise_conv_2d_params_q* p,
                                                                 const int8_t* plane, const int8x16_t* w,
                                                                 int32_t rows, int32_t* sums, int by, int bx) {
  const int32_t ow = p->output_width, nbx = dw_planar_ceil(ow, bx);
  const int32_t col_step = bx * p->stride_width, row_step = by * p->stride_height * plan->wp;
  const uint8x16_t offs = plan->offs;
  const int8x16_t w0 = w[0], w1 = w[1 % (by * bx)], w2 = w[2 % (by * bx)], w3 = w[3 % (by * bx)];
  int32_t r;
  for (r = 0; r < rows; r += by, plane += row_step, sums += by * ow) {
    const uint8_t* in = (const uint8_t*)plane + (nbx - 1) * col_step;
    int32_t* s = sums + (nbx - 1) * bx;
    int32_t j;
    for (j = nbx; j > 0; --j, in -= col_step, s -= bx) {
      const int8x16_t x = vreinterpretq_s8_u8(vldrbq_gather_offset_u8(in, offs));
      s[0] = vmladavq_s8(x, w0);
      if (bx == 2) s[1] = vmladavq_s8(x, w1);
      if (by == 2) {
        s[ow] = vmladavq_s8(x, bx == 2 ? w2 : w1);
        if (bx == 2) s[ow + 1] = vmladavq_s8(x, w3);
      }
    }
  }
}

#if MICROAOT_MVE_WIDE_ASM
/* The assembly loop of dw_planar_sums_2x2 and _1x2 over block_rows rows of blocks, right to left: per block
 * the gather, two VMLADAV and one STRD for the first row's pair of outputs, then `row1` (the second row's);
 * `step1` steps the second row's sums, `outputs` and `inputs` (parenthesised, each with a leading comma) add
 * its operands. */
#define DW_PLANAR_LIST(...) __VA_ARGS__
#define DW_PLANAR_SUMS_LOOP(row1, step1, outputs, inputs)                                                              \
  __asm__ volatile(                                                                                                    \
      "1:\n\t"                                                                                                         \
      "dls lr, %[nbx]\n"                                                                                               \
      "2:\n\t"                                                                                                         \
      "vldrb.u8 %q[x], [%[in], %q[offs]]\n\t"                                                                          \
      "vmladav.s8 %[a0], %q[x], %q[w0]\n\t"                                                                            \
      "vmladav.s8 %[a1], %q[x], %q[w1]\n\t"                                                                            \
      "strd %[a0], %[a1], [%[s0]], #-8\n\t" row1                                                                       \
      "sub %[in], %[in], %[col]\n\t"                                                                                   \
      "le lr, 2b\n\t"                                                                                                  \
      "add %[in], %[in], %[in_adv]\n\t"                                                                                \
      "add %[s0], %[s0], %[s_adv]\n\t" step1                                                                           \
      "subs %[rows], %[rows], #1\n\t"                                                                                  \
      "bne 1b\n"                                                                                                       \
      : [in] "+r"(in), [s0] "+r"(s0) DW_PLANAR_LIST outputs, [rows] "+r"(block_rows), [a0] "=&Te"(a0),                 \
        [a1] "=&Te"(a1), [x] "=&w"(x)                                                                                  \
      : [nbx] "r"(nbx), [col] "r"(col_step), [in_adv] "r"(in_adv), [s_adv] "r"(s_adv), [offs] "w"(plan->offs),         \
        [w0] "w"(w[0]), [w1] "w"(w[1]) DW_PLANAR_LIST inputs                                                           \
      : "lr", "memory", "cc")

/* dw_planar_sums for 2 x 2 blocks in assembly (the C loop spent about 20 instructions a row of blocks and 12 a
 * block; here 6 and 9): per block the gather, four VMLADAV, two STRD (both rows' pairs, right to left). */
static inline void dw_planar_sums_2x2(const dw_planar_plan* plan, const microaot_depthwise_conv_2d_params_q* p,
                                      const int8_t* plane, const int8x16_t* w, int32_t rows, int32_t* sums) {
  const int32_t ow = p->output_width, nbx = dw_planar_ceil(ow, 2);
  const int32_t col_step = 2 * p->stride_width;
  const int32_t in_adv = nbx * col_step + 2 * p->stride_height * plan->wp;
  const int32_t s_adv = 8 * nbx + 8 * ow;
  const int8_t* in = plane + (nbx - 1) * col_step;
  int32_t* s0 = sums + (nbx - 1) * 2;
  int32_t* s1 = s0 + ow;
  int32_t block_rows = rows / 2, a0, a1;
  int8x16_t x;
  if (block_rows <= 0) return;
  DW_PLANAR_SUMS_LOOP("vmladav.s8 %[a0], %q[x], %q[w2]\n\t"
                      "vmladav.s8 %[a1], %q[x], %q[w3]\n\t"
                      "strd %[a0], %[a1], [%[s1]], #-8\n\t",
                      "add %[s1], %[s1], %[s_adv]\n\t", (, [s1] "+r"(s1)), (, [w2] "w"(w[2]), [w3] "w"(w[3])));
}

/* The same for 1 x 2 blocks (the stride-2 layers'): the gather, two VMLADAV, one STRD a block. */
static inline void dw_planar_sums_1x2(const dw_planar_plan* plan, const microaot_depthwise_conv_2d_params_q* p,
                                      const int8_t* plane, const int8x16_t* w, int32_t rows, int32_t* sums) {
  const int32_t ow = p->output_width, nbx = dw_planar_ceil(ow, 2);
  const int32_t col_step = 2 * p->stride_width;
  const int32_t in_adv = nbx * col_step + p->stride_height * plan->wp;
  const int32_t s_adv = 8 * nbx + 4 * ow;
  const int8_t* in = plane + (nbx - 1) * col_step;
  int32_t* s0 = sums + (nbx - 1) * 2;
  int32_t block_rows = rows, a0, a1;
  int8x16_t x;
  if (block_rows <= 0) return;
  DW_PLANAR_SUMS_LOOP("", "", (), ());
}
#undef DW_PLANAR_SUMS_LOOP
#undef DW_PLANAR_LIST
#else
/* -O0: the C loop. */
static inline void dw_planar_sums_2x2(const dw_planar_plan* plan, const microaot_depthwise_conv_2d_params_q* p,
                                      const int8_t* plane, const int8x16_t* w, int32_t rows, int32_t* sums) {
  dw_planar_sums(plan, p, plane, w, rows, sums, 2, 2);
}

static inline void dw_planar_sums_1x2(const dw_planar_plan* plan, const microaot_depthwise_conv_2d_params_q* p,
                                      const int8_t* plane, const int8x16_t* w, int32_t rows, int32_t* sums) {
  dw_planar_sums(plan, p, plane, w, rows, sums, 1, 2);
}
#endif

/* One channel's taps, laid for each block output; returns their sum (the input offset's factor). */
static inline int32_t dw_planar_weights(const dw_planar_plan* plan, const int8_t* filter, int32_t depth,
                                        int8x16_t* w) {
  int8_t staged[32];
  const uint16x8_t lanes = vmulq_n_u16(vidupq_n_u16(0, 1), (uint16_t)depth);
  int32_t k;
  /* taps 0-7 and 8-15 by two gathers (16-bit offsets), the rest zeros */
  vstrbq_s16(staged, vldrbq_gather_offset_z_s16(filter, lanes, vctp16q((uint32_t)plan->taps)));
  vstrbq_s16(staged + 8, vldrbq_gather_offset_z_s16(filter + 8 * (size_t)depth, lanes,
                                                     vctp16q((uint32_t)(plan->taps > 8 ? plan->taps - 8 : 0))));
  vst1q_s8(staged + 16, vdupq_n_s8(0));
  for (k = 0; k < plan->by * plan->bx; ++k)
    w[k] = vreinterpretq_s8_u8(vldrbq_gather_offset_u8((const uint8_t*)staged, vld1q_u8(plan->map[k])));
  return vaddvq_s8(vld1q_s8(staged));
}

/* Whether writing channel by channel is safe for these buffers (see the top). */
static inline int dw_planar_order_safe(const microaot_depthwise_conv_2d_params_q* p, const int8_t* input,
                                       const int8_t* output, int overlap) {
  const uintptr_t in = (uintptr_t)input, out = (uintptr_t)output;
  const uintptr_t in_size = (uintptr_t)p->batches * (uintptr_t)p->input_height * (uintptr_t)p->input_width *
                            (uintptr_t)p->input_depth;
  const uintptr_t out_size = (uintptr_t)p->batches * (uintptr_t)p->output_height * (uintptr_t)p->output_width *
                             (uintptr_t)p->output_depth;
  if (!overlap || out + out_size <= in || in + in_size <= out) return 1;
  if (p->depth_multiplier != 1) return 0;
  return (out > in ? out - in : in - out) % (uintptr_t)p->input_depth == 0;
}

#endif /* MICROAOT_MVE */

#endif /* MICROAOT_MVE_DEPTHWISE_PLANAR_H */
