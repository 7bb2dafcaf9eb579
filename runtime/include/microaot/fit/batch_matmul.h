/* The DSP int8 BATCH_MATMUL (dsp/batch_matmul_s8_dot.c) and its scratch, written once: the compiler's chooser
 * (compiler/ops/batch_matmul.cpp) takes the layers and sizes the planned scratch by these over the params the
 * kernel will receive, and the kernel lays the scratch out by the same functions. Pure functions of the params. */
#ifndef MICROAOT_FIT_BATCH_MATMUL_H
#define MICROAOT_FIT_BATCH_MATMUL_H

#include <stdint.h>

#include "microaot/kernels/batch_matmul.h"

/* Groups of four depth elements per widened row or column (the last padded with zeros). */
static inline int64_t microaot_bmm_dot_groups(const microaot_batch_matmul_params_q* p) {
  return ((int64_t)p->depth + 3) / 4;
}

/* Bytes of the widened RHS at the start of the scratch: its columns in pairs (the second of an odd last pair
 * zeros), four int16 words per group and pair. */
static inline int64_t microaot_bmm_dot_rhs_bytes(const microaot_batch_matmul_params_q* p) {
  return ((int64_t)p->cols + 1) / 2 * microaot_bmm_dot_groups(p) * 16;
}

/* The scratch: the widened RHS, then one pair of widened LHS rows in the same layout. */
static inline int64_t microaot_bmm_dot_scratch_bytes(const microaot_batch_matmul_params_q* p) {
  return microaot_bmm_dot_rhs_bytes(p) + microaot_bmm_dot_groups(p) * 16;
}

/* The widened elements are int8 plus an offset in 16-bit lanes (offsets in [-255, 255]: int8 zero points). The
 * output step is microaot_dsp_requant_narrow's (microaot/internal/dsp_requant.h), exact before the int8 clamp for a
 * multiplier of 0 or in [2^30, 2^31) (the compiler's), a right shift of at most 21 and an output offset in [-128,
 * 128]: 2^(29 - 21) less the offset still covers the int8 range. */
static inline int microaot_fit_bmm_dot(const microaot_batch_matmul_params_q* p) {
  return p->lhs_offset >= -255 && p->lhs_offset <= 255 && p->rhs_offset >= -255 && p->rhs_offset <= 255 &&
         (p->output_multiplier == 0 || p->output_multiplier >= (int32_t)1 << 30) && p->output_shift >= -21 &&
         p->output_shift <= 31 && p->output_offset >= -128 && p->output_offset <= 128 && p->rows > 0 && p->cols > 0 &&
         p->depth > 0;
}

#endif
