/* The Helium (MVE, Armv8.1-M) primitives of the int8 matrix-product kernels (runtime/kernels/mve/): 16 int8
 * products per VMLADAVA, tail-predicated (VCTP) instead of scalar remainders, and the output step of four
 * channels at once, bit-exact with the portable kernels' arithmetic (microaot/fixedpoint.h):
 *   sum (x + input_offset) * w = sum x * w + input_offset * sum w,
 * the second term folded into the bias per output channel (mod 2^32, as the reference's int32 sums), so the
 * loop multiplies the int8 operands as they are. Only for a compiler with MVE (__ARM_FEATURE_MVE): the
 * kernels that include it take the portable code elsewhere. */
#ifndef MICROAOT_MVE_DOT_H
#define MICROAOT_MVE_DOT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)
#define MICROAOT_MVE 1
#include <arm_mve.h>

/* The assembly blocks that take more than seven general registers, where the compiler optimises. At -O0 GCC
 * gives inline assembly r0-r6 only (r7 the frame pointer: "impossible constraints"): a debug build takes their
 * C definitions, which give the same results. */
#if defined(__OPTIMIZE__)
#define MICROAOT_MVE_WIDE_ASM 1
#else
#define MICROAOT_MVE_WIDE_ASM 0
#endif

/* The output step's operands of an int8 layer (convolutions, FULLY_CONNECTED): per-channel requantization. */
typedef struct {
  const int32_t* multiplier;
  const int32_t* shift;
  int32_t output_offset, activation_min, activation_max;
  int32_t right_only; /* every shift is a right shift (< 0): the step's short form */
} microaot_mve_output_stage;

/* Whether every one of the channels' shifts is a right shift, as the compiler's usually are. */
static inline int32_t microaot_mve_right_only(const int32_t* shift, int32_t channels) {
  int32_t c;
  for (c = 0; c < channels; ++c) {
    if (shift[c] >= 0) return 0;
  }
  return 1;
}

#define MICROAOT_MVE_OUTPUT_STAGE(p, channels)                                                            \
  {(p)->output_multiplier, (p)->output_shift, (p)->output_offset, (p)->activation_min, (p)->activation_max, \
   microaot_mve_right_only((p)->output_shift, channels)}

/* Whether every channel's shift is one the vector step computes: a left shift below 31 or a right shift of at
 * most 31 (VRSHL's range; the compiler's are far inside it). Else the kernel takes the portable code. */
static inline int microaot_mve_shifts_fit(const int32_t* shift, int32_t channels) {
  int32_t c;
  for (c = 0; c < channels; ++c) {
    if (shift[c] > 30 || shift[c] < -31) return 0;
  }
  return 1;
}

/* Both checks in one pass (a small layer feels a pass per call): -1 when a shift is outside the vector step's
 * range (microaot_mve_shifts_fit), else whether every shift is a right shift (microaot_mve_right_only). */
static inline int32_t microaot_mve_shift_form(const int32_t* shift, int32_t channels) {
  int32_t c, right_only = 1;
  for (c = 0; c < channels; ++c) {
    if (shift[c] > 30 || shift[c] < -31) return -1;
    right_only &= shift[c] < 0;
  }
  return right_only;
}

/* The stage of a layer whose shifts' form (microaot_mve_shift_form) is known. */
#define MICROAOT_MVE_OUTPUT_STAGE_FORM(p, form) \
  {(p)->output_multiplier, (p)->output_shift, (p)->output_offset, (p)->activation_min, (p)->activation_max, form}

/* Sum of n int8 weights (the folded input offset's factor): a tail-predicated loop in assembly, 3 instructions
 * per 16 weights (GCC's form of the intrinsics took 10, the predicate through VPR each time). */
static inline int32_t microaot_mve_sum_s8(const int8_t* w, int32_t n) {
  int32_t sum = 0;
  __asm__ volatile(
      "wlstp.8 lr, %[n], 2f\n"
      "1:\n\t"
      "vldrb.8 q0, [%[w]], #16\n\t"
      "vaddva.s8 %[sum], q0\n\t"
      "letp lr, 1b\n"
      "2:\n"
      : [sum] "+Te"(sum), [w] "+r"(w)
      : [n] "r"(n)
      : "q0", "lr", "memory");
  return sum;
}

static inline void microaot_mve_set4(int32_t acc[4], int32_t a, int32_t b, int32_t c, int32_t d) {
  acc[0] = a;
  acc[1] = b;
  acc[2] = c;
  acc[3] = d;
}

