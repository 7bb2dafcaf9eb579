/* The QUANTIZE template, float32 -> integer: TFLM's AffineQuantize, round(x / scale) + zero point, clamped.
 * The including file defines MICROAOT_DTYPE (the output type: s8 or s16) and MICROAOT_FN (declared in
 * microaot/kernels/quantize.h). */
#include "microaot/internal/fpu_round.h"
#include "microaot/internal/kernel_dtype.h"
#include "microaot/kernels/quantize.h"

/* trunc(2q) saturated wide enough that every clamped output stays exact: 16 bits for int8, 18 for int16. */
#ifndef MICROAOT_QUANTIZE_TWICE_s8
#define MICROAOT_QUANTIZE_TWICE_s8 microaot_twice_truncated_s16
#define MICROAOT_QUANTIZE_TWICE_s16 microaot_twice_truncated_s18
#endif
#define MICROAOT_QUANTIZE_ONE(k)                                                                  \
  output[i + (k)] = (MICROAOT_T)MICROAOT_CAT(microaot_halve_saturate_, MICROAOT_DTYPE)(microaot_twice_rounded( \
      MICROAOT_CAT(MICROAOT_QUANTIZE_TWICE_, MICROAOT_DTYPE)(input[i + (k)] / scale), bias))

void MICROAOT_FN(const microaot_quantize_params* params, const float* input, MICROAOT_T* output) {
  /* Division (not a multiply by the reciprocal) in float, then round half away from zero; each element read
   * before it is stored, in order (the in-place rule). Four a pass: the loop's own instructions are a third. */
  const float scale = params->output_scale;
  const int32_t bias = 2 * params->output_offset + 1;
  const int32_t size = params->size;
  int32_t i = 0;
  for (; i + 4 <= size; i += 4) {
    MICROAOT_QUANTIZE_ONE(0);
    MICROAOT_QUANTIZE_ONE(1);
    MICROAOT_QUANTIZE_ONE(2);
    MICROAOT_QUANTIZE_ONE(3);
  }
  for (; i < size; ++i) MICROAOT_QUANTIZE_ONE(0);
}
