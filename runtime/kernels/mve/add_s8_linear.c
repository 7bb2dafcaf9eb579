/* ADD (or SUB) int8 over the compiler's linear form (microaot/kernels/add.h) with Helium (MVE), bit-exact with
 * the portable kernel. Four elements a vector: each input loaded as int32 lanes, shifted to the top byte, so
 * that VMULH (the high word of the 64-bit product) gives the form's floor(m * q / 2^8) exactly; the bias added,
 * the arithmetic shift by 16 is the floor, then the clamp and a narrowing store. A broadcast input (step 0) or
 * a strided one is read by a gather load; the row's last elements are predicated, no scalar remainder. About
 * 3.3 instructions per element against the DSP kernel's six. */
#include "microaot/internal/mve_dot.h"
#include "microaot/kernels/add.h"

typedef struct {
  int32_t m1, m2, bias, lo, hi;
} linear_form;

#if MICROAOT_MVE
#if MICROAOT_MVE_WIDE_ASM
/* Contiguous inputs: a tail-predicated low-overhead loop (DLSTP.32 / LETP), four elements an iteration, the last
 * one's lanes past n inactive. Assembly: GCC 12 reloads the form and rebuilds the predicate every iteration. */
static void linear_flat(const linear_form* f, const int8_t* a, const int8_t* b, int8_t* out, int32_t n) {
  __asm__ volatile(
      "vdup.32 q0, %[m1]\n\t"
      "vdup.32 q1, %[m2]\n\t"
      "vdup.32 q2, %[lo]\n\t"
      "vdup.32 q3, %[hi]\n\t"
      "dlstp.32 lr, %[n]\n"
      "1:\n\t"
      "vldrb.s32 q4, [%[a]], #4\n\t"
      "vldrb.s32 q5, [%[b]], #4\n\t"
      "vshl.i32 q4, q4, #24\n\t"
      "vshl.i32 q5, q5, #24\n\t"
      "vmulh.s32 q4, q4, q0\n\t"
      "vmulh.s32 q5, q5, q1\n\t"
      "vadd.i32 q4, q4, %[bias]\n\t"
      "vadd.i32 q4, q4, q5\n\t"
      "vshr.s32 q4, q4, #16\n\t"
      "vmax.s32 q4, q4, q2\n\t"
      "vmin.s32 q4, q4, q3\n\t"
      "vstrb.32 q4, [%[out]], #4\n\t"
      "letp lr, 1b\n"
      : [a] "+l"(a), [b] "+l"(b), [out] "+l"(out) /* widening loads, narrowing store: r0-r7 */
      : [n] "r"(n), [m1] "r"(f->m1), [m2] "r"(f->m2), [lo] "r"(f->lo), [hi] "r"(f->hi), [bias] "r"(f->bias)
      : "q0", "q1", "q2", "q3", "q4", "q5", "lr", "memory");
}
#endif

/* Strided or broadcast inputs (step 0): gather loads of every step-th element, the last lanes predicated. */
static void linear_strided(const linear_form* f, const int8_t* a, int32_t step_a, const int8_t* b, int32_t step_b,
                           int8_t* out, int32_t n) {
  const uint32x4_t lanes = vidupq_n_u32(0, 1);
  const uint32x4_t off_a = vmulq_n_u32(lanes, (uint32_t)step_a), off_b = vmulq_n_u32(lanes, (uint32_t)step_b);
  const int32x4_t m1 = vdupq_n_s32(f->m1), m2 = vdupq_n_s32(f->m2);
  const int32x4_t lo = vdupq_n_s32(f->lo), hi = vdupq_n_s32(f->hi);
  const int32_t bias = f->bias;
  for (; n > 0; n -= 4, a += 4 * step_a, b += 4 * step_b, out += 4) {
    const mve_pred16_t p = vctp32q((uint32_t)n);
    int32x4_t v = vaddq_n_s32(vmulhq_s32(vshlq_n_s32(vldrbq_gather_offset_z_s32(a, off_a, p), 24), m1), bias);
    v = vaddq_s32(v, vmulhq_s32(vshlq_n_s32(vldrbq_gather_offset_z_s32(b, off_b, p), 24), m2));
    v = vminq_s32(vmaxq_s32(vshrq_n_s32(v, MICROAOT_ADD_LINEAR_SHIFT), lo), hi);
    vstrbq_p_s32(out, v, p);
  }
}

#if !MICROAOT_MVE_WIDE_ASM
/* -O0: contiguous inputs by the gathers, step 1. */
static void linear_flat(const linear_form* f, const int8_t* a, const int8_t* b, int8_t* out, int32_t n) {
  linear_strided(f, a, 1, b, 1, out, n);
}
#endif

static void linear_row(const void* form, const void* const* inputs, const ptrdiff_t* at, const int32_t* step,
                       void* output, ptrdiff_t done, int32_t n) {
  const linear_form* f = (const linear_form*)form;
  const int8_t* a = (const int8_t*)inputs[0] + at[0];
  const int8_t* b = (const int8_t*)inputs[1] + at[1];
  int8_t* out = (int8_t*)output + done;
  if (step[0] == 1 && step[1] == 1) {
    linear_flat(f, a, b, out, n);
  } else {
    linear_strided(f, a, step[0], b, step[1], out, n);
  }
}
#else
/* Without MVE (the host's compile check): the portable loop. */
static void linear_row(const void* form, const void* const* inputs, const ptrdiff_t* at, const int32_t* step,
                       void* output, ptrdiff_t done, int32_t n) {
  const linear_form* f = (const linear_form*)form;
  const int32_t terms[3] = {f->m1, f->m2, f->bias};
  const int8_t* a = (const int8_t*)inputs[0] + at[0];
  const int8_t* b = (const int8_t*)inputs[1] + at[1];
  int8_t* out = (int8_t*)output + done;
  int32_t c;
  for (c = 0; c < n; ++c) out[c] = (int8_t)microaot_add_linear_output(terms, a[c * step[0]], b[c * step[1]], f->lo, f->hi);
}
#endif /* MICROAOT_MVE */

void microaot_add_s8_linear(const microaot_add_params_q* params, const int8_t* input1, const int8_t* input2,
                            const int32_t* form, int8_t* output) {
  const microaot_broadcast walk = MICROAOT_BROADCAST_OF(params);
  const void* inputs[2];
  linear_form f;
  f.m1 = form[0];
  f.m2 = form[1];
  f.bias = form[2];
  f.lo = params->activation_min;
  f.hi = params->activation_max;
  inputs[0] = input1;
  inputs[1] = input2;
  microaot_broadcast_walk(&walk, &f, inputs, output, linear_row);
}