/* The loops are assembly: GCC 12 spills the accumulators of the intrinsics' form inside the loop. Each is a
 * tail-predicated low-overhead loop (WLSTP.8 / LETP: 16 elements per iteration, the last iteration's lanes
 * past n inactive, so its loads read nothing past the rows and its products add nothing); "Te" is an even
 * register, which VMLADAVA's accumulator must be. */

/* Two rows x0, x1 against two weight rows w0, w1 (n int8 each): acc[2 * i + j] += x_i . w_j. Per 16 elements:
 * four loads, four VMLADAVA, the LETP (0.14 instructions per product). */
static inline void microaot_mve_dot_2x2(const int8_t* x0, const int8_t* x1, const int8_t* w0, const int8_t* w1,
                                        int32_t n, int32_t acc[4]) {
  int32_t s00 = acc[0], s01 = acc[1], s10 = acc[2], s11 = acc[3];
  __asm__ volatile(
      "wlstp.8 lr, %[n], 2f\n"
      "1:\n\t"
      "vldrb.8 q0, [%[x0]], #16\n\t"
      "vldrb.8 q1, [%[w0]], #16\n\t"
      "vmladava.s8 %[s00], q0, q1\n\t"
      "vldrb.8 q2, [%[x1]], #16\n\t"
      "vmladava.s8 %[s10], q2, q1\n\t"
      "vldrb.8 q1, [%[w1]], #16\n\t"
      "vmladava.s8 %[s01], q0, q1\n\t"
      "vmladava.s8 %[s11], q2, q1\n\t"
      "letp lr, 1b\n"
      "2:\n"
      : [s00] "+Te"(s00), [s01] "+Te"(s01), [s10] "+Te"(s10), [s11] "+Te"(s11), [x0] "+r"(x0), [x1] "+r"(x1),
        [w0] "+r"(w0), [w1] "+r"(w1)
      : [n] "r"(n)
      : "q0", "q1", "q2", "lr", "memory");
  microaot_mve_set4(acc, s00, s01, s10, s11);
}

/* One row x against weight rows w0, w1 with the weights' sums (the input offset's factors):
 * acc[j] += x . w_j, acc[2 + j] += the sum of w_j. Per 16 elements: three loads, two VMLADAVA, two VADDVA,
 * the LETP (0.25 instructions per product). */
static inline void microaot_mve_dot_1x2_sums(const int8_t* x, const int8_t* w0, const int8_t* w1, int32_t n,
                                             int32_t acc[4]) {
  int32_t s0 = acc[0], s1 = acc[1], t0 = acc[2], t1 = acc[3];
  __asm__ volatile(
      "wlstp.8 lr, %[n], 2f\n"
      "1:\n\t"
      "vldrb.8 q0, [%[x]], #16\n\t"
      "vldrb.8 q1, [%[w0]], #16\n\t"
      "vmladava.s8 %[s0], q0, q1\n\t"
      "vaddva.s8 %[t0], q1\n\t"
      "vldrb.8 q2, [%[w1]], #16\n\t"
      "vmladava.s8 %[s1], q0, q2\n\t"
      "vaddva.s8 %[t1], q2\n\t"
      "letp lr, 1b\n"
      "2:\n"
      : [s0] "+Te"(s0), [s1] "+Te"(s1), [t0] "+Te"(t0), [t1] "+Te"(t1), [x] "+r"(x), [w0] "+r"(w0), [w1] "+r"(w1)
      : [n] "r"(n)
      : "q0", "q1", "q2", "lr", "memory");
  microaot_mve_set4(acc, s0, s1, t0, t1);
}

/* The output step of four channels from c on (`full`, a constant where it is inlined: all four, unpredicated;
 * else the lanes p keeps): microaot_multiply_by_quantized_multiplier's left shift (wrapping), VQRDMULH (the
 * saturating rounding doubling high multiply), then the rounding right shift with ties away from zero (VRSHL
 * rounds ties up: a negative value is lowered by one first when it shifts), + output offset, clamp. */
