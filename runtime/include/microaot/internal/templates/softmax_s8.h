/* The int8-input SOFTMAX template, TFLM's reference arithmetic: the including file defines MICROAOT_DTYPE,
 * the output type (s8 or s16), and MICROAOT_FN (declared in microaot/kernels/softmax.h). Per row: the
 * maximum; the sum of the Q0.31 exps of the differences, each rescaled to Q12.19; the reciprocal of the sum
 * as 2^-n * r; then each output is exp * r / 2^(n + 31 - output bits) rounded, plus the output type's
 * minimum, clamped. Differences below diff_min give the type's minimum. */
#include <stddef.h>
#include <stdint.h>

#include "microaot/fixedpoint.h"
#include "microaot/internal/kernel_dtype.h"
#include "microaot/kernels/softmax.h"

/* The params and the exp of a difference: the kernel's own (microaot_softmax_s8_exp), or an including file's
 * MICROAOT_SOFTMAX_PARAMS and MICROAOT_SOFTMAX_EXP(params, diff) (the table variant's read). The exp must be 0
 * below diff_min: the output pass relies on it to give the minimum there. */
#ifndef MICROAOT_SOFTMAX_PARAMS
#define MICROAOT_SOFTMAX_PARAMS microaot_softmax_params_s8
#define MICROAOT_SOFTMAX_EXP microaot_softmax_s8_exp
/* The sum pass keeps the exps of a row's first elements for the output pass (the fixed-point exp is about
 * 150 instructions on a Cortex-M4); longer rows compute the rest again. */
#define MICROAOT_SOFTMAX_KEPT_EXPS 16
#else
#define MICROAOT_SOFTMAX_KEPT_EXPS 0 /* a table read costs no more than a kept exp */
#endif

/* 1 / sum for the Q12.19 sum of a row's exps, as a Q0.31 mantissa and the right shift (*exponent) that puts
 * the high product of an exp and that mantissa into output units. */
static int32_t softmax_reciprocal(uint32_t sum, int* exponent) {
  int num_bits_over_unit;
  const int32_t reciprocal = microaot_reciprocal((int32_t)sum, 12, &num_bits_over_unit);
  /* TFLM requires 0 <= exponent <= 31 (it aborts otherwise); clamping keeps the kernel defined. */
  *exponent = num_bits_over_unit + 31 - (int)(8 * sizeof(MICROAOT_T));
  *exponent = *exponent < 0 ? 0 : (*exponent > 31 ? 31 : *exponent);
  return reciprocal;
}

/* Pass 0 sums the row's exps, pass 1 scales them into the outputs: one call site of the exp, whose code is
 * most of the kernel's. An exp of 0 (every difference below diff_min) scales to 0, so gives the minimum. */
static void softmax_row(const MICROAOT_SOFTMAX_PARAMS* params, const int8_t* in, MICROAOT_T* out) {
  int32_t kept[MICROAOT_SOFTMAX_KEPT_EXPS > 0 ? MICROAOT_SOFTMAX_KEPT_EXPS : 1];
  uint32_t sum = 0; /* Q12.19; unsigned so that an (invalid) overflow wraps instead of being UB */
  int32_t max = INT8_MIN, reciprocal = 0, c;
  int exponent = 0, pass;
  for (c = 0; c < params->depth; ++c) max = in[c] > max ? in[c] : max;
  for (pass = 0; pass < 2; ++pass) {
    for (c = 0; c < params->depth; ++c) {
      const int is_kept = c < MICROAOT_SOFTMAX_KEPT_EXPS;
      const int32_t e = pass == 1 && is_kept ? kept[c] : MICROAOT_SOFTMAX_EXP(params, (int32_t)in[c] - max);
      int32_t value;
      if (pass == 0) {
        if (is_kept) kept[c] = e;
        sum += (uint32_t)microaot_rounding_divide_by_pot(e, 12);
        continue;
      }
      value = microaot_rounding_divide_by_pot(microaot_sat_rounding_doubling_high_mul(reciprocal, e), exponent);
      out[c] = (MICROAOT_T)microaot_clamp_s32(value + MICROAOT_MIN, MICROAOT_MIN, MICROAOT_MAX);
    }
    if (pass == 0) reciprocal = softmax_reciprocal(sum, &exponent);
  }
}

void MICROAOT_FN(const MICROAOT_SOFTMAX_PARAMS* params, const int8_t* input, MICROAOT_T* output) {
  int32_t row;
  for (row = 0; row < params->outer_size; ++row) {
    const size_t start = (size_t)row * (size_t)params->depth;
    softmax_row(params, input + start, output + start);
  }
}
