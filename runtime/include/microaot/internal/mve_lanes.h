/* The Helium output step on sums held in registers as even and odd channels (VMULLB / VMULLT's halves: lanes
 * c, c + 2, c + 4, c + 6 and c + 1, c + 3, ...), stored in channel order by a byte scatter: no round trip of the
 * sums through memory. Arithmetic as microaot_mve_output4 (microaot/internal/mve_dot.h): the left shift
 * (wrapping), VQRDMULH, the rounding right shift with ties away from zero (VRSHL rounds ties up: a negative
 * value is lowered by one first when it shifts), output offset, clamp; the short form without the left shift
 * when every shift is a right shift. */
#ifndef MICROAOT_MVE_LANES_H
#define MICROAOT_MVE_LANES_H

#include <stdint.h>

#include "microaot/internal/mve_dot.h"

#if MICROAOT_MVE

typedef struct {
  const int32_t* multiplier;
  const int32_t* shift;
  int32_t output_offset, activation_min, activation_max;
  int32_t right_only; /* every shift is a right shift (< 0): the short form */
} microaot_mve_lanes_stage;

static inline microaot_mve_lanes_stage microaot_mve_lanes_stage_of(const int32_t* multiplier, const int32_t* shift,
                                                                   int32_t output_offset, int32_t activation_min,
                                                                   int32_t activation_max, int32_t channels) {
  microaot_mve_lanes_stage s;
  s.multiplier = multiplier;
  s.shift = shift;
  s.output_offset = output_offset;
  s.activation_min = activation_min;
  s.activation_max = activation_max;
  s.right_only = microaot_mve_right_only(shift, channels);
  return s;
}

/* {0, 2, 4, 6}: the even lanes' element offsets. */
static inline uint32x4_t microaot_mve_even_lanes(void) { return vmulq_n_u32(vidupq_n_u32(0, 1), 2); }

/* Four sums requantized by their channels' multipliers and shifts (vectors), the lanes p keeps stored at
 * out[0, 2, 4, 6]. */
static inline __attribute__((always_inline)) void microaot_mve_lanes_requantize(const microaot_mve_lanes_stage* s,
                                                                                int32x4_t v, int32x4_t mult,
                                                                                int32x4_t shift, int full,
                                                                                mve_pred16_t p, int8_t* out) {
  const uint32x4_t lanes = microaot_mve_even_lanes();
  if (s->right_only) {
    v = vqrdmulhq_s32(v, mult);
    v = vaddq_s32(v, vshrq_n_s32(v, 31));
    v = vrshlq_s32(v, shift);
  } else {
    const int32x4_t left = vmaxq_s32(shift, vdupq_n_s32(0));
    const int32x4_t right = vsubq_s32(left, shift); /* -shift where it is negative */
    v = vqrdmulhq_s32(vshlq_s32(v, left), mult);
    v = vaddq_m_s32(v, v, vshrq_n_s32(v, 31), vcmpgtq_n_s32(right, 0));
    v = vrshlq_s32(v, vnegq_s32(right));
  }
  v = vaddq_n_s32(v, s->output_offset);
  v = vminq_s32(vmaxq_s32(v, vdupq_n_s32(s->activation_min)), vdupq_n_s32(s->activation_max));
  if (full) {
    vstrbq_scatter_offset_s32(out, lanes, v);
  } else {
    vstrbq_scatter_offset_p_s32(out, lanes, v, p);
  }
}

/* Channels c, c + 2, c + 4, c + 6's multipliers or shifts (from `values` at channel c). */
static inline __attribute__((always_inline)) int32x4_t microaot_mve_lanes_load(const int32_t* values, int full,
                                                                               mve_pred16_t p) {
  const uint32x4_t lanes = microaot_mve_even_lanes();
  return full ? vldrwq_gather_shifted_offset_s32(values, lanes) : vldrwq_gather_shifted_offset_z_s32(values, lanes, p);
}