static inline __attribute__((always_inline)) void microaot_mve_output4(const microaot_mve_output_stage o,
                                                                       const int32_t* acc, int32_t c, int full,
                                                                       mve_pred16_t p, int8_t* out) {
  const int32x4_t shift = full ? vldrwq_s32(o.shift + c) : vldrwq_z_s32(o.shift + c, p);
  const int32x4_t left = vmaxq_s32(shift, vdupq_n_s32(0));
  const int32x4_t right = vsubq_s32(left, shift); /* -shift where it is negative */
  int32x4_t v = vshlq_s32(full ? vldrwq_s32(acc + c) : vldrwq_z_s32(acc + c, p), left);
  v = vqrdmulhq_s32(v, full ? vldrwq_s32(o.multiplier + c) : vldrwq_z_s32(o.multiplier + c, p));
  v = vaddq_m_s32(v, v, vshrq_n_s32(v, 31), vcmpgtq_n_s32(right, 0));
  v = vrshlq_s32(v, vnegq_s32(right));
  v = vaddq_n_s32(v, o.output_offset);
  v = vminq_s32(vmaxq_s32(v, vdupq_n_s32(o.activation_min)), vdupq_n_s32(o.activation_max));
  if (full) {
    vstrbq_s32(out + c, v);
  } else {
    vstrbq_p_s32(out + c, v, p);
  }
}

/* The short form of microaot_mve_output4 for four whole channels whose shifts are all right shifts: no left
 * shift, and every lane takes the ties' fix-up (v + (v >> 31) lowers a negative value by one). */
static inline __attribute__((always_inline)) void microaot_mve_output4_right(const microaot_mve_output_stage o,
                                                                             const int32_t* acc, int32_t c,
                                                                             int8_t* out) {
  int32x4_t v = vqrdmulhq_s32(vldrwq_s32(acc + c), vldrwq_s32(o.multiplier + c));
  v = vaddq_s32(v, vshrq_n_s32(v, 31));
  v = vrshlq_s32(v, vldrwq_s32(o.shift + c));
  v = vaddq_n_s32(v, o.output_offset);
  v = vminq_s32(vmaxq_s32(v, vdupq_n_s32(o.activation_min)), vdupq_n_s32(o.activation_max));
  vstrbq_s32(out + c, v);
}

/* The output step of `channels` sums (bias already in), stored as int8 at out: whole vectors of four channels
 * unpredicated (the short form where the stage's shifts allow), the last one to three predicated. The stage is
 * copied into locals (the stores through `out` would make the compiler load its fields again per vector).
 * Always inlined: a call per pixel costs more. */
static inline __attribute__((always_inline)) void microaot_mve_output_row(const microaot_mve_output_stage* stage,
                                                                          const int32_t* acc, int32_t channels,
                                                                          int8_t* out) {
  const microaot_mve_output_stage o = *stage;
  int32_t c;
  if (o.right_only) {
    for (c = 0; c + 4 <= channels; c += 4) microaot_mve_output4_right(o, acc, c, out);
  } else {
    for (c = 0; c + 4 <= channels; c += 4) microaot_mve_output4(o, acc, c, 1, 0, out);
  }
  if (c < channels) microaot_mve_output4(o, acc, c, 0, vctp32q((uint32_t)(channels - c)), out);
}

/* The unit pairs' loop of one row (microaot_mve_unit_pairs): the operands at fixed offsets, which its assembly
 * reads. */
typedef struct {
  const int8_t* x;     /* the row, read again for every pair */
  const int8_t* w;     /* the next pair's weights: two rows of n (the loop advances it) */
  const int32_t* bias; /* two per pair; may be `sums` itself (zeros there: no bias) */
  int32_t* sums;
  int32_t n;
  int32_t pairs; /* at least one */
  int32_t input_offset;
} microaot_mve_unit_job;

/* What microaot_mve_unit_pairs' assembly assumes (C99 has no static_assert: an array of negative size fails). */
typedef char microaot_mve_unit_job_layout[(offsetof(microaot_mve_unit_job, w) == 4 &&
                                           offsetof(microaot_mve_unit_job, bias) == 8 &&
                                           offsetof(microaot_mve_unit_job, sums) == 12 &&
                                           offsetof(microaot_mve_unit_job, n) == 16 &&
                                           offsetof(microaot_mve_unit_job, pairs) == 20 &&
                                           offsetof(microaot_mve_unit_job, input_offset) == 24)
                                              ? 1
                                              : -1];

/* One row times `pairs` unit pairs: sums[u] = bias[u] + x . w_u + input_offset * the sum of w_u (mod 2^32), the
 * products and weight sums in microaot_mve_dot_1x2_sums' loop. The whole loop in assembly (a naked function:
 * every register its own), so that a pair costs 16 instructions besides its products (the C loop took about
 * 44, which the small layers feel). r12 holds the job, r0, r2 the products, r4, r6 the weight sums (even:
 * VMLADAVA's and VADDVA's accumulators), r1 the row, r5, r7 the weight rows, r8 the sums' pointer, r9 the
 * biases', r10 n, r11 the input offset, r3 the pairs left. */
