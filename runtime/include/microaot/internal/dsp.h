/* The Arm DSP extension's SIMD instructions that the kernels of runtime/kernels/dsp/ use (Armv7E-M, Armv8-M
 * Mainline with DSP: Cortex-M4, M7, M33, M55), as static inline functions over inline assembly. Where the
 * compiler does not define __ARM_FEATURE_DSP (a host build, a check of the sources) or does not optimise (-O0)
 * each has a C definition of the same result, so the DSP kernels also build and run anywhere. Lanes: "bottom" = bits 0..15, "top" =
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

/* A word's lanes as signed values: bottom and top halves, byte k. */
static inline int32_t microaot_dsp_bottom(uint32_t x) { return (int32_t)(int16_t)(uint16_t)(x & 0xFFFFu); }
static inline int32_t microaot_dsp_top(uint32_t x) { return (int32_t)(int16_t)(uint16_t)(x >> 16); }
static inline int32_t microaot_dsp_byte(uint32_t x, int k) { return (int32_t)(int8_t)(uint8_t)(x >> (8 * k)); }

/* Inline assembly where the compiler targets the DSP extension and optimises. At -O0 GCC keeps r7 as the frame
 * pointer and the blocks that hold a window's sums in registers have none left ("impossible constraints"): a
 * debug build takes the C definitions, which give the same results. */
#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP && defined(__OPTIMIZE__)
#define MICROAOT_DSP_ASM 1
#else
#define MICROAOT_DSP_ASM 0
#endif

#if MICROAOT_DSP_ASM

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

/* SSAT #8: x clamped to [-128, 127]. */
static inline int32_t microaot_dsp_ssat8(int32_t x) {
  int32_t r;
  __asm__("ssat %0, #8, %1" : "=r"(r) : "r"(x));
  return r;
}

/* SSAT #16 and #31: x clamped to [-2^15, 2^15 - 1] and [-2^30, 2^30 - 1]. */
static inline int32_t microaot_dsp_ssat16(int32_t x) {
  int32_t r;
  __asm__("ssat %0, #16, %1" : "=r"(r) : "r"(x));
  return r;
}

static inline int32_t microaot_dsp_ssat31(int32_t x) {
  int32_t r;
  __asm__("ssat %0, #31, %1" : "=r"(r) : "r"(x));
  return r;
}

/* SADD16: the two 16-bit lanes of x and y added lane by lane (wrapping). */
static inline uint32_t microaot_dsp_sadd16(uint32_t x, uint32_t y) {
  uint32_t r;
  __asm__("sadd16 %0, %1, %2" : "=r"(r) : "r"(x), "r"(y));
  return r;
}

/* SSUB16: the two 16-bit lanes of y subtracted from x's lane by lane (wrapping). */
static inline uint32_t microaot_dsp_ssub16(uint32_t x, uint32_t y) {
  uint32_t r;
  __asm__("ssub16 %0, %1, %2" : "=r"(r) : "r"(x), "r"(y));
  return r;
}

/* PKHBT: the bottom lanes of lo and hi as (bottom, top); PKHTB: the top lanes of lo and hi. */
static inline uint32_t microaot_dsp_pkhbt(uint32_t lo, uint32_t hi) {
  uint32_t r;
  __asm__("pkhbt %0, %1, %2, lsl #16" : "=r"(r) : "r"(lo), "r"(hi));
  return r;
}

static inline uint32_t microaot_dsp_pkhtb(uint32_t lo, uint32_t hi) {
  uint32_t r;
  __asm__("pkhtb %0, %1, %2, asr #16" : "=r"(r) : "r"(hi), "r"(lo));
  return r;
}

/* Byte by byte the larger of two signed bytes: SSUB8 sets a byte's GE flag where its x - y >= 0 (exact, not
 * wrapped), SEL takes x's byte there and y's elsewhere. The two in one statement: the flags live between them. */
static inline uint32_t microaot_dsp_smax8(uint32_t x, uint32_t y) {
  uint32_t d, r;
  __asm__("ssub8 %[d], %[x], %[y]\n\tsel %[r], %[x], %[y]" : [d] "=&r"(d), [r] "=r"(r) : [x] "r"(x), [y] "r"(y) : "cc");
  return r;
}

/* Byte by byte the smaller: x's byte where y - x >= 0. */
static inline uint32_t microaot_dsp_smin8(uint32_t x, uint32_t y) {
  uint32_t d, r;
  __asm__("ssub8 %[d], %[y], %[x]\n\tsel %[r], %[x], %[y]" : [d] "=&r"(d), [r] "=r"(r) : [x] "r"(x), [y] "r"(y) : "cc");
  return r;
}

/* The same for the two signed 16-bit lanes (SSUB16, SEL). */
static inline uint32_t microaot_dsp_smax16(uint32_t x, uint32_t y) {
  uint32_t d, r;
  __asm__("ssub16 %[d], %[x], %[y]\n\tsel %[r], %[x], %[y]"
          : [d] "=&r"(d), [r] "=r"(r)
          : [x] "r"(x), [y] "r"(y)
          : "cc");
  return r;
}

