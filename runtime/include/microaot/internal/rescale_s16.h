/* int16 ADD, SUB and MUL (TFLM's reference arithmetic, microaot/kernels/add.h and mul.h) with each rescaling in one
 * rounding: the portable kernels' fast path and the DSP kernels' rule (runtime/kernels/dsp/add_s16.c ...).
 *
 * TFLM's MultiplyByQuantizedMultiplier of x with shift -e <= 0 is RoundingDivideByPOT(SRDHM(x, m), e), and for
 * e >= 1 RoundingDivideByPOT(v, e) = (v + 2^(e-1) - [v < 0]) >> e (ties away from zero). With m >= 0, v < 0 only
 * where x < 0 and v > 0 only where x > 0, and at v = 0 both adjustments give 0: the adjustment follows x's sign.
 * An offset o added after the shift joins the rounding as o * 2^e. SRDHM(x, m) plus that rounding is one SMMLAR
 * (microaot/internal/dsp.h; C elsewhere): of y = 2x where y fits in int32 ("doubled"), or of x against 2m - 2^32
 * for a multiplier m >= 2^30, plus x ("wrapped": x * (2m - 2^32) = 2xm - x * 2^32). No branch per element; the
 * constants below check that every sum stays within int32 (else the kernels take the reference's code). The
 * portable kernels use it too: on a cpu with the DSP extension SMMLAR is one instruction, elsewhere C. */
#ifndef MICROAOT_INTERNAL_RESCALE_S16_H
#define MICROAOT_INTERNAL_RESCALE_S16_H

#include <stdint.h>

#include "microaot/internal/dsp.h"
#include "microaot/kernels/add.h"
#include "microaot/kernels/mul.h"

typedef struct {
  int32_t multiplier; /* m >= 0 (doubled), or 2m - 2^32 (wrapped) */
  int32_t rounding;   /* 2^(e-1) (0 for e = 0) + offset * 2^e */
  int32_t negative;   /* -1 for e >= 1 (a negative value rounds one lower), 0 for e = 0 */
  int32_t exponent;   /* e, in [0, 31] */
} microaot_rescale_s16;

/* The rescaling of y = 2x. */
static inline int32_t microaot_rescale_s16_doubled(int32_t y, const microaot_rescale_s16* r) {
  return microaot_dsp_smmlar(y, r->multiplier, r->rounding + ((y >> 31) & r->negative)) >> r->exponent;
}

/* The rescaling of x, the multiplier wrapped. */
static inline int32_t microaot_rescale_s16_wrapped(int32_t x, const microaot_rescale_s16* r) {
  const int32_t high = microaot_dsp_smmlar(x, r->multiplier, r->rounding + ((x >> 31) & r->negative));
  return (int32_t)((uint32_t)high + (uint32_t)x) >> r->exponent;
}

/* The rescaling of a multiplier and shift (-31..0, else 0 returned) with an offset added after it; 0 where the
 * rounding term leaves int32 or does not leave `room` beside it. */
static inline int microaot_rescale_s16_of(int32_t multiplier, int32_t shift, int32_t offset, int64_t room,
                                          microaot_rescale_s16* r) {
  int64_t rounding;
  if (multiplier < 0 || shift > 0 || shift < -31) return 0;
  r->multiplier = multiplier;
  r->exponent = -shift;
  r->negative = shift < 0 ? -1 : 0;
  rounding = (shift < 0 ? (int64_t)1 << (-shift - 1) : 0) + (int64_t)offset * ((int64_t)1 << -shift);
  r->rounding = (int32_t)rounding;
  return (rounding < 0 ? -rounding : rounding) + room < ((int64_t)1 << 31) - 1;
}

/* |SRDHM(x, m)| for |x| <= bound, plus one. */
static inline int64_t microaot_srdhm_bound(int64_t bound, int32_t multiplier) {
  return ((bound * multiplier) >> 31) + 1;
}

