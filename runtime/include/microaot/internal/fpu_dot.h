/* Float products added one at a time (the reference kernels' rounding: each product rounded, then each
 * addition), four a pass: a dot product into one sum, or element-wise products into as many sums. On an Arm FPU
 * with optimisation: VLDMs and four VMLAs a pass (VMLA rounds the product before it adds: the same results as
 * VMUL then VADD), a third of the instructions of the C loop; elsewhere the C loop. */
#ifndef MICROAOT_INTERNAL_FPU_DOT_H
#define MICROAOT_INTERNAL_FPU_DOT_H

#include <stdint.h>

/* The loops' assembly: a single-precision FPU and optimisation (at -O0 the C loops). */
#if defined(__ARM_FP) && (__ARM_FP & 4) && defined(__OPTIMIZE__)
#define MICROAOT_FPU_LOOPS 1
#else
#define MICROAOT_FPU_LOOPS 0
#endif

/* acc + x[0] * w[0] + x[1] * w[1] + ... + x[n - 1] * w[n - 1], added left to right. */
static inline float microaot_dot_f32(const float* x, const float* w, int32_t n, float acc) {
  int32_t k = 0;
#if MICROAOT_FPU_LOOPS
  if (n >= 4) {
    const float* const end = x + (n & ~3);
    __asm__(
        "1:\n\t"
        "vldmia %[x]!, {s8-s11}\n\t"
        "vldmia %[w]!, {s12-s15}\n\t"
        "vmla.f32 %[acc], s8, s12\n\t"
        "vmla.f32 %[acc], s9, s13\n\t"
        "vmla.f32 %[acc], s10, s14\n\t"
        "vmla.f32 %[acc], s11, s15\n\t"
        "cmp %[x], %[end]\n\t"
        "bne 1b"
        : [acc] "+t"(acc), [x] "+r"(x), [w] "+r"(w)
        : [end] "r"(end)
        : "s8", "s9", "s10", "s11", "s12", "s13", "s14", "s15", "cc", "memory");
    n &= 3;
  }
#endif
  for (; k < n; ++k) acc += x[k] * w[k];
  return acc;
}

/* sums[k] += x[k] * w[k] for k < n (a depthwise tap across the channels). */
static inline void microaot_madd_f32(float* sums, const float* x, const float* w, int32_t n) {
  int32_t k = 0;
#if MICROAOT_FPU_LOOPS
  if (n >= 4) {
    const float* const end = x + (n & ~3);
    __asm__(
        "1:\n\t"
        "vldmia %[x]!, {s8-s11}\n\t"
        "vldmia %[w]!, {s12-s15}\n\t"
        "vldm %[s], {s4-s7}\n\t"
        "vmla.f32 s4, s8, s12\n\t"
        "vmla.f32 s5, s9, s13\n\t"
        "vmla.f32 s6, s10, s14\n\t"
        "vmla.f32 s7, s11, s15\n\t"
        "vstmia %[s]!, {s4-s7}\n\t"
        "cmp %[x], %[end]\n\t"
        "bne 1b"
        : [s] "+r"(sums), [x] "+r"(x), [w] "+r"(w)
        : [end] "r"(end)
        : "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "s12", "s13", "s14", "s15", "cc", "memory");
    n &= 3;
  }
#endif
  for (; k < n; ++k) sums[k] += x[k] * w[k];
}

#endif /* MICROAOT_INTERNAL_FPU_DOT_H */