static inline uint32_t microaot_dsp_smin16(uint32_t x, uint32_t y) {
  uint32_t d, r;
  __asm__("ssub16 %[d], %[y], %[x]\n\tsel %[r], %[x], %[y]"
          : [d] "=&r"(d), [r] "=r"(r)
          : [x] "r"(x), [y] "r"(y)
          : "cc");
  return r;
}

/* SMMLAR: acc + the high word of x * y, rounded: (acc * 2^32 + x * y + 2^31) >> 32. */
static inline int32_t microaot_dsp_smmlar(int32_t x, int32_t y, int32_t acc) {
  int32_t r;
  __asm__("smmlar %0, %1, %2, %3" : "=r"(r) : "r"(x), "r"(y), "r"(acc));
  return r;
}

/* QADD: x + y saturated to int32. */
static inline int32_t microaot_dsp_qadd(int32_t x, int32_t y) {
  int32_t r;
  __asm__("qadd %0, %1, %2" : "=r"(r) : "r"(x), "r"(y));
  return r;
}

#else /* the same results in C */

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

static inline int32_t microaot_dsp_ssat8(int32_t x) { return x < -128 ? -128 : (x > 127 ? 127 : x); }

static inline int32_t microaot_dsp_ssat16(int32_t x) { return x < -32768 ? -32768 : (x > 32767 ? 32767 : x); }

static inline int32_t microaot_dsp_ssat31(int32_t x) {
  return x < -0x40000000 ? -0x40000000 : (x > 0x3FFFFFFF ? 0x3FFFFFFF : x);
}

static inline uint32_t microaot_dsp_sadd16(uint32_t x, uint32_t y) {
  return microaot_dsp_pack16(microaot_dsp_bottom(x) + microaot_dsp_bottom(y),
                             microaot_dsp_top(x) + microaot_dsp_top(y));
}

static inline uint32_t microaot_dsp_ssub16(uint32_t x, uint32_t y) {
  return microaot_dsp_pack16(microaot_dsp_bottom(x) - microaot_dsp_bottom(y),
                             microaot_dsp_top(x) - microaot_dsp_top(y));
}

static inline uint32_t microaot_dsp_pkhbt(uint32_t lo, uint32_t hi) { return (lo & 0xFFFFu) | hi << 16; }
static inline uint32_t microaot_dsp_pkhtb(uint32_t lo, uint32_t hi) { return (hi & 0xFFFF0000u) | lo >> 16; }

/* Byte k of the result from byte k of x or of y: the larger (smax8) or the smaller (smin8) as signed bytes. */
static inline uint32_t microaot_dsp_pick8(uint32_t x, uint32_t y, int larger) {
  uint32_t r = 0;
  int k;
  for (k = 0; k < 4; ++k) {
    const int x_wins = larger ? microaot_dsp_byte(x, k) >= microaot_dsp_byte(y, k)
                              : microaot_dsp_byte(x, k) <= microaot_dsp_byte(y, k);
    r |= ((x_wins ? x : y) >> (8 * k) & 0xFFu) << (8 * k);
  }
  return r;
}
static inline uint32_t microaot_dsp_smax8(uint32_t x, uint32_t y) { return microaot_dsp_pick8(x, y, 1); }
static inline uint32_t microaot_dsp_smin8(uint32_t x, uint32_t y) { return microaot_dsp_pick8(x, y, 0); }

static inline uint32_t microaot_dsp_pick16(uint32_t x, uint32_t y, int larger) {
  const int32_t xb = microaot_dsp_bottom(x), yb = microaot_dsp_bottom(y);
  const int32_t xt = microaot_dsp_top(x), yt = microaot_dsp_top(y);
  return larger ? microaot_dsp_pack16(xb > yb ? xb : yb, xt > yt ? xt : yt)
                : microaot_dsp_pack16(xb < yb ? xb : yb, xt < yt ? xt : yt);
}
static inline uint32_t microaot_dsp_smax16(uint32_t x, uint32_t y) { return microaot_dsp_pick16(x, y, 1); }
static inline uint32_t microaot_dsp_smin16(uint32_t x, uint32_t y) { return microaot_dsp_pick16(x, y, 0); }

/* In 64-bit unsigned arithmetic, which wraps as the hardware does; the high word is taken back as signed. */
static inline int32_t microaot_dsp_smmlar(int32_t x, int32_t y, int32_t acc) {
  const uint64_t sum = ((uint64_t)(uint32_t)acc << 32) + (uint64_t)((int64_t)x * y) + 0x80000000u;
  return (int32_t)(uint32_t)(sum >> 32);
}

static inline int32_t microaot_dsp_qadd(int32_t x, int32_t y) {
  const int64_t sum = (int64_t)x + y;
  return sum > INT32_MAX ? INT32_MAX : (sum < INT32_MIN ? INT32_MIN : (int32_t)sum);
}

#endif

#endif /* MICROAOT_DSP_H */