/* ADD and SUB: input k's value q is rescaled from x = q * 2^15 (left shift 15, offset 0), the sum or difference
 * ("raw") from itself, the output offset in the output's rounding. */
typedef struct {
  microaot_rescale_s16 input1, input2, output;
  int32_t activation_min, activation_max;
} microaot_add_s16_constants;

/* y = 2 * q * 2^15 */
static inline int32_t microaot_add_s16_input(int32_t q, const microaot_rescale_s16* r) {
  return microaot_rescale_s16_doubled(q * (1 << 16), r);
}

/* raw within [-2^30, 2^30): 2 * raw fits */
static inline int32_t microaot_add_s16_output(int32_t raw, const microaot_add_s16_constants* k) {
  return microaot_clamp_s32(microaot_rescale_s16_doubled(raw * 2, &k->output), k->activation_min, k->activation_max);
}

#define MICROAOT_ADD_S16_ONE_ROUNDING(k, a, b) \
  microaot_add_s16_output(microaot_add_s16_input(a, &(k)->input1) + microaot_add_s16_input(b, &(k)->input2), k)
#define MICROAOT_SUB_S16_ONE_ROUNDING(k, a, b) \
  microaot_add_s16_output(microaot_add_s16_input(a, &(k)->input1) - microaot_add_s16_input(b, &(k)->input2), k)

/* The constants (1), or 0 where the parameters are not TFLM's int16 ones: a left shift other than 15, input
 * offsets, shifts > 0, a clamp beyond int16. raw stays within [-2^30, 2^30) (twice it within int32). */
static inline int microaot_add_s16_constants_of(const microaot_add_params_q* p, int subtract,
                                                microaot_add_s16_constants* k) {
  int64_t lo1, hi1, lo2, hi2, raw_lo, raw_hi, raw_bound;
  if (p->left_shift != 15 || p->input1_offset != 0 || p->input2_offset != 0 || p->activation_min < -32768 ||
      p->activation_max > 32767 || p->activation_min > p->activation_max ||
      !microaot_rescale_s16_of(p->input1_multiplier, p->input1_shift, 0, (int64_t)1 << 30, &k->input1) ||
      !microaot_rescale_s16_of(p->input2_multiplier, p->input2_shift, 0, (int64_t)1 << 30, &k->input2)) {
    return 0;
  }
  /* each input's rescaling is monotonic: its bounds are those of -32768 and 32767 */
  lo1 = microaot_add_s16_input(-32768, &k->input1), hi1 = microaot_add_s16_input(32767, &k->input1);
  lo2 = microaot_add_s16_input(-32768, &k->input2), hi2 = microaot_add_s16_input(32767, &k->input2);
  raw_lo = subtract ? lo1 - hi2 : lo1 + lo2;
  raw_hi = subtract ? hi1 - lo2 : hi1 + hi2;
  if (raw_lo < -((int64_t)1 << 30) || raw_hi >= ((int64_t)1 << 30)) return 0;
  raw_bound = raw_hi > -raw_lo ? raw_hi : -raw_lo;
  k->activation_min = p->activation_min, k->activation_max = p->activation_max;
  return microaot_rescale_s16_of(p->output_multiplier, p->output_shift, p->output_offset,
                                 microaot_srdhm_bound(raw_bound, p->output_multiplier), &k->output);
}

/* MUL: the product of the two values (offsets 0; 2^30 at most, so not doubled), rescaled with its multiplier
 * wrapped and the output offset in the rounding. */
typedef struct {
  microaot_rescale_s16 output;
  int32_t activation_min, activation_max;
} microaot_mul_s16_constants;

#define MICROAOT_MUL_S16_ONE_ROUNDING(k, a, b) \
  microaot_clamp_s32(microaot_rescale_s16_wrapped((a) * (b), &(k)->output), (k)->activation_min, (k)->activation_max)

/* The constants (1), or 0 for input offsets, a multiplier below 2^30 (not TFLM's), a shift > 0 or a clamp beyond
 * int16. */
