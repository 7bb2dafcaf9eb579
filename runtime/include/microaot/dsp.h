/* The Arm DSP extension's SIMD instructions that the kernels of runtime/kernels/dsp/ use (Armv7E-M, Armv8-M
 * Mainline with DSP: Cortex-M4, M7, M33, M55), as static inline functions over inline assembly. Where the
 * compiler does not define __ARM_FEATURE_DSP (a host build, a check of the sources) each has a C definition of
 * the same result, so the DSP kernels also build and run anywhere. Lanes: "bottom" = bits 0..15, "top" =
 * bits 16..31; byte k = bits 8k..8k+7 (little-endian loads). Additions wrap like the hardware's. */
#ifndef MICROAOT_DSP_H
#define MICROAOT_DSP_H

#include <stdint.h>
#include <string.h>

/* Four consecutive int8 as one word, byte 0 at the lowest address (any alignment: the compiler emits one LDR,
 * which Armv7-M allows unaligned). */
static inline uint32_t microaot_dsp_load4(const int8_t* p) {
  uint32_t word;
  memcpy(&word, p, 4);
  return word;
}

/* Two int16 lanes packed into a word (for the offsets added with SXTAB16). */
static inline uint32_t microaot_dsp_pack16(int32_t bottom, int32_t top) {
  return ((uint32_t)top << 16) | ((uint32_t)bottom & 0xFFFFu);
}

#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP

/* SXTAB16: the lanes of a plus bytes 0 and 2 of x, sign-extended to 16 bits. */
static inline uint32_t microaot_dsp_sxtab16(uint32_t a, uint32_t x) {
  uint32_t r;
  __asm__("sxtab16 %0, %1, %2" : "=r"(r) : "r"(a), "r"(x));
  return r;
}

/* The same over bytes 1 and 3 of x (x rotated right by 8). */
static inline uint32_t microaot_dsp_sxtab16_ror8(uint32_t a, uint32_t x) {
  uint32_t r;
  __asm__("sxtab16 %0, %1, %2, ror #8" : "=r"(r) : "r"(a), "r"(x));
  return r;
}

/* SXTB16: bytes 0 and 2 (ror8: 1 and 3) of x, sign-extended to 16 bits. */
static inline uint32_t microaot_dsp_sxtb16(uint32_t x) {
  uint32_t r;
  __asm__("sxtb16 %0, %1" : "=r"(r) : "r"(x));
  return r;
}

static inline uint32_t microaot_dsp_sxtb16_ror8(uint32_t x) {
  uint32_t r;
  __asm__("sxtb16 %0, %1, ror #8" : "=r"(r) : "r"(x));
  return r;
}

/* SMLAD: acc + bottom(x) * bottom(y) + top(x) * top(y). */
static inline int32_t microaot_dsp_smlad(uint32_t x, uint32_t y, int32_t acc) {
  int32_t r;
  __asm__("smlad %0, %1, %2, %3" : "=r"(r) : "r"(x), "r"(y), "r"(acc));
  return r;
}

/* SMLABB and SMLATT: acc + the product of the bottom (top) lanes. */
static inline int32_t microaot_dsp_smlabb(uint32_t x, uint32_t y, int32_t acc) {
  int32_t r;
  __asm__("smlabb %0, %1, %2, %3" : "=r"(r) : "r"(x), "r"(y), "r"(acc));
  return r;
}

static inline int32_t microaot_dsp_smlatt(uint32_t x, uint32_t y, int32_t acc) {
  int32_t r;
  __asm__("smlatt %0, %1, %2, %3" : "=r"(r) : "r"(x), "r"(y), "r"(acc));
  return r;
}

#else /* the same results in C */

static inline int32_t microaot_dsp_bottom(uint32_t x) { return (int32_t)(int16_t)(uint16_t)(x & 0xFFFFu); }
static inline int32_t microaot_dsp_top(uint32_t x) { return (int32_t)(int16_t)(uint16_t)(x >> 16); }
static inline int32_t microaot_dsp_byte(uint32_t x, int k) { return (int32_t)(int8_t)(uint8_t)(x >> (8 * k)); }

static inline uint32_t microaot_dsp_sxtab16(uint32_t a, uint32_t x) {
  return microaot_dsp_pack16(microaot_dsp_bottom(a) + microaot_dsp_byte(x, 0),
                             microaot_dsp_top(a) + microaot_dsp_byte(x, 2));
}

static inline uint32_t microaot_dsp_sxtab16_ror8(uint32_t a, uint32_t x) {
  return microaot_dsp_pack16(microaot_dsp_bottom(a) + microaot_dsp_byte(x, 1),
                             microaot_dsp_top(a) + microaot_dsp_byte(x, 3));
}

static inline uint32_t microaot_dsp_sxtb16(uint32_t x) { return microaot_dsp_sxtab16(0, x); }
static inline uint32_t microaot_dsp_sxtb16_ror8(uint32_t x) { return microaot_dsp_sxtab16_ror8(0, x); }

/* Products of two int16 fit in int32; their sum and the accumulation wrap (unsigned arithmetic, no UB). */
static inline int32_t microaot_dsp_smlad(uint32_t x, uint32_t y, int32_t acc) {
  const uint32_t sum = (uint32_t)acc + (uint32_t)(microaot_dsp_bottom(x) * microaot_dsp_bottom(y)) +
                       (uint32_t)(microaot_dsp_top(x) * microaot_dsp_top(y));
  return (int32_t)sum;
}

static inline int32_t microaot_dsp_smlabb(uint32_t x, uint32_t y, int32_t acc) {
  return (int32_t)((uint32_t)acc + (uint32_t)(microaot_dsp_bottom(x) * microaot_dsp_bottom(y)));
}

static inline int32_t microaot_dsp_smlatt(uint32_t x, uint32_t y, int32_t acc) {
  return (int32_t)((uint32_t)acc + (uint32_t)(microaot_dsp_top(x) * microaot_dsp_top(y)));
}

#endif

#endif /* MICROAOT_DSP_H */
