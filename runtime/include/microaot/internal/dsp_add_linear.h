/* ADD (or SUB) int8 over the compiler's linear form (microaot/kernels/add.h) for a cpu with the DSP extension:
 * the two-operand code the lean kernel (kernels/dsp/add_s8_linear.c) is made of, and the broadcast kernel
 * (kernels/dsp/add_s8_folded.c) falls back to where a folded bias would leave int32. Four elements per pass: one
 * word of each input, its bytes 1 and 3 (and, shifted left by 8, 0 and 2) masked into the top bytes of the 16-bit
 * lanes, so that each lane is q * 2^8 and SMLAWB / SMLAWT give the form's floor(m * q / 2^8) in one instruction
 * with the sum; SSAT #8 with ASR #16 is the floor and the clamp to int8. */
#ifndef MICROAOT_DSP_ADD_LINEAR_H
#define MICROAOT_DSP_ADD_LINEAR_H

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

/* n elements of contiguous inputs: four at a time, then one by one. */
static inline void microaot_dsp_linear_flat(const microaot_dsp_linear_form* f, const int8_t* a, const int8_t* b,
                                            int8_t* out, int32_t n) {
  int8_t* const end4 = out + (n & ~3);
  const int32_t m1 = f->form[0], m2 = f->form[1], bias = f->form[2], lo = f->lo, hi = f->hi;
  const int clamped = lo != -128 || hi != 127;
  const uint32_t lo4 = 0x01010101u * (uint8_t)lo, hi4 = 0x01010101u * (uint8_t)hi;
  int32_t c;
  if (!clamped) { /* the int8 range: SSAT is the whole clamp */
    while (out != end4) microaot_dsp_add_linear4(&a, &b, &out, m1, m2, bias, MICROAOT_DSP_LINEAR_LANE_MASK);
  }
  while (out != end4) {
    int8_t* const first = out;
    microaot_dsp_add_linear4(&a, &b, &out, m1, m2, bias, MICROAOT_DSP_LINEAR_LANE_MASK);
    microaot_dsp_linear_clamp4(first, lo4, hi4);
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
