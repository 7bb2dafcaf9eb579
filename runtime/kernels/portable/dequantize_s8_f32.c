/* DEQUANTIZE int8 -> float32: scale * (x - zero point), one float multiply as TFLM's Dequantize. */
#include "microaot/kernels/quantize.h"

void microaot_dequantize_s8_f32(const microaot_dequantize_params* params, const int8_t* input, float* output) {
  int32_t i;
  for (i = 0; i < params->size; ++i) {
    output[i] = params->input_scale * (float)((int32_t)input[i] + params->input_offset);
  }
}
