/* ADD_N float32: per element, 0 plus every input in order (TFLite's reference order). */
#include "microaot/kernels/add_n.h"

void microaot_add_n_f32(const microaot_add_n_params_f32* params, const float* const* inputs, float* output) {
  int32_t i, j;
  for (i = 0; i < params->size; ++i) {
    float sum = 0.0f;
    for (j = 0; j < params->input_count; ++j) sum += inputs[j][i];
    output[i] = sum;
  }
}
