/* One int8 row times weight rows over a bias the compiler folded (microaot/kernels/mve_folded.h): no weight sums
 * in the loop (the input offset's products are in the bias), so that one row goes against four units per step:
 * per 16 elements one row load, four weight loads, four VMLADAVA and the LETP (0.16 instructions per product,
 * against 0.25 for microaot_mve_row_times_units' two units with their sums). Only with MVE. */
#ifndef MICROAOT_MVE_UNITS_H
#define MICROAOT_MVE_UNITS_H

#include "microaot/fixedpoint.h"
#include "microaot/internal/mve_dot.h"

/* The plain C output of channel c from its sum over the folded bias (the reference's requantization, offset,
 * clamp), for the kernels' code without MVE and for the layers the vector code does not take. */
#define MICROAOT_FOLDED_OUTPUT(p, acc, c)                                                                      \
  ((int8_t)microaot_clamp_s32(                                                                                 \
      microaot_multiply_by_quantized_multiplier((acc), (p)->output_multiplier[c], (int)(p)->output_shift[c]) + \
          (p)->output_offset,                                                                                 \
      (p)->activation_min, (p)->activation_max))

#if MICROAOT_MVE
/* The unit quads' loop of one row (microaot_mve_unit_quads): the operands at fixed offsets, which its assembly
 * reads. */
typedef struct {
  const int8_t* x;       /* the row, read again for every quad */
  const int8_t* w;       /* the next quad's weights: four rows of n (the loop advances it) */
  const int32_t* folded; /* the next quad's folded biases (the loop advances it) */
  int32_t* sums;
  int32_t n;
  int32_t quads; /* at least one */
} microaot_mve_quad_job;

typedef char microaot_mve_quad_job_layout[(offsetof(microaot_mve_quad_job, w) == 4 &&
                                           offsetof(microaot_mve_quad_job, folded) == 8 &&
                                           offsetof(microaot_mve_quad_job, sums) == 12 &&
                                           offsetof(microaot_mve_quad_job, n) == 16 &&
                                           offsetof(microaot_mve_quad_job, quads) == 20)
                                              ? 1
                                              : -1];

/* One row times `quads` quads of units: sums[u] = folded[u] + x . w_u (mod 2^32). A naked function (every
 * register its own): 16 instructions per quad besides the products. r12 holds the job, r0, r2, r4, r6 (even:
 * VMLADAVA's accumulators) the sums, r1 the row, r3, r5, r7, r9 the weight rows, r8 the sums' pointer, r10 n,
 * r11 the quads left; the weights' and biases' pointers go back to the job each quad. */
static __attribute__((naked, noipa, unused)) void microaot_mve_unit_quads(
    microaot_mve_quad_job* job __attribute__((unused))) {
  __asm__ volatile(
      "push {r4-r11, lr}\n\t"
      "mov r12, r0\n\t"
      "ldr r8, [r12, #12]\n\t"
      "ldrd r10, r11, [r12, #16]\n"
      "1:\n\t"
      "ldrd r1, r3, [r12]\n\t"
      "add r5, r3, r10\n\t"
      "add r7, r5, r10\n\t"
      "add r9, r7, r10\n\t"
      "add lr, r9, r10\n\t"
      "str lr, [r12, #4]\n\t"
      "ldr lr, [r12, #8]\n\t"
      "ldrd r0, r2, [lr], #8\n\t"
      "ldrd r4, r6, [lr], #8\n\t"
      "str lr, [r12, #8]\n\t"
      "wlstp.8 lr, r10, 3f\n"
      "2:\n\t"
      "vldrb.8 q0, [r1], #16\n\t"
      "vldrb.8 q1, [r3], #16\n\t"
      "vmladava.s8 r0, q0, q1\n\t"
      "vldrb.8 q2, [r5], #16\n\t"
      "vmladava.s8 r2, q0, q2\n\t"
      "vldrb.8 q3, [r7], #16\n\t"
      "vmladava.s8 r4, q0, q3\n\t"
      "vldrb.8 q1, [r9], #16\n\t"
      "vmladava.s8 r6, q0, q1\n\t"
      "letp lr, 2b\n"
      "3:\n\t"
      "strd r0, r2, [r8], #8\n\t"
      "strd r4, r6, [r8], #8\n\t"
      "subs r11, r11, #1\n\t"
      "bne 1b\n\t"
      "pop {r4-r11, pc}\n");
}

/* acc + x . w over n int8 (tail-predicated): a quad's last one to three units. */
static inline int32_t microaot_mve_dot_1x1(const int8_t* x, const int8_t* w, int32_t n, int32_t acc) {
  __asm__ volatile(
      "wlstp.8 lr, %[n], 2f\n"
      "1:\n\t"
      "vldrb.8 q0, [%[x]], #16\n\t"
      "vldrb.8 q1, [%[w]], #16\n\t"
      "vmladava.s8 %[s], q0, q1\n\t"
      "letp lr, 1b\n"
      "2:\n"
      : [s] "+Te"(acc), [x] "+r"(x), [w] "+r"(w)
      : [n] "r"(n)
      : "q0", "q1", "lr", "memory");
  return acc;
}

/* One row of `depth` int8 times `units` weight rows (weights [units, depth]) into out[units] over the folded
 * biases: the quads in microaot_mve_unit_quads, the last units one by one, then the output step, per chunk of
 * MICROAOT_MVE_UNITS_CHUNK units (each chunk's own multipliers and shifts). */
static inline void microaot_mve_row_times_folded(const int8_t* row, const int8_t* weights, int32_t depth,
                                                 int32_t units, const int32_t* folded,
                                                 const microaot_mve_output_stage* stage, int8_t* out) {
  int32_t sums[MICROAOT_MVE_UNITS_CHUNK];
  microaot_mve_output_stage chunk = *stage;
  int32_t first, u;
  for (first = 0; first < units; first += MICROAOT_MVE_UNITS_CHUNK) {
    const int32_t count = units - first < MICROAOT_MVE_UNITS_CHUNK ? units - first : MICROAOT_MVE_UNITS_CHUNK;
    const int8_t* w = weights + (size_t)first * (size_t)depth;
    if (count >= 4) {
      microaot_mve_quad_job job = {row, w, folded + first, sums, depth, count / 4};
      microaot_mve_unit_quads(&job);
    }
    for (u = count & ~3; u < count; ++u) {
      sums[u] = microaot_mve_dot_1x1(row, w + (size_t)u * (size_t)depth, depth, folded[first + u]);
    }
    chunk.multiplier = stage->multiplier + first;
    chunk.shift = stage->shift + first;
    microaot_mve_output_row(&chunk, sums, count, out + first);
  }
}
#endif /* MICROAOT_MVE */

#endif /* MICROAOT_MVE_UNITS_H */
