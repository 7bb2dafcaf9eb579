/* The QUANTIZE template, float32 -> integer: TFLM's AffineQuantize, round(x / scale) + zero point, clamped.
 * The including file defines MICROAOT_DTYPE (the output type: s8 or s16) and MICROAOT_FN (declared in
 * microaot/kernels/quantize.h). */
#include <math.h>

#include "microaot/internal/kernel_dtype.h"
#include "microaot/kernels/quantize.h"

void MICROAOT_FN(const microaot_quantize_params* params, const float* input, MICROAOT_T* output) {
  /* Clamping the rounded quotient before adding the zero point equals clamping the sum, and keeps the
   * float -> int conversion in range (also for inf). NaN fails both comparisons and lands on lo. */
  const float lo = (float)(MICROAOT_MIN - params->output_offset);
  const float hi = (float)(MICROAOT_MAX - params->output_offset);
  int32_t i;
  for (i = 0; i < params->size; ++i) {
    /* Division (not a multiply by the reciprocal) in float, then round half away from zero. */
    float q = roundf(input[i] / params->output_scale);
    q = q > lo ? q : lo;
    q = q < hi ? q : hi;
    output[i] = (MICROAOT_T)((int32_t)q + params->output_offset);
  }
}
