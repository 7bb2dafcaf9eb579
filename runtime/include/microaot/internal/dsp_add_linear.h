/* ADD (or SUB) int8 over the compiler's linear form (microaot/kernels/add.h) for a cpu with the DSP extension:
 * the two-operand code the lean kernel (kernels/dsp/add_s8_linear.c) is made of, and the broadcast kernel
 * (kernels/dsp/add_s8_folded.c) falls back to where a folded bias would leave int32. Four elements per pass: one
 * word of each input, its bytes 1 and 3 (and, shifted left by 8, 0 and 2) masked into the top bytes of the 16-bit
 * lanes, so that each lane is q * 2^8 and SMLAWB / SMLAWT give the form's floor(m * q / 2^8) in one instruction
 * with the sum; SSAT #8 with ASR #16 is the floor and the clamp to int8. */
#ifndef MICROAOT_DSP_ADD_LINEAR_H
#define MICROAOT_DSP_ADD_LINEAR_H

#include "microaot/internal/dsp_fold.h"
#include "microaot/internal/dsp_word_multiply.h"
#include "microaot/kernels/add.h"

#define MICROAOT_DSP_LINEAR_LANE_MASK 0xFF00FF00u

typedef struct {
  int32_t form[3]; /* m1, m2, bias: one array, as microaot_add_linear_output reads it */
  int32_t lo, hi;
} microaot_dsp_linear_form;

static inline microaot_dsp_linear_form microaot_dsp_linear_form_of(const microaot_add_params_q* params,
                                                                   const int32_t* form) {
  microaot_dsp_linear_form f;
  f.form[0] = form[0];
  f.form[1] = form[1];
  f.form[2] = form[2];
  f.lo = params->activation_min;
  f.hi = params->activation_max;
  return f;
}

/* Four bytes clamped to [lo, hi] (each byte of lo4 and hi4 holding the bound): SSUB8 sets a byte's GE flag where
 * its difference is >= 0 and SEL picks by them, the four at once in place of four loads, compares and stores. */
static inline void microaot_dsp_linear_clamp4(int8_t* out, uint32_t lo4, uint32_t hi4) {
#if MICROAOT_DSP_ASM
  uint32_t w, ge;
  __asm__("ldr %[w], [%[out]]\n\t"
          "ssub8 %[ge], %[w], %[lo]\n\t"
          "sel %[w], %[w], %[lo]\n\t"
          "ssub8 %[ge], %[hi], %[w]\n\t"
          "sel %[w], %[w], %[hi]\n\t"
          "str %[w], [%[out]]"
          : [w] "=&r"(w), [ge] "=&r"(ge), "+m"(*(int8_t(*)[4])out)
          : [out] "r"(out), [lo] "r"(lo4), [hi] "r"(hi4)
          : "cc");
#else
  const int32_t lo = (int8_t)(lo4 & 0xFFu), hi = (int8_t)(hi4 & 0xFFu);
  int c;
  for (c = 0; c < 4; ++c) out[c] = (int8_t)microaot_clamp_s32(out[c], lo, hi);
#endif
}

/* Whether every sum of the form, its bias offset by `offset` (c * 2^16 for microaot_dsp_add_linear_run's packing),
 * stays within int32: at the extremes of both terms (each monotonic in q). */
static inline int microaot_dsp_linear_packs(const microaot_dsp_linear_form* f, int32_t offset) {
  int64_t low = (int64_t)f->form[2] + offset, high = low;
  int k;
  for (k = 0; k < 2; ++k) {
    const int32_t t0 = microaot_add_linear_term(f->form[k], -128), t1 = microaot_add_linear_term(f->form[k], 127);
    low += t0 < t1 ? t0 : t1;
    high += t0 < t1 ? t1 : t0;
  }
  return low >= INT32_MIN && high <= INT32_MAX;
}

/* n elements of contiguous inputs: eight at a time where the offset bias fits (the outputs packed by word, sixteen
 * a pass: 5.4 instructions per element with the int8 clamp, 5.9 with a narrower one, against 6 and 9.3), then four
 * at a time, then one by one. */
static inline void microaot_dsp_linear_flat(const microaot_dsp_linear_form* f, const int8_t* a, const int8_t* b,
                                            int8_t* out, int32_t n) {
  int8_t* const end4 = out + (n & ~3);
  const int32_t m1 = f->form[0], m2 = f->form[1], bias = f->form[2], lo = f->lo, hi = f->hi;
  const microaot_dsp_fold k = microaot_dsp_fold_of(lo, hi);
  const uint32_t lo4 = 0x01010101u * (uint8_t)lo, hi4 = 0x01010101u * (uint8_t)hi;
  int32_t c;
  if (n >= 8 && microaot_dsp_linear_packs(f, k.offset)) { /* USAT16 of the offset sums */
    int8_t* const end8 = out + (n & ~7);
    if (k.clamped) {
      microaot_dsp_add_linear_run_clamped(&a, &b, &out, end8, m1, m2, bias + k.offset, MICROAOT_DSP_LINEAR_LANE_MASK,
                                          k.floor4, k.lo4);
    } else {
      microaot_dsp_add_linear_run(&a, &b, &out, end8, m1, m2, bias + k.offset, MICROAOT_DSP_LINEAR_LANE_MASK);
    }
  }
  while (out != end4) { /* the last four, or a form whose offset sums do not fit */
    int8_t* const first = out;
    microaot_dsp_add_linear4(&a, &b, &out, m1, m2, bias, MICROAOT_DSP_LINEAR_LANE_MASK);
    if (k.clamped) microaot_dsp_linear_clamp4(first, lo4, hi4);
  }
  for (c = 0; c < (n & 3); ++c) out[c] = (int8_t)microaot_add_linear_output(f->form, a[c], b[c], lo, hi);
}

/* One row of the broadcast walk (microaot/broadcast.h) over the two operands: contiguous, or element by element. */
static inline void microaot_dsp_linear_row(const microaot_dsp_linear_form* f, const int8_t* a, const int8_t* b,
                                           const int32_t* step, int8_t* out, int32_t n) {
  int32_t c;
  if (step[0] == 1 && step[1] == 1) {
    microaot_dsp_linear_flat(f, a, b, out, n);
    return;
  }
  for (c = 0; c < n; ++c) out[c] = (int8_t)microaot_add_linear_output(f->form, a[c * step[0]], b[c * step[1]], f->lo, f->hi);
}

#endif /* MICROAOT_DSP_ADD_LINEAR_H */
