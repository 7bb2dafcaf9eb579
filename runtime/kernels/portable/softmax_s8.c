/* SOFTMAX int8 -> int8 over the last dimension, TFLM's reference arithmetic (microaot/softmax_s8_row.h). */
#include "microaot/kernels/softmax.h"
#include "microaot/softmax_s8_row.h"

void microaot_softmax_s8(const microaot_softmax_params_s8* params, const int8_t* input, int8_t* output) {
  int32_t row;
  int32_t c;
  for (row = 0; row < params->outer_size; ++row) {
    const int8_t* in = input + (int64_t)row * params->depth;
    int8_t* out = output + (int64_t)row * params->depth;
    const microaot_softmax_row_scale scale = microaot_softmax_s8_row_scale(params, in, 8);
    for (c = 0; c < params->depth; ++c) out[c] = (int8_t)microaot_softmax_s8_value(params, &scale, in[c], -128, 127);
  }
}
