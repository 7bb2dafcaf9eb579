/* ADD_N int8: TFLite Micro's fixed-point sum per element, from the scaled raw 0, wrapping in 32 bits. */
#include "microaot/kernels/add_n.h"

void microaot_add_n_s8(const microaot_add_n_params_s8* params, const int8_t* const* inputs, int8_t* output) {
  const int32_t start = MICROAOT_SCALED_SUM_TERM(params, 0);
  int32_t i, j;
  for (i = 0; i < params->size; ++i) {
    int32_t sum = start;
    for (j = 0; j < params->input_count; ++j) {
      sum = microaot_wrapping_add_s32(sum, MICROAOT_SCALED_SUM_TERM(params, inputs[j][i]));
    }
    output[i] = MICROAOT_SCALED_SUM_OUTPUT(params, sum);
  }
}
