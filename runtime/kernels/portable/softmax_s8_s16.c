/* SOFTMAX int8 -> int16 over the last dimension: the int8 kernel's arithmetic with 16 output bits
 * (microaot/softmax_s8_row.h), as TFLM does; same parameters as the int8 -> int8 kernel. */
#include "microaot/kernels/softmax.h"
#include "microaot/softmax_s8_row.h"

void microaot_softmax_s8_s16(const microaot_softmax_params_s8* params, const int8_t* input, int16_t* output) {
  int32_t row;
  int32_t c;
  for (row = 0; row < params->outer_size; ++row) {
    const int8_t* in = input + (int64_t)row * params->depth;
    int16_t* out = output + (int64_t)row * params->depth;
    const microaot_softmax_row_scale scale = microaot_softmax_s8_row_scale(params, in, 16);
    for (c = 0; c < params->depth; ++c) {
      out[c] = (int16_t)microaot_softmax_s8_value(params, &scale, in[c], -32768, 32767);
    }
  }
}
