/* QUANTIZE int8 -> int16: rescale to the output's scale and zero point (TFLM's Requantize). */
#include "microaot/fixedpoint.h"
#include "microaot/kernels/quantize.h"

void microaot_requantize_s8_s16(const microaot_requantize_params* params, const int8_t* input, int16_t* output) {
  int32_t i;
  for (i = 0; i < params->size; ++i) {
    const int32_t x = (int32_t)input[i] + params->input_offset;
    /* Summed in 64 bits: equals TFLM's int32 sum wherever that one does not overflow. */
    int64_t y = (int64_t)microaot_multiply_by_quantized_multiplier(x, params->output_multiplier,
                                                                   params->output_shift);
    y += params->output_offset;
    output[i] = (int16_t)(y < -32768 ? -32768 : (y > 32767 ? 32767 : y));
  }
}