static inline int microaot_mul_s16_constants_of(const microaot_mul_params_q* p, microaot_mul_s16_constants* k) {
  if (p->input1_offset != 0 || p->input2_offset != 0 || p->output_multiplier < (1 << 30) ||
      p->activation_min < -32768 || p->activation_max > 32767 || p->activation_min > p->activation_max ||
      !microaot_rescale_s16_of(p->output_multiplier, p->output_shift, p->output_offset,
                               microaot_srdhm_bound((int64_t)1 << 30, p->output_multiplier), &k->output)) {
    return 0;
  }
  k->output.multiplier = (int32_t)((uint32_t)p->output_multiplier << 1);
  k->activation_min = p->activation_min, k->activation_max = p->activation_max;
  return 1;
}

/* Defines microaot_<name> (int16, params P): where CONSTANTS_OF(params, &constants) holds, each row of the broadcast
 * walk's first ROWS(&constants, a, b, step1, step2, out, n) elements as that returns (a DSP kernel's pairs; 0 for
 * none: MICROAOT_S16_NO_ROWS), the others by the one-rounding ELEMENT(&constants, a, b), unless
 * WHOLE(params, &constants, input1, input2, output) did the whole tensor (1; MICROAOT_S16_NO_WHOLE: 0); else the
 * reference's REFERENCE(params, a, b) (as microaot_<reference>, a name of the file's own: a DSP source builds
 * beside the portable one in the host tests). */
#define MICROAOT_S16_NO_ROWS(k, a, b, step1, step2, out, n) 0
#define MICROAOT_S16_NO_WHOLE(params, k, a, b, out) 0
#define MICROAOT_DEFINE_S16_ONE_ROUNDING_KERNEL(name, reference, P, K, CONSTANTS_OF, ELEMENT, REFERENCE, ROWS, WHOLE) \
  void microaot_##reference(const P* params, const int16_t* input1, const int16_t* input2, int16_t* output);   \
  MICROAOT_DEFINE_BINARY_KERNEL(reference, P, int16_t, REFERENCE)                                              \
  static void name##_one_rounding_row(const void* constants, const void* const* inputs, const ptrdiff_t* at,    \
                                      const int32_t* step, void* output, ptrdiff_t done, int32_t n) {           \
    const int16_t* a = (const int16_t*)inputs[0] + at[0];                                                      \
    const int16_t* b = (const int16_t*)inputs[1] + at[1];                                                      \
    const int32_t step1 = step[0], step2 = step[1];                                                            \
    int16_t* o = (int16_t*)output + done;                                                                      \
    int32_t c = ROWS((const K*)constants, a, b, step1, step2, o, n);                                           \
    if (c < n) {                                                                                               \
      const K k = *(const K*)constants; /* a local: a store through int16_t* could alias the struct */         \
      if (step1 == 1 && step2 == 1) { /* contiguous: the steps as constants free two registers */              \
        for (; c < n; ++c) o[c] = (int16_t)(ELEMENT(&k, a[c], b[c]));                                           \
      }                                                                                                        \
      for (; c < n; ++c) o[c] = (int16_t)(ELEMENT(&k, a[c * step1], b[c * step2]));                             \
    }                                                                                                          \
  }                                                                                                            \
  void microaot_##name(const P* params, const int16_t* input1, const int16_t* input2, int16_t* output) {      \
    const microaot_broadcast walk = MICROAOT_BROADCAST_OF(params);                                             \
    const void* inputs[2];                                                                                     \
    K k;                                                                                                       \
    if (!CONSTANTS_OF(params, &k)) {                                                                           \
      microaot_##reference(params, input1, input2, output);                                                    \
      return;                                                                                                  \
    }                                                                                                          \
    if (WHOLE(params, &k, input1, input2, output)) return;                                                     \
    inputs[0] = input1;                                                                                        \
    inputs[1] = input2;                                                                                        \
    microaot_broadcast_walk(&walk, &k, inputs, output, name##_one_rounding_row);                               \
  }

#endif /* MICROAOT_INTERNAL_RESCALE_S16_H */