static __attribute__((naked, noipa, unused)) void microaot_mve_unit_pairs(
    microaot_mve_unit_job* job __attribute__((unused))) {
  __asm__ volatile(
      "push {r4-r11, lr}\n\t"
      "mov r12, r0\n\t"
      "ldrd r9, r8, [r12, #8]\n\t"
      "ldrd r10, r3, [r12, #16]\n\t"
      "ldr r11, [r12, #24]\n"
      "1:\n\t"
      "ldrd r1, r5, [r12]\n\t"
      "add r7, r5, r10\n\t"
      "add lr, r7, r10\n\t"
      "str lr, [r12, #4]\n\t"
      "movs r0, #0\n\t"
      "movs r2, #0\n\t"
      "movs r4, #0\n\t"
      "movs r6, #0\n\t"
      "wlstp.8 lr, r10, 3f\n"
      "2:\n\t"
      "vldrb.8 q0, [r1], #16\n\t"
      "vldrb.8 q1, [r5], #16\n\t"
      "vmladava.s8 r0, q0, q1\n\t"
      "vaddva.s8 r4, q1\n\t"
      "vldrb.8 q2, [r7], #16\n\t"
      "vmladava.s8 r2, q0, q2\n\t"
      "vaddva.s8 r6, q2\n\t"
      "letp lr, 2b\n"
      "3:\n\t"
      "mla r0, r4, r11, r0\n\t"
      "mla r2, r6, r11, r2\n\t"
      "ldrd r4, r6, [r9], #8\n\t"
      "add r0, r0, r4\n\t"
      "add r2, r2, r6\n\t"
      "strd r0, r2, [r8], #8\n\t"
      "subs r3, r3, #1\n\t"
      "bne 1b\n\t"
      "pop {r4-r11, pc}\n");
}

/* The units whose sums microaot_mve_row_times_units holds on the stack: the output step runs per chunk. */
#define MICROAOT_MVE_UNITS_CHUNK 64

/* One row of `depth` int8 times `units` weight rows (weights [units, depth]) into out[units]: unit u's sum is
 * bias[u] + row . w_u + input_offset * the sum of w_u (mod 2^32, as the reference's int32 sums), the weight
 * sums taken in the products' loop, so that no pass over the weights comes first: the unit pairs in
 * microaot_mve_unit_pairs, an odd last unit in microaot_mve_dot_1x2_sums; then the output step per chunk of
 * units. The FULLY_CONNECTED kernel's rows, and a convolution's single output pixel. */
static inline void microaot_mve_row_times_units(const int8_t* row, const int8_t* weights, int32_t depth,
                                                int32_t units, const int32_t* bias, int32_t input_offset,
                                                const microaot_mve_output_stage* stage, int8_t* out) {
  int32_t sums[MICROAOT_MVE_UNITS_CHUNK], acc[4];
  microaot_mve_output_stage chunk = *stage;
  int32_t first;
  for (first = 0; first < units; first += MICROAOT_MVE_UNITS_CHUNK) {
    const int32_t count = units - first < MICROAOT_MVE_UNITS_CHUNK ? units - first : MICROAOT_MVE_UNITS_CHUNK;
    const int8_t* w = weights + (size_t)first * (size_t)depth;
    if (count >= 2) {
      microaot_mve_unit_job job = {row, w, bias != NULL ? bias + first : sums, sums, depth, count / 2, input_offset};
      if (bias == NULL) memset(sums, 0, sizeof sums); /* the loop reads each pair's "bias" before it stores */
      microaot_mve_unit_pairs(&job);
    }
    if ((count & 1) != 0) {
      const int8_t* last = w + (size_t)(count - 1) * (size_t)depth;
      microaot_mve_set4(acc, 0, 0, 0, 0);
      microaot_mve_dot_1x2_sums(row, last, last, depth, acc);
      sums[count - 1] = (int32_t)((uint32_t)(bias != NULL ? bias[first + count - 1] : 0) + (uint32_t)acc[0] +
                                  (uint32_t)input_offset * (uint32_t)acc[2]);
    }
    chunk.multiplier = stage->multiplier + first; /* the chunk's own units' requantization */
    chunk.shift = stage->shift + first;
    microaot_mve_output_row(&chunk, sums, count, out + first);
  }
}

#else
#define MICROAOT_MVE 0
#endif /* __ARM_FEATURE_MVE */

#endif /* MICROAOT_MVE_DOT_H */
