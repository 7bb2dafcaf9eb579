/* ADD (or SUB) int8 over the compiler's linear form (microaot/kernels/add.h) for a cpu with the DSP extension.
 * Four elements per pass: one word of each input, its bytes 1 and 3 (and, shifted left by 8, 0 and 2) masked
 * into the top bytes of the 16-bit lanes, so that each lane is q * 2^8 and SMLAWB / SMLAWT give the form's
 * floor(m * q / 2^8) in one instruction with the sum; SSAT #8 with ASR #16 is the floor and the clamp to int8.
 * About six instructions per element against twenty for the rescaling of microaot_add_s8. */
#include "microaot/internal/dsp_word_multiply.h"
#include "microaot/kernels/add.h"

#define LINEAR_LANE_MASK 0xFF00FF00u

/* Four bytes clamped to [lo, hi] (each byte of lo4 and hi4 holding the bound): SSUB8 sets a byte's GE flag where
 * its difference is >= 0 and SEL picks by them, the four at once in place of four loads, compares and stores. */
static inline void linear_clamp4(int8_t* out, uint32_t lo4, uint32_t hi4) {
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

typedef struct {
  int32_t form[3]; /* m1, m2, bias: one array, as microaot_add_linear_output reads it */
  int32_t lo, hi;
} linear_form;

/* n elements of contiguous inputs: four at a time, then one by one. */
static void linear_flat(const linear_form* f, const int8_t* a, const int8_t* b, int8_t* out, int32_t n) {
  int8_t* const end4 = out + (n & ~3);
  const int32_t m1 = f->form[0], m2 = f->form[1], bias = f->form[2], lo = f->lo, hi = f->hi;
  const int clamped = lo != -128 || hi != 127;
  const uint32_t lo4 = 0x01010101u * (uint8_t)lo, hi4 = 0x01010101u * (uint8_t)hi;
  int32_t c;
  if (!clamped) { /* the int8 range: SSAT is the whole clamp */
    while (out != end4) microaot_dsp_add_linear4(&a, &b, &out, m1, m2, bias, LINEAR_LANE_MASK);
  }
  while (out != end4) {
    int8_t* const first = out;
    microaot_dsp_add_linear4(&a, &b, &out, m1, m2, bias, LINEAR_LANE_MASK);
    linear_clamp4(first, lo4, hi4);
  }
  for (c = 0; c < (n & 3); ++c) out[c] = (int8_t)microaot_add_linear_output(f->form, a[c], b[c], lo, hi);
}

static void linear_row(const void* form, const void* const* inputs, const ptrdiff_t* at, const int32_t* step,
                       void* output, ptrdiff_t done, int32_t n) {
  const linear_form* f = (const linear_form*)form;
  const int8_t* a = (const int8_t*)inputs[0] + at[0];
  const int8_t* b = (const int8_t*)inputs[1] + at[1];
  int8_t* out = (int8_t*)output + done;
  int32_t c;
  if (step[0] == 1 && step[1] == 1) {
    linear_flat(f, a, b, out, n);
    return;
  }
  for (c = 0; c < n; ++c) out[c] = (int8_t)microaot_add_linear_output(f->form, a[c * step[0]], b[c * step[1]], f->lo, f->hi);
}

void microaot_add_s8_linear(const microaot_add_params_q* params, const int8_t* input1, const int8_t* input2,
                            const int32_t* form, int8_t* output) {
  const microaot_broadcast walk = MICROAOT_BROADCAST_OF(params);
  const void* inputs[2];
  linear_form f;
  f.form[0] = form[0];
  f.form[1] = form[1];
  f.form[2] = form[2];
  f.lo = params->activation_min;
  f.hi = params->activation_max;
  if (params->num_dims == 0 && f.lo == -128 && f.hi == 127) { /* the int8 range: SSAT is the whole clamp */
    linear_flat(&f, input1, input2, output, params->flat_size);
    return;
  }
  inputs[0] = input1;
  inputs[1] = input2;
  microaot_broadcast_walk(&walk, &f, inputs, output, linear_row);
}
