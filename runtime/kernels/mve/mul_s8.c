/* MUL int8 with Helium (MVE), bit-exact with the portable kernel (TFLM's arithmetic: the product of the offset
 * inputs, one rescale). Four elements a vector: the inputs loaded as int32 lanes (a broadcast or strided input
 * by a gather load), offset and multiplied, then the rescale as microaot_multiply_by_quantized_multiplier (the
 * left shift wrapping, VQRDMULH, the rounding right shift with ties away from zero: VRSHL rounds ties up, so a
 * negative value is lowered by one first), output offset, clamp; the row's last lanes predicated. A shift
 * outside VRSHL's range takes the portable element; so does a build without MVE. */
#include "microaot/internal/mve_dot.h"
#include "microaot/kernels/mul.h"

#if MICROAOT_MVE
static void mul_portable_row(const void* params, const void* const* inputs, const ptrdiff_t* at,
                             const int32_t* step, void* output, ptrdiff_t done, int32_t n) {
  const microaot_mul_params_q* p = (const microaot_mul_params_q*)params;
  const int8_t* a = (const int8_t*)inputs[0] + at[0];
  const int8_t* b = (const int8_t*)inputs[1] + at[1];
  int8_t* out = (int8_t*)output + done;
  int32_t c;
  for (c = 0; c < n; ++c) out[c] = (int8_t)microaot_mul_quantized_element(p, a[c * step[0]], b[c * step[1]]);
}

static inline __attribute__((always_inline)) int32x4_t mul_load(const int8_t* q, int contiguous,
                                                                uint32x4_t offsets, mve_pred16_t p) {
  return contiguous ? vldrbq_z_s32(q, p) : vldrbq_gather_offset_z_s32(q, offsets, p);
}

static inline __attribute__((always_inline)) void mul_run(const microaot_mul_params_q* p, const int8_t* a,
                                                          int32_t step_a, const int8_t* b, int32_t step_b,
                                                          int8_t* out, int32_t n, int contiguous) {
  const uint32x4_t lanes = vidupq_n_u32(0, 1);
  const uint32x4_t off_a = vmulq_n_u32(lanes, (uint32_t)step_a), off_b = vmulq_n_u32(lanes, (uint32_t)step_b);
  const int32_t left = p->output_shift > 0 ? p->output_shift : 0, right = left - p->output_shift;
  const int32x4_t left_v = vdupq_n_s32(left), right_v = vdupq_n_s32(-right);
  const int32x4_t lo = vdupq_n_s32(p->activation_min), hi = vdupq_n_s32(p->activation_max);
  const int32_t o1 = p->input1_offset, o2 = p->input2_offset, multiplier = p->output_multiplier;
  const int32_t output_offset = p->output_offset;
  for (; n > 0; n -= 4, a += 4 * step_a, b += 4 * step_b, out += 4) {
    const mve_pred16_t pr = vctp32q((uint32_t)n);
    const int32x4_t x = vaddq_n_s32(mul_load(a, contiguous, off_a, pr), o1);
    int32x4_t v = vmulq_s32(x, vaddq_n_s32(mul_load(b, contiguous, off_b, pr), o2));
    v = vqrdmulhq_n_s32(vshlq_s32(v, left_v), multiplier);
    if (right > 0) v = vrshlq_s32(vaddq_s32(v, vshrq_n_s32(v, 31)), right_v);
    v = vminq_s32(vmaxq_s32(vaddq_n_s32(v, output_offset), lo), hi);
    vstrbq_p_s32(out, v, pr);
  }
}

static void mul_row(const void* params, const void* const* inputs, const ptrdiff_t* at, const int32_t* step,
                    void* output, ptrdiff_t done, int32_t n) {
  const microaot_mul_params_q* p = (const microaot_mul_params_q*)params;
  const int8_t* a = (const int8_t*)inputs[0] + at[0];
  const int8_t* b = (const int8_t*)inputs[1] + at[1];
  int8_t* out = (int8_t*)output + done;
  if (step[0] == 1 && step[1] == 1) {
    mul_run(p, a, 1, b, 1, out, n, 1);
  } else {
    mul_run(p, a, step[0], b, step[1], out, n, 0);
  }
}

void microaot_mul_s8(const microaot_mul_params_q* params, const int8_t* input1, const int8_t* input2,
                     int8_t* output) {
  const microaot_broadcast walk = MICROAOT_BROADCAST_OF(params);
  const int fits = params->output_shift <= 30 && params->output_shift >= -31;
  const void* inputs[2];
  inputs[0] = input1;
  inputs[1] = input2;
  microaot_broadcast_walk(&walk, params, inputs, output, fits ? mul_row : mul_portable_row);
}
#else
MICROAOT_DEFINE_BINARY_KERNEL(mul_s8, microaot_mul_params_q, int8_t, MICROAOT_MUL_QUANTIZED)
#endif /* MICROAOT_MVE */
