/* Rounding a float quotient half away from zero (QUANTIZE's round(x / scale), TFLM's AffineQuantize) without a
 * call of roundf, which costs about 30 instructions an element on a Cortex-M4F. An Arm FPU's VCVT to a
 * fixed-point value with one fraction bit gives t = trunc(2q) exactly (it scales by 2 before it truncates),
 * saturated to the destination's width, NaN as 0; and
 *   round_half_away(q) = (t + 1) >> 1 for t >= 0, t >> 1 for t < 0, that is (t + (t >> 31) + 1) >> 1
 * (for q >= 0, floor(q + 1/2) = floor((floor(2q) + 1) / 2); below 0 the same mirrored). Without a single-precision
 * FPU (a host build, a Cortex-M3) the C definitions give the same results. */
#ifndef MICROAOT_INTERNAL_FPU_ROUND_H
#define MICROAOT_INTERNAL_FPU_ROUND_H

#include <stdint.h>

#if defined(__ARM_FP) && (__ARM_FP & 4)

/* trunc(2q) saturated to int16 (VCVT.S16 sign-extends into the register). */
static inline int32_t microaot_twice_truncated_s16(float q) {
  int32_t t;
  __asm__("vcvt.s16.f32 %1, %1, #1\n\tvmov %0, %1" : "=r"(t), "+t"(q));
  return t;
}

/* trunc(2q) saturated to 18 bits (to int32 by VCVT, then SSAT). */
static inline int32_t microaot_twice_truncated_s18(float q) {
  int32_t t;
  __asm__("vcvt.s32.f32 %1, %1, #1\n\tvmov %0, %1\n\tssat %0, #18, %0" : "=r"(t), "+t"(q));
  return t;
}

/* clamp(x >> 1) to int8, to int16: SSAT with its shift. */
static inline int32_t microaot_halve_saturate_s8(int32_t x) {
  int32_t r;
  __asm__("ssat %0, #8, %1, asr #1" : "=r"(r) : "r"(x));
  return r;
}
static inline int32_t microaot_halve_saturate_s16(int32_t x) {
  int32_t r;
  __asm__("ssat %0, #16, %1, asr #1" : "=r"(r) : "r"(x));
  return r;
}

#else

/* trunc(2q) within [lo, hi] (NaN: 0); the doubling is exact. */
static inline int32_t microaot_twice_truncated_within(float q, int32_t lo, int32_t hi) {
  if (q != q) return 0;
  if (2.0f * q >= (float)hi) return hi;
  if (2.0f * q <= (float)lo) return lo;
  return (int32_t)(2.0f * q);
}

static inline int32_t microaot_twice_truncated_s16(float q) {
  return microaot_twice_truncated_within(q, INT16_MIN, INT16_MAX);
}
static inline int32_t microaot_twice_truncated_s18(float q) {
  return microaot_twice_truncated_within(q, -131072, 131071);
}

static inline int32_t microaot_halve_saturate_within(int32_t x, int32_t lo, int32_t hi) {
  return (x >> 1) < lo ? lo : (x >> 1) > hi ? hi : (x >> 1);
}
static inline int32_t microaot_halve_saturate_s8(int32_t x) {
  return microaot_halve_saturate_within(x, INT8_MIN, INT8_MAX);
}
static inline int32_t microaot_halve_saturate_s16(int32_t x) {
  return microaot_halve_saturate_within(x, INT16_MIN, INT16_MAX);
}

#endif

/* 2 * (round_half_away(q) + offset) + (0 or 1) from t = trunc(2q) and bias = 2 * offset + 1: halved, it is the
 * rounded quotient plus the offset. */
static inline int32_t microaot_twice_rounded(int32_t t, int32_t bias) { return t + (t >> 31) + bias; }

#endif /* MICROAOT_INTERNAL_FPU_ROUND_H */
