/* QUANTIZE float32 -> int8: TFLM's AffineQuantize, round(x / scale) + zero point, clamped. */
#include <math.h>

#include "microaot/kernels/quantize.h"

void microaot_quantize_f32_s8(const microaot_quantize_params* params, const float* input, int8_t* output) {
  /* Clamping the rounded quotient before adding the zero point equals clamping the sum, and keeps the
   * float -> int conversion in range (also for inf). NaN fails both comparisons and lands on lo. */
  const float lo = (float)(-128 - params->output_offset);
  const float hi = (float)(127 - params->output_offset);
  int32_t i;
  for (i = 0; i < params->size; ++i) {
    /* Division (not a multiply by the reciprocal) in float, then round half away from zero. */
    float q = roundf(input[i] / params->output_scale);
    q = q > lo ? q : lo;
    q = q < hi ? q : hi;
    output[i] = (int8_t)((int32_t)q + params->output_offset);
  }
}
