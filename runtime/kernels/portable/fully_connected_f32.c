/* FULLY_CONNECTED, float32: products summed in depth order, then the bias, then the clamp (TFLite order). */
#include "microaot/fixedpoint.h"
#include "microaot/kernels/fully_connected.h"

void microaot_fully_connected_f32(const microaot_fully_connected_params_f32* params, const float* input,
                                  const float* weights, const float* bias, float* output) {
  const int32_t depth = params->input_depth;
  const int32_t units = params->output_depth;
  int32_t b;
  int32_t u;
  int32_t d;
  for (b = 0; b < params->batches; ++b) {
    const float* in_row = input + (size_t)b * (size_t)depth;
    float* out_row = output + (size_t)b * (size_t)units;
    for (u = 0; u < units; ++u) {
      const float* w_row = weights + (size_t)u * (size_t)depth;
      float total = 0.0f;
      for (d = 0; d < depth; ++d) total += in_row[d] * w_row[d];
      /* TFLite adds a 0.0f bias when there is none (turns -0.0f into +0.0f). */
      total += bias != NULL ? bias[u] : 0.0f;
      out_row[u] = microaot_clamp_f32(total, params->activation_min, params->activation_max);
    }
  }
}