/* Four sums of channels c, c + 2, c + 4, c + 6 requantized (the lanes p keeps) and stored at out[0, 2, 4, 6]. */
static inline __attribute__((always_inline)) void microaot_mve_lanes_out4(const microaot_mve_lanes_stage* s,
                                                                          int32x4_t v, const int32_t* multiplier,
                                                                          const int32_t* shift_of, int full,
                                                                          mve_pred16_t p, int8_t* out) {
  microaot_mve_lanes_requantize(s, v, microaot_mve_lanes_load(multiplier, full, p),
                                microaot_mve_lanes_load(shift_of, full, p), full, p, out);
}

/* Channels c .. c + 7 from their even and odd sums to out[0 .. 7] (`full`, a constant where inlined: all eight;
 * else the first `left`). */
static inline __attribute__((always_inline)) void microaot_mve_lanes_out8(const microaot_mve_lanes_stage* s,
                                                                          int32x4_t even, int32x4_t odd, int32_t c,
                                                                          int32_t left, int full, int8_t* out) {
  const mve_pred16_t pe = full ? 0 : vctp32q((uint32_t)(left + 1) / 2);
  const mve_pred16_t po = full ? 0 : vctp32q((uint32_t)left / 2);
  microaot_mve_lanes_out4(s, even, s->multiplier + c, s->shift + c, full, pe, out);
  microaot_mve_lanes_out4(s, odd, s->multiplier + c + 1, s->shift + c + 1, full, po, out + 1);
}

/* The same for two pixels' channels c .. c + 7 (out0, out1 at channel c), the requantization loaded once. */
static inline __attribute__((always_inline)) void microaot_mve_lanes_out8x2(const microaot_mve_lanes_stage* s,
                                                                            int32x4_t even0, int32x4_t odd0,
                                                                            int32x4_t even1, int32x4_t odd1,
                                                                            int32_t c, int32_t left, int full,
                                                                            int8_t* out0, int8_t* out1) {
  const mve_pred16_t pe = full ? 0 : vctp32q((uint32_t)(left + 1) / 2);
  const mve_pred16_t po = full ? 0 : vctp32q((uint32_t)left / 2);
  int32x4_t mult = microaot_mve_lanes_load(s->multiplier + c, full, pe);
  int32x4_t shift = microaot_mve_lanes_load(s->shift + c, full, pe);
  microaot_mve_lanes_requantize(s, even0, mult, shift, full, pe, out0);
  microaot_mve_lanes_requantize(s, even1, mult, shift, full, pe, out1);
  mult = microaot_mve_lanes_load(s->multiplier + c + 1, full, po);
  shift = microaot_mve_lanes_load(s->shift + c + 1, full, po);
  microaot_mve_lanes_requantize(s, odd0, mult, shift, full, po, out0 + 1);
  microaot_mve_lanes_requantize(s, odd1, mult, shift, full, po, out1 + 1);
}

/* n bytes of dst set to value's lanes: 16 a step, tail-predicated as microaot_mve_copy. */
static inline void microaot_mve_fill(int8_t* dst, int8x16_t value, int32_t n) {
  __asm__ volatile(
      "wlstp.8 lr, %[n], 2f\n"
      "1:\n\t"
      "vstrb.8 %q[v], [%[dst]], #16\n\t"
      "letp lr, 1b\n"
      "2:\n"
      : [dst] "+r"(dst)
      : [n] "r"(n), [v] "w"(value)
      : "lr", "memory");
}

/* n bytes from src to dst (not overlapping): 16 a step in a tail-predicated low-overhead loop, three
 * instructions per 16 bytes; the overlap variants' row copies, where the C library's memcpy takes several
 * instructions per byte. */
static inline void microaot_mve_copy(int8_t* dst, const int8_t* src, int32_t n) {
  __asm__ volatile(
      "wlstp.8 lr, %[n], 2f\n"
      "1:\n\t"
      "vldrb.8 q0, [%[src]], #16\n\t"
      "vstrb.8 q0, [%[dst]], #16\n\t"
      "letp lr, 1b\n"
      "2:\n"
      : [dst] "+r"(dst), [src] "+r"(src)
      : [n] "r"(n)
      : "q0", "lr", "memory");
}

#endif /* MICROAOT_MVE */

#endif /* MICROAOT_MVE_LANES_H */
