/* The DEQUANTIZE template, integer -> float32: scale * (x - zero point), one float multiply as TFLM's
 * Dequantize. The including file defines MICROAOT_DTYPE (the input type: s8 or s16) and MICROAOT_FN
 * (declared in microaot/kernels/quantize.h). */
#include "microaot/internal/kernel_dtype.h"
#include "microaot/kernels/quantize.h"

void MICROAOT_FN(const microaot_dequantize_params* params, const MICROAOT_T* input, float* output) {
  int32_t i;
  for (i = 0; i < params->size; ++i) {
    output[i] = params->input_scale * (float)((int32_t)input[i] + params->input_offset);
  }
}
