/* The CUMSUM template for one element type: the including file defines MICROAOT_DTYPE (s8, f32) and
 * MICROAOT_FN (declared in microaot/kernels/cumsum.h). Each line along the axis keeps one running sum; the
 * type's traits say what the sum starts from, what one element adds and how a sum becomes an output. */
#include <stddef.h>

#include "microaot/internal/kernel_dtype.h"
#include "microaot/kernels/cumsum.h"

/* int8 sums wrap in 32 bits; its start is the scaled raw 0, as in TFLM (see microaot/kernels/cumsum.h and
 * microaot/scaled_sum.h). */
#define MICROAOT_CUMSUM_SUM_s8 int32_t
#define MICROAOT_CUMSUM_START_s8(p) MICROAOT_SCALED_SUM_TERM(p, 0)
#define MICROAOT_CUMSUM_TERM_s8(p, x) MICROAOT_SCALED_SUM_TERM(p, x)
#define MICROAOT_CUMSUM_ADD_s8(sum, term) microaot_wrapping_add_s32(sum, term)
#define MICROAOT_CUMSUM_OUTPUT_s8(p, sum) MICROAOT_SCALED_SUM_OUTPUT(p, sum)
#define MICROAOT_CUMSUM_SUM_f32 float
#define MICROAOT_CUMSUM_START_f32(p) 0.0f
#define MICROAOT_CUMSUM_TERM_f32(p, x) (x)
#define MICROAOT_CUMSUM_ADD_f32(sum, term) ((sum) + (term))
#define MICROAOT_CUMSUM_OUTPUT_f32(p, sum) (sum)

#define MICROAOT_CUMSUM_SUM MICROAOT_CAT(MICROAOT_CUMSUM_SUM_, MICROAOT_DTYPE)
#define MICROAOT_CUMSUM_START(p) MICROAOT_CAT(MICROAOT_CUMSUM_START_, MICROAOT_DTYPE)(p)
#define MICROAOT_CUMSUM_TERM(p, x) MICROAOT_CAT(MICROAOT_CUMSUM_TERM_, MICROAOT_DTYPE)(p, x)
#define MICROAOT_CUMSUM_ADD(sum, term) MICROAOT_CAT(MICROAOT_CUMSUM_ADD_, MICROAOT_DTYPE)(sum, term)
#define MICROAOT_CUMSUM_OUTPUT(p, sum) MICROAOT_CAT(MICROAOT_CUMSUM_OUTPUT_, MICROAOT_DTYPE)(p, sum)

/* One line: depth elements `inner` apart, from the first or (reverse) from the last. */
static void cumsum_line(const MICROAOT_PARAMS(cumsum) * p, const MICROAOT_T* input, MICROAOT_T* output) {
  const ptrdiff_t step = p->reverse ? -(ptrdiff_t)p->inner : (ptrdiff_t)p->inner;
  ptrdiff_t at = p->reverse ? (ptrdiff_t)(p->depth - 1) * p->inner : 0;
  MICROAOT_CUMSUM_SUM sum = MICROAOT_CUMSUM_START(p);
  int32_t d;
  for (d = 0; d < p->depth; ++d, at += step) {
    const MICROAOT_CUMSUM_SUM term = MICROAOT_CUMSUM_TERM(p, input[at]);
    if (p->exclusive) output[at] = MICROAOT_CUMSUM_OUTPUT(p, sum);
    sum = MICROAOT_CUMSUM_ADD(sum, term);
    if (!p->exclusive) output[at] = MICROAOT_CUMSUM_OUTPUT(p, sum);
  }
}

void MICROAOT_FN(const MICROAOT_PARAMS(cumsum) * params, const MICROAOT_T* input, MICROAOT_T* output) {
  const ptrdiff_t block = (ptrdiff_t)params->depth * params->inner;
  int32_t o, i;
  for (o = 0; o < params->outer; ++o) {
    for (i = 0; i < params->inner; ++i) {
      cumsum_line(params, input + o * block + i, output + o * block + i);
    }
  }
}
